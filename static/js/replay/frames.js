// The replay's frames and the few pure rules of the viewer: no DOM, no translation, so they
// are unit-tested in Node and Chromium (tests/js/frames.test.js; against the engine,
// tests/browser/test_replay.py).

import { applyChanges } from "../board/changes.js";

/** Moves a second the viewer can play at; the first one it starts with is SPEEDS[1]. */
export const SPEEDS = [1, 2, 4, 8];

/** Steps shorter than this are drawn without the cards' slide (it takes 160 ms). */
const ANIMATE_FROM_MS = 240;

/**
 * Every frame of a sequence: the initial view, then each step's changes applied in turn.
 * @param {import("../board/changes.js").Board} initial
 * @param {{changes: import("../board/changes.js").Changes}[]} steps
 * @returns {import("../board/changes.js").Board[]}
 */
export function buildFrames(initial, steps) {
  const frames = [initial];
  for (const step of steps) frames.push(applyChanges(frames[frames.length - 1], step.changes));
  return frames;
}

/**
 * The step a link names ("#move=12"), kept within 0..last; null when it names none.
 * @param {string} hash
 * @param {number} last
 * @returns {number | null}
 */
export function stepFromHash(hash, last) {
  const match = /^#move=(\d+)$/.exec(hash || "");
  if (!match) return null;
  return Math.min(last, Number(match[1]));
}

/**
 * The link to step `index`, as stepFromHash reads it.
 * @param {number} index
 * @returns {string}
 */
export function hashFor(index) {
  return `#move=${index}`;
}

/**
 * Milliseconds between two steps at `speed` moves a second (an unknown speed: the default).
 * @param {number | string | null} speed  the speed picker's value, or a number
 * @returns {number}
 */
export function stepMs(speed) {
  const value = SPEEDS.includes(Number(speed)) ? Number(speed) : SPEEDS[1];
  return Math.round(1000 / value);
}

/**
 * Whether a step at `speed` has time for the cards to slide.
 * @param {number | string | null} speed
 * @returns {boolean}
 */
export function animates(speed) {
  return stepMs(speed) >= ANIMATE_FROM_MS;
}

/**
 * The game the board's renderer draws for frame `index`: read-only (no legal move, no
 * undo), its version the step, and the game's own status only on its last frame.
 * @param {import("../board/changes.js").Board[]} frames
 * @param {number} index
 * @param {{score: number, status: string}} game
 */
export function boardGame(frames, index, { score, status }) {
  const last = index === frames.length - 1;
  return {
    board: frames[index],
    legal_moves: [],
    can_undo: false,
    version: index,
    moves: index,
    score,
    status: last ? status : "active",
  };
}
