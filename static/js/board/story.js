// The result dialog's story of a ranked game, drawn from the server's figures (GET
// story_url, leaderboards/story.py): the spread of the day's results with the player's bar
// marked, the streak, and what to do next (the board, the replay, practice, the other
// ranked game) with the countdown to the next deal. The words and the band maths are
// story-words.js's (pure); this module only puts them in the dialog's elements
// (templates/games/_board_result.html).

import { t } from "./i18n.js";
import {
  bandLabel,
  bands,
  nextDealText,
  nextRankedText,
  practiceText,
  spreadCaption,
  spreadHeading,
  streakDays,
  streakNote,
} from "./story-words.js";

/** Draws a story into the result dialog, and keeps its countdown ticking. */
export class StoryView {
  /** @param {HTMLDialogElement} dialog */
  constructor(dialog) {
    this.dialog = dialog;
    this.timer = null;
  }

  /** @returns {HTMLElement | null} */
  part(name) {
    return this.dialog.querySelector(`[data-story="${name}"]`);
  }

  /** @param {import("./story-words.js").Story} story */
  show(story) {
    this.spread(story);
    this.streak(story);
    this.steps(story);
    this.countdown(story);
    const box = this.part("box");
    if (box) box.hidden = false;
  }

  /** @param {import("./story-words.js").Story} story */
  spread(story) {
    const figure = this.part("spread");
    const list = this.part("bars");
    if (!figure || !list) return;
    figure.hidden = !story.players;
    if (!story.players) return;
    this.part("spread-heading").textContent = spreadHeading(story);
    this.part("spread-caption").textContent = spreadCaption(story.players);
    const mine = story.rank ? { score: story.score, won: story.won } : null;
    list.replaceChildren(...bands(story.spread, mine).map((band) => this.bar(band)));
  }

  /** @param {import("./story-words.js").Band} band */
  bar(band) {
    const item = document.createElement("li");
    item.className = "ft-spread__bar";
    if (band.mine) item.classList.add("is-mine");
    if (band.won) item.classList.add("is-won");
    item.dataset.count = String(band.count);
    const label = document.createElement("span");
    label.className = "ft-spread__label";
    label.textContent = bandLabel(band);
    const track = document.createElement("span");
    track.className = "ft-spread__track";
    const fill = document.createElement("span");
    fill.className = "ft-spread__fill";
    // Through the CSSOM: the page's CSP allows no inline style attribute.
    fill.style.setProperty("--share", String(band.share));
    const count = document.createElement("span");
    count.className = "ft-spread__count";
    count.textContent = String(band.count);
    fill.append(count);
    track.append(fill);
    item.append(label, track);
    if (band.mine) {
      const you = document.createElement("span");
      you.className = "ft-spread__you";
      you.textContent = t("you");
      item.append(you);
    }
    return item;
  }

  /** @param {import("./story-words.js").Story} story */
  streak(story) {
    const box = this.part("streak");
    if (!box) return;
    box.hidden = !story.streak;
    if (!story.streak) return;
    this.part("streak-current").textContent = streakDays(story.streak.current);
    this.part("streak-best").textContent = streakDays(story.streak.best);
    this.part("streak-note").textContent = streakNote(story.streak, story.won);
  }

  /** @param {import("./story-words.js").Story} story */
  steps(story) {
    const list = this.part("steps");
    if (!list) return;
    const board = story.kind === "weekly" ? t("See the week's board") : t("See the day's board");
    const items = [
      this.link(story.links.board, board, "story-board"),
      this.link(story.links.replay, t("Replay your game"), "story-replay"),
      this.action(story.practice, practiceText(story.practice), "story-practice"),
    ];
    if (story.next_ranked) {
      items.push(this.link(story.next_ranked.url, nextRankedText(story.next_ranked), "story-next-ranked"));
    }
    list.replaceChildren(
      ...items.map((child) => {
        const item = document.createElement("li");
        item.append(child);
        return item;
      }),
    );
    // The story's steps replace the page's plain links (kept for a story that never came).
    const plain = this.dialog.querySelector('[data-result="links"]');
    if (plain instanceof HTMLElement) plain.hidden = true;
  }

  link(href, text, testid) {
    const link = document.createElement("a");
    link.className = "ft-btn";
    link.href = href;
    link.textContent = text;
    link.dataset.testid = testid;
    return link;
  }

  /** A step that starts a game: a plain POST form, with the page's CSRF token. */
  action(step, text, testid) {
    if (step.method !== "post") return this.link(step.url, text, testid);
    const form = document.createElement("form");
    form.method = "post";
    form.action = step.url;
    const token = this.dialog.querySelector('input[name="csrfmiddlewaretoken"]');
    const fields = { ...(step.fields || {}) };
    if (token instanceof HTMLInputElement) fields.csrfmiddlewaretoken = token.value;
    for (const [name, value] of Object.entries(fields)) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.append(input);
    }
    const button = document.createElement("button");
    button.type = "submit";
    button.className = "ft-btn";
    button.textContent = text;
    button.dataset.testid = testid;
    form.append(button);
    return form;
  }

  /** When the next deal opens, to the second, in the server's time. */
  countdown(story) {
    const line = this.part("countdown");
    if (!line) return;
    clearInterval(this.timer);
    if (!story.next_deal_at) {
      line.hidden = true;
      return;
    }
    const until = Date.parse(story.next_deal_at);
    const skew = Date.parse(story.server_now) - Date.now();
    const tick = () => {
      const left = until - (Date.now() + skew);
      line.textContent = nextDealText(story.kind, left);
      if (left <= 0) clearInterval(this.timer);
    };
    line.hidden = false;
    tick();
    this.timer = setInterval(tick, 1000);
  }
}
