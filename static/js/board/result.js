// The result dialog: the outcome in plain words with the cards home, the score, moves,
// time and hints; a win is celebrated (confetti, unless the player asks for reduced
// motion); the share text with its Copy button (a practice game's from here, with a link
// to the same deal). A ranked game's dialog then tells its story from the server (its
// place among the players so far, the day's spread, the streak, what next: story.js),
// with a daily result's spoiler-free share text.

import { confettiCount, practiceShareText, reviewText } from "./finish.js";
import { clock } from "./state.js";
import { StoryView } from "./story.js";
import { cardsHome, outcomeWords, placeText } from "./story-words.js";
import { t } from "./i18n.js";

const STORY_TRIES = 6; // a ranked result is verified, then ranked, just after the last move
const STORY_RETRY_MS = 1000;
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

export class ResultDialog {
  /**
   * @param {Element} root  the board
   * @param {object} options  mine: the viewer is the player; storyUrl: where a ranked
   *                          game's story is (leaderboards/story.py), or null; practice:
   *                          {code, link, variant} of a practice deal, or null
   * @param {boolean} options.mine
   * @param {string | null} options.storyUrl
   * @param {{code: string, link: string, variant: string} | null} [options.practice]
   */
  constructor(root, { mine, storyUrl, practice = null }) {
    /** @type {HTMLDialogElement | null} */
    this.dialog = root.querySelector('[data-testid="result"]');
    /** @type {HTMLElement | null} */
    this.afterGame = root.querySelector('[data-testid="board-analysis-link"]');
    this.mine = mine;
    this.storyUrl = storyUrl;
    this.practice = practice;
    this.storyLoaded = false;
    this.story = this.dialog ? new StoryView(this.dialog) : null;
    this.dialog?.querySelector('[data-action="copy-share"]')?.addEventListener("click", () => this.copy());
  }

  /** @returns {HTMLElement | null} */
  field(name) {
    return this.dialog.querySelector(`[data-result="${name}"]`);
  }

  /** Open the dialog on `game`'s outcome; `seconds` is the game's clock. */
  show(game, seconds) {
    if (this.afterGame) this.afterGame.hidden = false; // the replay and analysis, on the board too
    if (!this.dialog) return;
    const words = outcomeWords(game, this.mine);
    this.field("title").textContent = words.title;
    this.field("line").textContent = words.line;
    const { home, total } = cardsHome(game.board);
    const cards = this.field("cards");
    if (cards) cards.textContent = `${home}/${total}`;
    this.field("score").textContent = String(game.score);
    this.field("moves").textContent = String(game.moves);
    this.field("time").textContent = clock(seconds);
    const hints = this.field("hints");
    if (hints) hints.textContent = String(game.hints ?? 0);
    this.dialog.dataset.status = game.status;
    if (this.storyUrl && this.mine && !this.storyLoaded) this.loadStory();
    else if (this.practice && this.mine) this.showShare(this.practiceText(game, seconds));
    if (!this.dialog.open) this.dialog.showModal?.();
    if (game.status === "won" && this.mine) this.celebrate();
  }

  practiceText(game, seconds) {
    const { code, link, variant } = this.practice;
    return practiceShareText({ ...game, time: clock(seconds), code, link, variant });
  }

  showShare(text) {
    this.field("share-text").textContent = text;
    this.field("share").hidden = false;
  }

  /** Confetti over the dialog, once; none at all with reduced motion. */
  celebrate() {
    this.dialog.classList.add("is-won");
    const layer = this.field("confetti");
    if (!layer || layer.childElementCount) return;
    const count = confettiCount(reducedMotion.matches);
    for (let i = 0; i < count; i += 1) {
      const bit = document.createElement("span");
      bit.className = "ft-confetti__bit";
      // Custom properties through the CSSOM (the page's CSP allows no inline styles).
      bit.style.setProperty("--x", `${(i * 37) % 100}%`);
      bit.style.setProperty("--delay", `${(i % 9) * 90}ms`);
      bit.style.setProperty("--turn", `${(i * 53) % 360}deg`);
      layer.append(bit);
    }
  }

  async loadStory() {
    this.storyLoaded = true;
    const lang = document.documentElement.lang || "en";
    for (let tries = 1; tries <= STORY_TRIES; tries += 1) {
      const story = await this.fetchStory();
      const told = story && story !== "pending" ? story : null;
      if (told) {
        if (told.text) this.showShare(told.text);
        // The verified time, as the share text and the board say it (not this page's clock).
        if (told.time) this.field("time").textContent = told.time;
        const line = reviewText(told) || placeText(told, lang);
        if (line) this.field("rank").textContent = line;
        this.story?.show(told);
      }
      // Not verified yet (409), or verified but not on the board (nor held) yet: ask again.
      const waiting = story === "pending" || (told && !told.rank && !told.review);
      if (!waiting) return;
      await new Promise((resolve) => setTimeout(resolve, STORY_RETRY_MS));
    }
  }

  /**
   * The story (story-words.js's Story), "pending", or null (none: 404, offline).
   * @returns {Promise<import("./story-words.js").Story | "pending" | null>}
   */
  async fetchStory() {
    try {
      const response = await fetch(this.storyUrl, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      if (response.status === 409) return "pending";
      return response.ok ? await response.json() : null;
    } catch {
      return null; // offline: the result stands without its story
    }
  }

  async copy() {
    const status = this.field("copied");
    try {
      await navigator.clipboard.writeText(this.field("share-text").textContent);
      status.textContent = t("Copied.");
    } catch {
      status.textContent = t("Copy failed: select the text and copy it.");
    }
  }
}
