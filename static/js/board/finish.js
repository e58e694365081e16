// The finish and the celebration, without the DOM. Once the server says every card left
// can go home with no choice to make (`can_finish`, see docs/protocol.md), the board offers
// to finish: the cards go home one move at a time through the ordinary action queue, so
// each is judged and logged by the server and drawn by the usual slide. A won game is
// then celebrated (result.js), with the practice deal's share text from here.

import { t } from "./i18n.js";
import { parseMove } from "./moves.js";

/**
 * A legal move that sends a card home (from the waste or a column), or null.
 * @param {import("./state.js").Game} game
 * @returns {string | null}
 */
export function nextHomeMove(game) {
  if (game.status !== "active") return null;
  const home = (game.legal_moves || []).find((text) => {
    const move = parseMove(text);
    return Boolean(move) && move.dst[0] === "f" && move.src[0] !== "f";
  });
  return home ?? null;
}

/**
 * Whether the board offers to finish now.
 * @param {import("./state.js").Game} game
 * @returns {boolean}
 */
export function offersFinish(game) {
  return game.status === "active" && Boolean(game.can_finish) && nextHomeMove(game) !== null;
}

/**
 * Sends the cards home one by one. Each move is chosen when its turn comes, on the board
 * the last answer brought; a pause between moves lets each slide be seen.
 */
export class Finisher {
  /**
   * @param {object} hooks  game() -> the current state; play(chooser, callbacks) queues
   *                        an action (main.js's controller); onStop() once it stops;
   *                        pauseMs between two moves
   * @param {() => any} hooks.game
   * @param {(chooser: () => string | null, callbacks: object) => void} hooks.play
   * @param {() => void} [hooks.onStop]
   * @param {number} [hooks.pauseMs]
   */
  constructor({ game, play, onStop = () => {}, pauseMs = 120 }) {
    this.game = game;
    this.play = play;
    this.onStop = onStop;
    this.pauseMs = pauseMs;
    this.running = false;
    this.timer = null;
  }

  start() {
    if (this.running || !nextHomeMove(this.game())) return;
    this.running = true;
    this.send();
  }

  stop() {
    const was = this.running;
    this.running = false;
    clearTimeout(this.timer);
    if (was) this.onStop();
  }

  send() {
    this.play(() => nextHomeMove(this.game()), {
      // Called before the answer is drawn: the next move is chosen after the pause,
      // on the board that answer brings.
      onAccepted: () => this.next(),
      onRefused: () => this.stop(),
    });
  }

  next() {
    if (!this.running) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.running && nextHomeMove(this.game())) this.send();
      else this.stop();
    }, this.pauseMs);
  }
}

/**
 * The share text of a practice game: its outcome and numbers, and a link that opens the
 * same deal (a practice deal's code is no secret). `result`: {status, score, moves, time,
 * variant, code, link}.
 * @param {{status: string, score: number, moves: number, time: string, variant: string, code: string, link: string}} result
 * @returns {string}
 */
export function practiceShareText(result) {
  // As the daily's share text (leaderboards/share.py): a resignation is named as one.
  const outcome = { won: t("won"), resigned: t("resigned") }[result.status] ?? t("lost");
  const mark = { won: "✅", resigned: "🏳️" }[result.status] ?? "❌";
  const line = [
    `${result.variant} ${result.code} — ${outcome} ${mark}`,
    t("%(score)s pts", { score: result.score }),
    result.moves === 1 ? t("1 move") : t("%(moves)s moves", { moves: result.moves }),
    result.time,
  ].join(" · ");
  return `${line}\n${result.link}`;
}

/**
 * What the result dialog says of a result held for a fair-play check, or "" when it is not
 * held: the server's words, already in the player's language (title, why, what next).
 * @param {{review?: {state: string, title?: string, why?: string[], next?: string} | null} | null} story
 * @returns {string}
 */
export function reviewText(story) {
  const review = story && story.review;
  if (!review || review.state !== "held") return "";
  return [review.title, ...(review.why || []), review.next].filter(Boolean).join(" ");
}

/** How many pieces of confetti fall: none when the player asks for reduced motion. */
export function confettiCount(reducedMotion) {
  return reducedMotion ? 0 : 36;
}
