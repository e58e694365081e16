// Hints (practice only, and on a daily deal only once its day has closed: the server's
// `solver_help`): the server's solver picks a legal move; the board marks its source and
// target for a moment, says it in a callout beside the card to move, and plays nothing.

import { pileWords } from "./describe.js";
import { t } from "./i18n.js";
import { movePiles, parseMove } from "./moves.js";

const HINT_SHOWN_MS = 2500; // how long a hint's source and target stay marked
const MARKS = { source: "3px dashed #e0a800", target: "3px solid #e0a800" };

export class Hints {
  /**
   * @param {object} parts  root, view (BoardView), socket (GameSocket), notices (Notices),
   *                        game() -> the current state, onCount(hints) -> store the count
   * @param {Element} parts.root
   * @param {import("./render.js").BoardView} parts.view
   * @param {import("./socket.js").GameSocket} parts.socket
   * @param {import("./notices.js").Notices} parts.notices
   * @param {() => any} parts.game
   * @param {(hints: number) => void} parts.onCount
   */
  constructor({ root, view, socket, notices, game, onCount }) {
    /** @type {HTMLButtonElement | null} */
    this.button = root.querySelector('[data-action="hint"]');
    this.view = view;
    this.socket = socket;
    this.notices = notices;
    this.game = game;
    this.onCount = onCount;
    this.pending = null; // the id of the hint asked and not yet answered
    this.timer = null;
    this.marked = [];
  }

  updateButton() {
    if (this.button) this.button.disabled = this.game().status !== "active" || Boolean(this.pending);
  }

  ask() {
    const game = this.game();
    if (game.role !== "player" || !game.solver_help || game.status !== "active" || this.pending) return;
    const id = `hint-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    if (!this.socket.send({ type: "hint", id })) return;
    this.pending = id;
    this.updateButton();
  }

  /** A new connection will not answer a hint asked on the old one: it may be asked again. */
  forget() {
    this.pending = null;
    this.updateButton();
  }

  /** A refusal of our pending hint (true: handled here), else false for the queue's. */
  refused(msg) {
    if (!this.pending || msg.id !== this.pending) return false;
    this.forget();
    if (msg.reason) this.notices.remind(msg.reason, this.button);
    return true;
  }

  answered(msg) {
    if (msg.id !== this.pending) return;
    this.forget();
    this.onCount(msg.hints);
    this.clear();
    if (!msg.move) {
      this.notices.remind(t("No hint: there is no move to make."), this.button);
      return;
    }
    const [source, target] = movePiles(msg.move);
    this.mark(source, "source");
    this.mark(target, "target");
    const board = this.game().board;
    const words =
      source && target && source !== "stock"
        ? t("Hint: from %(src)s to %(dst)s.", { src: pileWords(source, board), dst: pileWords(target, board) })
        : msg.move === "r"
          ? t("Hint: turn the waste over.")
          : t("Hint: draw a card.");
    // Beside the card to move (the stock for a draw), as a refusal is beside its card.
    const count = parseMove(msg.move)?.count ?? 1;
    this.notices.remind(words, source ? this.view.placeOf(source, count) : null);
    this.notices.announce(words);
    this.timer = setTimeout(() => this.clear(), HINT_SHOWN_MS);
  }

  mark(name, end) {
    const el = name ? this.view.pile(name) : null;
    if (!el) return;
    el.style.outline = MARKS[end];
    el.style.outlineOffset = "2px";
    el.setAttribute("data-hint", end);
    this.marked.push(el);
  }

  /** Take the marks off (the time is up, or the board changed under them). */
  clear() {
    clearTimeout(this.timer);
    for (const el of this.marked) {
      el.style.outline = "";
      el.style.outlineOffset = "";
      el.removeAttribute("data-hint");
    }
    this.marked = [];
  }
}
