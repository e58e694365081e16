// The replay viewer: the game's own board (board/render.js) in read-only mode, stepped
// through the frames of a finished game, or of the solver's winning line from one of its
// positions (the post-game analysis). Play and pause, four speeds, a step at a time, and
// a link to any step ("#move=12", which also opens the page there).
//
// The data comes from the page (json_script "replay-data"): the initial player view and
// steps {seq, action, words, score, changes}. All text goes in through textContent.

import { t } from "../board/i18n.js";
import { BoardView } from "../board/render.js";
import { animates, boardGame, buildFrames, hashFor, stepFromHash, stepMs } from "./frames.js";

const TYPING = new Set(["INPUT", "TEXTAREA", "SELECT"]);

/** One sequence the board can show: its frames, the steps between them, its last status. */
function sequence(initial, steps, status, start = null) {
  return { frames: buildFrames(initial, steps), steps, status, start };
}

export class ReplayViewer {
  constructor(section, data) {
    this.section = section;
    this.view = new BoardView(section.querySelector("[data-replay-board]"));
    const find = (name) => section.querySelector(`[data-replay-${name}]`);
    this.out = {
      source: find("source"),
      step: find("step"),
      last: find("last"),
      score: find("score"),
      words: find("words"),
      notation: find("notation"),
      link: find("link"),
      lineBar: find("line-bar"),
    };
    this.speed = find("speed");
    this.buttons = {};
    for (const button of section.querySelectorAll("[data-go]")) this.buttons[button.dataset.go] = button;
    const status = data.game ? data.game.status : data.deal && data.deal.won ? "won" : "active";
    this.game = sequence(data.initial, data.steps, status);
    this.current = this.game;
    this.index = 0;
    this.timer = null;
    this.urlTimer = null;
  }

  start() {
    const actions = {
      first: () => this.jump(0),
      back: () => this.jump(this.index - 1),
      play: () => this.toggle(),
      forward: () => this.jump(this.index + 1),
      last: () => this.jump(this.lastIndex()),
      game: () => this.backToGame(this.current.start ?? 0),
    };
    for (const [name, action] of Object.entries(actions)) this.buttons[name]?.addEventListener("click", action);
    this.speed?.addEventListener("change", () => {
      if (this.timer !== null) this.schedule();
    });
    document.addEventListener("keydown", (event) => this.onKey(event));
    window.addEventListener("hashchange", () => this.followHash());
    // Links to a step ("#move=12": the list of actions, the analysis) show it at once, even
    // when the address names it already (no hashchange then).
    document.addEventListener("click", (event) => {
      const link = /** @type {Element} */ (event.target).closest?.('a[href^="#move="]');
      if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const step = stepFromHash(link.getAttribute("href"), this.game.frames.length - 1);
      if (step === null) return;
      event.preventDefault();
      this.goTo(step);
    });
    window.addEventListener("resize", () => this.view.fitColumns());
    const linked = stepFromHash(location.hash, this.lastIndex());
    this.show(linked ?? 0, { animate: false });
  }

  lastIndex() {
    return this.current.frames.length - 1;
  }

  /** Draw step `i` of the current sequence (kept within its ends). */
  show(i, { animate = true } = {}) {
    this.index = Math.max(0, Math.min(this.lastIndex(), i));
    const { frames, steps, status, start } = this.current;
    const step = this.index ? steps[this.index - 1] : null;
    const score = step ? step.score : frames[0].score;
    this.view.render(boardGame(frames, this.index, { score, status }), { animate });
    const inLine = start !== null;
    this.out.source.textContent = inLine ? t("The solver's winning line from move %(n)s:", { n: start }) : "";
    this.out.step.textContent = String(this.index);
    this.out.last.textContent = String(this.lastIndex());
    this.out.score.textContent = String(score);
    this.out.words.textContent = step ? step.words : inLine ? t("The position it starts from") : t("The deal");
    this.out.notation.textContent = step ? step.action : "";
    this.out.link.hidden = inLine;
    this.out.link.setAttribute("href", hashFor(this.index));
    this.out.lineBar.hidden = !inLine;
    this.buttons.first.disabled = this.buttons.back.disabled = this.index === 0;
    this.buttons.forward.disabled = this.buttons.last.disabled = this.index === this.lastIndex();
  }

  /** A step the reader asked for: playing stops, and the address names the step. */
  jump(i) {
    this.pause();
    this.show(i);
    this.nameStep();
  }

  /**
   * The address names the game's step shown (so it can be copied), a moment after the
   * last step: browsers refuse a flood of history changes (a held arrow key).
   */
  nameStep() {
    clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(() => {
      if (this.current !== this.game) return;
      try {
        history.replaceState(null, "", hashFor(this.index));
      } catch {
        /* refused: the link in the status line still names the step */
      }
    }, 250);
  }

  toggle() {
    if (this.timer === null) this.play();
    else this.pause();
  }

  play() {
    if (this.index === this.lastIndex()) this.show(0, { animate: false });
    this.setPlaying(true);
    this.schedule();
  }

  pause() {
    if (this.timer === null) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.setPlaying(false);
    this.nameStep();
  }

  schedule() {
    clearTimeout(this.timer);
    const speed = this.speed?.value;
    this.timer = setTimeout(() => {
      this.show(this.index + 1, { animate: animates(speed) });
      if (this.index === this.lastIndex()) this.pause();
      else this.schedule();
    }, stepMs(speed));
  }

  setPlaying(on) {
    const button = this.buttons.play;
    button.textContent = on ? button.dataset.labelPause : button.dataset.labelPlay;
    button.setAttribute("aria-pressed", String(on));
    this.section.classList.toggle("is-playing", on);
  }

  /** The solver's line from step `start` of the game: `steps` as the replay's. */
  showLine(start, steps) {
    this.pause();
    this.current = sequence(this.game.frames[start], steps, "won", start);
    this.show(0, { animate: false });
    this.section.scrollIntoView({ block: "start" });
  }

  backToGame(step) {
    this.pause();
    this.current = this.game;
    this.show(step, { animate: false });
  }

  /** A link to a step of the game was followed (the address changed by hand). */
  followHash() {
    const step = stepFromHash(location.hash, this.game.frames.length - 1);
    if (step !== null) this.goTo(step);
  }

  /** Step `step` of the game, from anywhere (the analysis's links): the board in view. */
  goTo(step) {
    this.backToGame(step);
    this.nameStep();
    this.section.scrollIntoView({ block: "start" });
  }

  onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && TYPING.has(target.tagName)) return;
    // Home/End would otherwise scroll the page: take them only inside the viewer.
    const inside = this.section.contains(target);
    const keys = {
      ArrowLeft: () => this.jump(this.index - 1),
      ArrowRight: () => this.jump(this.index + 1),
      Home: inside ? () => this.jump(0) : null,
      End: inside ? () => this.jump(this.lastIndex()) : null,
      p: () => this.toggle(),
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  }
}
