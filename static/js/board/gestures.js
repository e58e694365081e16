// What a press on the table means, pure (no DOM): which card it picks, whether it starts a
// gesture of its own or belongs to the last one, and the one move it makes. A gesture
// makes at most one move (docs/protocol.md, "Input gestures"):
//
// * a press is BOUND when it is made: a run or a foundation card to that card, its place
//   and the run above it (it acts on that card when its turn comes, or on nothing if the
//   card has gone meanwhile); the waste and a column's top card as below.
// * a second press on the same spot within SAME_GESTURE_MS of a press that moved its
//   card (the second click of a double-click, a double-tap) belongs to that gesture and
//   does nothing, even when the board already shows the card that was underneath; so does
//   a press on a foundation card whose move is still in flight.
// * any other press on a waste or column card whose move is still unanswered (the board
//   shows the server's word only, so a quick player taps a card that is already on its
//   way) is a deliberate tap for the card under it: on the waste, bound to that card
//   when it is made (wasteTarget); on a column's top card, for the column's top card at
//   its turn, after the player's earlier gestures (queued before it) have played.
// * a second press on a card that a press just could NOT move is a double-tap.
// * a press made while an earlier action is on its way waits its turn, so whether it
//   moves its card is not known yet: the rest of its double-click (same spot, within
//   SAME_GESTURE_MS) joins it instead of doing nothing, and the waiting press makes the
//   double-tap's move at its turn (pressKind: "again"). Else a double-click made while
//   a draw or a sync is on its way on a card no foundation takes moved nothing at all.
// * every press on the stock is a draw of its own, as in any solitaire.

import { formatMove } from "./moves.js";
import { tapTarget } from "./place.js";

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
 * A press on the table (input.js): where and when, the card and run it is bound to, and
 * for the press that started the last gesture, what became of it.
 * @typedef {object} Press
 * @property {string} pile
 * @property {string | null} card
 * @property {number} index
 * @property {number} [count]
 * @property {number} x
 * @property {number} y
 * @property {number} time
 * @property {boolean} [top]  for the column's top card at its turn
 * @property {boolean} [moved]
 * @property {boolean} [waiting]
 * @property {boolean} [double]
 */

/**
 * What `press` ({pile, card, index, x, y, time}) is, after `last` (the last press that
 * started a gesture, with `moved`: whether it sent a move, and `waiting`: its move is
 * chosen at its turn, which has not come; or null): "tap" (a gesture of its own),
 * "double" (completes a double-tap on a card a tap could not move), "again" (the rest of
 * a gesture whose press is still waiting its turn: that press makes a double-tap's move
 * then, this one nothing) or "same" (the rest of the last gesture: it does nothing).
 * `inFlight`: a move of the very card pressed is still waiting for its answer.
 * @param {Press | null} last
 * @param {Press} press
 * @param {{inFlight?: boolean}} [options]
 * @returns {"tap" | "double" | "again" | "same"}
 */
export function pressKind(last, press, { inFlight = false } = {}) {
  if (press.pile === "stock") return "tap";
  const samePile = Boolean(last) && last.pile === press.pile;
  const elapsed = samePile ? press.time - last.time : Infinity;
  const near = samePile && Math.hypot(press.x - last.x, press.y - last.y) <= SAME_SPOT_PX;
  // The rest of a double-click, whatever card the board shows there by now.
  if (samePile && near && elapsed < SAME_GESTURE_MS) {
    if (last.waiting) return "again";
    if (last.moved) return "same";
  }
  // A waste or column card in flight: any other press is for the card under it.
  if (inFlight && press.pile[0] === "f") return "same";
  if (!samePile || last.moved) return "tap";
  const sameCard = last.card === press.card && last.index === press.index && press.card !== null;
  return sameCard && elapsed < DOUBLE_TAP_MS ? "double" : "tap";
}

/**
 * A key naming a card at its place, for the moves in flight.
 * @param {{pile: string, index: number, card: string | null}} place
 * @returns {string}
 */
export function placeKey({ pile, index, card }) {
  return `${pile}:${index}:${card}`;
}

/**
 * How many cards a press bound to ({pile, card, index, count, top}) picks up from `board`
 * now: 0 when that card is no longer where it was pressed, or the run above it changed
 * (a card landed on it, or left it), so the press is for a board that is gone. A press
 * on a column's top card (`top`) is for the column's top card when its turn comes: what
 * changed the column meanwhile were the player's own earlier gestures, queued before
 * this press (a quick player taps ahead of a slow server's answers: the card the last
 * tap sends away, a card a tap sends there); the rest of a double-click never gets here
 * (pressKind).
 * @param {import("./changes.js").Board} board
 * @param {Press} press
 * @returns {number}
 */
export function boundCount(board, { pile, card, index, count = 1, top = false }) {
  if (pile === "w") {
    const waste = board.waste;
    // The waste plays its top card only, and a press is for the card wasteTarget bound it
    // to, which must be the top card by its turn (else an earlier action did not go as
    // expected: nothing). Bound to no card: whatever card a draw on its way brings.
    if (card === null) return waste.length ? 1 : 0;
    return waste[waste.length - 1] === card ? 1 : 0;
  }
  const k = Number(pile.slice(1)) - 1;
  if (pile[0] === "f") {
    const f = board.foundations[k];
    return f && f.top === card && f.count === index + 1 ? 1 : 0;
  }
  const cards = board.columns[k]?.cards || [];
  if (top) return cards.length ? 1 : 0;
  return cards[index] === card && cards.length - index === count ? count : 0;
}

/**
 * Which waste card a press on the waste is for, worked out when it is made, so that it is
 * bound to a card and not to a place: {card} (null: whatever card is on top at its turn,
 * the card a draw still on its way brings), or null (every card shown is already spoken
 * for). `waste` is the waste the board shows (bottom first); `pending` the actions before
 * it still to be shown, in order: {kind: "draw"} (a draw or redeal) or {kind: "waste",
 * card} (a tap's move of that waste card). A press while the top card's move is pending
 * is a deliberate second tap (the rest of a double-click never gets here, see pressKind):
 * it is for the card under it, and so on down.
 * @param {string[]} waste
 * @param {{kind: "draw" | "waste", card?: string | null}[]} pending
 * @returns {{card: string | null} | null}
 */
export function wasteTarget(waste, pending) {
  let top = waste.length - 1;
  for (const item of pending) {
    if (item.kind === "draw" || item.card === null) return { card: null };
    if (top >= 0 && item.card === waste[top]) top -= 1;
  }
  if (top >= 0) return { card: waste[top] };
  return waste.length ? null : { card: null };
}

/**
 * The one move a press bound to `press` makes in `game`, or null. Under the table's
 * `tap` "best" a tap sends the card(s) to their best place (place.js: home, else the best
 * column); under "home", to a foundation (the waste's card, failing that, to a column). A
 * double-tap, either way, to a foundation, else the best column, else an empty one.
 * @param {import("./state.js").Game} game
 * @param {Press} press
 * @param {{double?: boolean, tap?: string}} [options]
 * @returns {string | null}
 */
export function boundMove(game, press, { double = false, tap = "best" } = {}) {
  const count = boundCount(game.board, press);
  if (!count) return null;
  const target = tapTarget(game, press.pile, count, { tap, double });
  return target ? formatMove(press.pile, target, count) : null;
}

/**
 * @typedef {{left: number, top: number, width: number, height: number}} Box
 */

/**
 * Whether the point (x, y) is inside `box` ({left, top, width, height}).
 * @param {Box | null | undefined} box
 * @param {number} x
 * @param {number} y
 */
function inside(box, x, y) {
  return Boolean(box) && x >= box.left && x < box.left + box.width && y >= box.top && y < box.top + box.height;
}

/**
 * Which of a pile's `cards` (bottom first, each {place, drawn, moving}: where the layout
 * puts it, where it is drawn now, and whether it is still sliding there) a press at (x, y)
 * picks: the topmost whose place holds the point, or, while it slides, whose drawn box
 * does. A card that is landing is picked, never the card under it. -1: none.
 * @param {{place: Box, drawn?: Box | null, moving: boolean}[]} cards
 * @param {number} x
 * @param {number} y
 * @returns {number}
 */
export function pickCard(cards, x, y) {
  for (let i = cards.length - 1; i >= 0; i -= 1) {
    const card = cards[i];
    if (inside(card.place, x, y) || (card.moving && inside(card.drawn, x, y))) return i;
  }
  return -1;
}
