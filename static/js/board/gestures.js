// What a press on the table means, pure (no DOM): which card it picks, whether it starts a
// gesture of its own or belongs to the last one, and the one move it makes. A gesture
// makes at most one move (docs/protocol.md, "Input gestures"):
//
// * a press is BOUND to the card it started on: its pile, its place in the pile, its code
//   and the run above it. It acts on that card when its turn comes, or on nothing if the
//   card has gone meanwhile; never on the card that was under it.
// * a second press on the same spot within SAME_GESTURE_MS of a press that moved its
//   card (the second click of a double-click, a double-tap) belongs to that gesture and
//   does nothing, even when the board already shows the card that was underneath; so does
//   a press on a card whose move is still in flight.
// * a second press on a card that a press just could NOT move is a double-tap.
// * every press on the stock is a draw of its own, as in any solitaire.

import { formatMove, smartTarget } from "./moves.js";

// A second click this soon after a click that moved its card is the same gesture: people
// double-click at 60-250 ms, and nobody sees a card uncovered that quickly (it is drawn a
// round trip after the first click) and means to play it. Quick taps on DIFFERENT piles
// are never touched by this, at any pace.
export const SAME_GESTURE_MS = 250;
// A second tap on a card the first could not move, within this, is a double-tap.
export const DOUBLE_TAP_MS = 350;
// How far apart (px) two presses of one gesture may be: a finger lands a little off.
export const SAME_SPOT_PX = 24;

/**
 * What `press` ({pile, card, index, x, y, time}) is, after `last` (the last press that
 * started a gesture, with `moved`: whether it sent a move; or null):
 * "tap" (a gesture of its own), "double" (completes a double-tap on a card a tap could
 * not move) or "same" (the rest of the last gesture: it does nothing). `inFlight`: a
 * move of the very card pressed is still waiting for its answer.
 */
export function pressKind(last, press, { inFlight = false } = {}) {
  if (press.pile === "stock") return "tap";
  if (inFlight) return "same";
  if (!last || last.pile !== press.pile) return "tap";
  const elapsed = press.time - last.time;
  const near = Math.hypot(press.x - last.x, press.y - last.y) <= SAME_SPOT_PX;
  if (last.moved) return near && elapsed < SAME_GESTURE_MS ? "same" : "tap";
  const sameCard = last.card === press.card && last.index === press.index && press.card !== null;
  return sameCard && elapsed < DOUBLE_TAP_MS ? "double" : "tap";
}

/** A key naming a card at its place, for the moves in flight. */
export function placeKey({ pile, index, card }) {
  return `${pile}:${index}:${card}`;
}

/**
 * How many cards a press bound to ({pile, card, index, count}) picks up from `board` now:
 * 0 when that card is no longer where it was pressed, or the run above it changed (a
 * card landed on it, or left it), so the press is for a board that is gone.
 */
export function boundCount(board, { pile, card, index, count = 1 }) {
  if (pile === "w") {
    const waste = board.waste;
    // The waste plays its top card only. A press on it while a draw was on its way is for
    // the card the draw brings (the card pressed is still there, under it); the card
    // pressed gone (an earlier action played it): nothing.
    if (card === null) return waste.length ? 1 : 0;
    return waste[index] === card ? 1 : 0;
  }
  const k = Number(pile.slice(1)) - 1;
  if (pile[0] === "f") {
    const f = board.foundations[k];
    return f && f.top === card && f.count === index + 1 ? 1 : 0;
  }
  const cards = board.columns[k]?.cards || [];
  return cards[index] === card && cards.length - index === count ? count : 0;
}

/**
 * The one move a press bound to `press` makes in `game`, or null. A tap sends the card(s)
 * to a foundation (the waste's card, failing that, to a column); a double-tap to a
 * foundation, else the longest accepting column, else an empty one.
 */
export function boundMove(game, press, { double = false } = {}) {
  const count = boundCount(game.board, press);
  if (!count) return null;
  const target = smartTarget(game, press.pile, count, { columns: double || press.pile === "w" });
  return target ? formatMove(press.pile, target, count) : null;
}

/** Whether the point (x, y) is inside `box` ({left, top, width, height}). */
function inside(box, x, y) {
  return Boolean(box) && x >= box.left && x < box.left + box.width && y >= box.top && y < box.top + box.height;
}

/**
 * Which of a pile's `cards` (bottom first, each {place, drawn, moving}: where the layout
 * puts it, where it is drawn now, and whether it is still sliding there) a press at (x, y)
 * picks: the topmost whose place holds the point, or, while it slides, whose drawn box
 * does. A card that is landing is picked, never the card under it. -1: none.
 */
export function pickCard(cards, x, y) {
  for (let i = cards.length - 1; i >= 0; i -= 1) {
    const card = cards[i];
    if (inside(card.place, x, y) || (card.moving && inside(card.drawn, x, y))) return i;
  }
  return -1;
}
