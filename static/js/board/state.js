// The board's game state and its versions: the server's word, applied in order, and
// nothing guessed. Pure functions of plain objects (no DOM, no socket, no translation),
// so they are unit-tested in Node and Chromium (tests/js/state.test.js); main.js keeps the
// current state and draws whatever these return.

import { applyChanges } from "./changes.js";

/**
 * A game as the page holds it: the embedded state, then the server's word applied in order.
 * @typedef {object} Game
 * @property {string} [id]
 * @property {string} role  "player" or "watcher"
 * @property {string} mode  "practice", "archive", "daily", ...
 * @property {string} status  "active", "won", "lost", "resigned"
 * @property {number} version
 * @property {number} [score]
 * @property {number} [moves]
 * @property {import("./changes.js").Board} board
 * @property {string[]} legal_moves
 * @property {boolean} [can_undo]
 * @property {boolean} [can_finish]
 * @property {number} [hints]
 * @property {boolean} [solver_help]
 * @property {boolean} [dead_end]
 * @property {string | null} [first_action_at]  ISO time
 * @property {string | null} [finished_at]  ISO time
 */

/**
 * An accepted action, to everyone at the table (docs/protocol.md, "Server to client").
 * @typedef {object} ActionMessage
 * @property {number} version
 * @property {string} [action]
 * @property {import("./changes.js").Changes | null} changes
 * @property {string[]} [automatic]  the server's safe home moves after it
 * @property {number} score
 * @property {number} moves
 * @property {string} status
 */

/** The modes with undo (and hints): practice, and a closed daily deal from the archive. */
export const UNDO_MODES = ["practice", "archive"];

/**
 * Fill what a state leaves to inference, so the rest of the code can trust it.
 * @param {Game} game
 * @returns {Game}
 */
export function normalise(game) {
  const finished = game.status !== "active";
  return {
    ...game,
    legal_moves: finished ? [] : game.legal_moves || [],
    can_finish: !finished && Boolean(game.can_finish),
    can_undo: UNDO_MODES.includes(game.mode) && !finished && Boolean(game.board?.can_undo),
  };
}

/**
 * A whole state from the server (hello, state) replaces ours; the page's role stays.
 * @param {Game} game
 * @param {Game} next
 * @returns {Game}
 */
export function replaceState(game, next) {
  return normalise({ ...next, role: game.role });
}

/**
 * One accepted action (ours, or anyone's, to everyone) against `game`, as {kind, game}:
 * "stale" for a version we already hold (ignored), "gap" when one was missed (the caller
 * asks for the whole state), "applied" with the next state. `nowIso` is the server's time
 * now: it starts the timer at the first action and stops it at the last.
 * @param {Game} game
 * @param {ActionMessage} msg
 * @param {string} nowIso
 * @returns {{kind: "stale" | "gap" | "applied", game: Game}}
 */
export function applyAction(game, msg, nowIso) {
  if (typeof msg.version !== "number" || msg.version <= game.version) return { kind: "stale", game };
  // The server's safe home moves after the action (their take-backs before an undo) came
  // with it, each a version of its own: the changes already show the board after them all.
  const steps = 1 + (Array.isArray(msg.automatic) ? msg.automatic.length : 0);
  if (msg.version !== game.version + steps || !msg.changes) return { kind: "gap", game };
  // The changes carry the board's piles plus facts about the game itself.
  const { legal_moves: legalMoves, dead_end: deadEnd, can_finish: canFinish, ...boardChanges } = msg.changes;
  const board = { ...applyChanges(game.board, boardChanges), score: msg.score, moves: msg.moves };
  const next = {
    ...game,
    board,
    version: msg.version,
    score: msg.score,
    moves: msg.moves,
    status: msg.status,
    legal_moves: legalMoves ?? game.legal_moves,
    // The server's word that every card left can go home with no choice to make.
    can_finish: canFinish ?? false,
    // Proved by the server's solver only (never guessed here); false when undecided.
    dead_end: deadEnd ?? false,
    first_action_at: game.first_action_at ?? nowIso,
    finished_at: game.finished_at ?? (msg.status !== "active" ? nowIso : null),
  };
  return { kind: "applied", game: normalise(next) };
}

/**
 * The state after the server's dead-end notice (`{type: "dead_end", version}`): the solver
 * proved no win is left from that version's position. A notice about an older position
 * (the player has moved on since) changes nothing.
 * @param {Game} game
 * @param {{version: number}} msg
 * @returns {Game}
 */
export function withDeadEnd(game, msg) {
  if (msg.version !== game.version || game.status !== "active") return game;
  return { ...game, dead_end: true };
}

/**
 * The state with the server's count of hints used (a hint answer carries it).
 * @param {Game} game
 * @param {number} hints
 * @returns {Game}
 */
export function withHints(game, hints) {
  return { ...game, hints };
}

/**
 * Whether this state just finished: `before` was active and `after` is not.
 * @param {Game} before
 * @param {Game} after
 * @returns {boolean}
 */
export function justFinished(before, after) {
  return before.status === "active" && after.status !== "active";
}

/**
 * Seconds on the game's clock at server time `nowMs`: from the first action to the last.
 * @param {Game} game
 * @param {number} nowMs
 * @returns {number}
 */
export function elapsedSeconds(game, nowMs) {
  const first = game.first_action_at ? Date.parse(game.first_action_at) : null;
  if (!first) return 0;
  const end = game.finished_at ? Date.parse(game.finished_at) : nowMs;
  return Math.max(0, Math.floor((end - first) / 1000));
}

/**
 * 75 -> "1:15", 3725 -> "1:02:05".
 * @param {number} seconds
 * @returns {string}
 */
export function clock(seconds) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}
