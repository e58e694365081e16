// gestures.js: what a press means (which card, which gesture, which one move).
import { test } from "node:test";
import assert from "node:assert/strict";

import { boardView, box, gameState, press } from "./fixtures.js";
import { boundCount, boundMove, pickCard, pressKind, wasteTarget } from "../../static/js/board/gestures.js";

// Which gesture a press belongs to ---------------------------------------------------------

test("a second click after a click that moved its card is the same gesture", () => {
  for (const gap of [60, 90, 150, 240]) {
    const first = press("t7", "AH", 1, { time: 1000, moved: true });
    // The board may already show the card that was under it (the other ace): still nothing.
    const second = press("t7", "AH", 0, { time: 1000 + gap, x: 102, y: 199 });
    assert.equal(pressKind(first, second), "same", `${gap} ms`);
  }
});

test("a press well after the last, or elsewhere, is a tap of its own", () => {
  const first = press("t7", "AH", 1, { time: 1000, moved: true });
  assert.equal(pressKind(first, press("t7", "AH", 0, { time: 1300 })), "tap");
  assert.equal(pressKind(first, press("t5", "AH", 1, { time: 1060 })), "tap");
  const far = press("t7", "AH", 0, { time: 1060, x: 100, y: 260 }); // a card further down the same column
  assert.equal(pressKind(first, far), "tap");
  assert.equal(pressKind(null, press("t7", "AH", 1, { time: 5 })), "tap");
});

test("a press on a foundation card whose move is in flight does nothing", () => {
  const home = press("f2", "AH", 0, { time: 9000 });
  assert.equal(pressKind(null, home, { inFlight: true }), "same");
});

test("a later press on a column card in flight is a tap of its own", () => {
  const last = press("t3", "9C", 0, { time: 1000, moved: true }); // another pile just before
  const again = press("t7", "AH", 1, { time: 1100 });
  assert.equal(pressKind(last, again, { inFlight: true }), "tap");
});

test("a later press on a waste card in flight is a tap of its own", () => {
  // Its move unanswered, 300 ms on, on the same spot: a deliberate second tap (for the
  // card under it, wasteTarget); 150 ms on, the rest of a double-click.
  const first = press("w", "JS", 5, { time: 1000, moved: true });
  const later = press("w", "JS", 5, { time: 1300 });
  assert.equal(pressKind(first, later, { inFlight: true }), "tap");
  const quick = press("w", "JS", 5, { time: 1150 });
  assert.equal(pressKind(first, quick, { inFlight: true }), "same");
  assert.equal(pressKind(null, later, { inFlight: true }), "tap");
});

test("a waste press is bound to the card it will find on top", () => {
  const waste = ["5D", "9C", "JS"];
  const target = (...pending) => wasteTarget(waste, pending);
  assert.deepEqual(target(), { card: "JS" });
  // The top card's move is on its way: the card under it, then the one under that.
  assert.deepEqual(target({ kind: "waste", card: "JS" }), { card: "9C" });
  assert.deepEqual(target({ kind: "waste", card: "JS" }, { kind: "waste", card: "9C" }), { card: "5D" });
  // Every card shown spoken for: nothing to bind.
  const spent = [...waste].reverse().map((card) => ({ kind: "waste", card }));
  assert.equal(target(...spent), null);
  // A draw on its way (before or after a waste tap): the card it brings, whichever it is.
  assert.deepEqual(target({ kind: "draw" }), { card: null });
  assert.deepEqual(target({ kind: "waste", card: "JS" }, { kind: "draw" }), { card: null });
  assert.deepEqual(wasteTarget([], []), { card: null });
});

test("a second tap on a card the first could not move is a double-tap", () => {
  const still = press("t3", "7S", 2, { time: 1000, moved: false });
  assert.equal(pressKind(still, press("t3", "7S", 2, { time: 1200 })), "double");
  assert.equal(pressKind(still, press("t3", "7S", 2, { time: 1400 })), "tap");
  assert.equal(pressKind(still, press("t3", "8S", 2, { time: 1100 })), "tap");
  assert.equal(pressKind(still, press("t4", "7S", 2, { time: 1100 })), "tap");
});

test("the rest of a double-click joins a press still waiting its turn", () => {
  for (const gap of [60, 90, 150, 240]) {
    // The first click came while a draw (or a sync) was on its way: whether it moves its
    // card is decided at its turn. The second click makes it a double-tap ("again"),
    // never nothing at all (a card no foundation takes moved nowhere) nor a second move.
    const waiting = press("t1", "QS", 3, { time: 1000, moved: true, waiting: true });
    const second = press("t1", "QS", 3, { time: 1000 + gap, x: 101, y: 201 });
    assert.equal(pressKind(waiting, second), "again", `${gap} ms`);
    // Its turn came and it moved its card: the rest of the gesture does nothing.
    const done = { ...waiting, waiting: false };
    assert.equal(pressKind(done, second), "same");
    // Its turn came and it could not move its card: the second press is a double-tap.
    const stuck = { ...waiting, waiting: false, moved: false };
    assert.equal(pressKind(stuck, second), "double");
    // Elsewhere or later: a tap of its own.
    assert.equal(pressKind(waiting, press("t2", "KS", 0, { time: 1060 })), "tap");
    assert.equal(pressKind(waiting, press("t1", "QS", 3, { time: 1300 })), "tap");
  }
});

test("every press on the stock is a draw of its own", () => {
  const stock = press("stock", null, -1, { time: 1000, moved: true });
  const again = press("stock", null, -1, { time: 1050 });
  assert.equal(pressKind(stock, again, { inFlight: true }), "tap");
});

// The one move a press makes, bound to its card --------------------------------------------

test("a press acts on the card it was bound to, or on nothing", () => {
  const board = boardView({
    columns: [
      { down: 0, cards: ["KS", "QS"] },
      { down: 0, cards: ["3H", "2H"] },
    ],
    waste: ["5D", "JS"],
  });
  const game = gameState({ board, legal_moves: ["s", "t2-f2", "w-t1", "t1-t2x2"] });
  assert.equal(boundMove(game, press("w", "JS", 1)), "w-t1");
  assert.equal(boundMove(game, press("t2", "2H", 1)), "t2-f2");
  assert.equal(boundMove(game, press("t1", "QS", 1)), null);
  const run = press("t1", "KS", 0, { count: 2 });
  assert.equal(boundMove(game, run, { double: true }), "t1-t2x2");
  // The card pressed went away meanwhile (an earlier tap sent it): the card that was
  // under it is NOT moved in its place.
  assert.equal(boundMove(game, press("t2", "4H", 2)), null);
  assert.equal(boundMove(game, press("w", "9C", 2)), null);
  // A card landed on the run pressed: the press was for a board that is gone.
  assert.equal(boundCount(board, press("t2", "3H", 0)), 0);
  // A press on a column's top card is for its top card at its turn, whatever the
  // player's earlier gestures (queued before it) sent there or took away.
  assert.equal(boundCount(board, press("t2", "3H", 0, { top: true })), 1);
  assert.equal(boundMove(game, press("t2", "4H", 2, { top: true })), "t2-f2");
  const empty = boardView({ columns: [{ down: 0, cards: [] }] });
  assert.equal(boundCount(empty, press("t1", "KS", 0, { top: true })), 0);
  // A waste press is bound to the card that must be on top at its turn: the card under
  // it is never played in its place.
  assert.equal(boundCount(board, press("w", "5D", 0)), 0);
  // Bound to no card (a draw was on its way): the card the draw brings.
  assert.equal(boundCount(board, press("w", null, -1)), 1);
});

test("a foundation press is bound to its top card", () => {
  const board = boardView(); // f2: the ace of hearts
  assert.equal(boundCount(board, press("f2", "AH", 0)), 1);
  assert.equal(boundCount(board, press("f2", "2H", 1)), 0);
});

// Which card a press picks -----------------------------------------------------------------

test("a press picks the topmost card at its place", () => {
  const column = [
    { place: box(0, 0), drawn: box(0, 0), moving: false },
    { place: box(0, 25), drawn: box(0, 25), moving: false },
  ];
  assert.equal(pickCard(column, 10, 10), 0);
  assert.equal(pickCard(column, 10, 40), 1);
  assert.equal(pickCard(column, 10, 200), -1);
});

test("a press on a landing card picks it, not the card under it", () => {
  // The top card is still sliding in from the right: drawn at x 80, its place at x 0.
  const column = [
    { place: box(0, 0), drawn: box(0, 0), moving: false },
    { place: box(0, 25), drawn: box(80, 25), moving: true },
  ];
  assert.equal(pickCard(column, 90, 40), 1); // where it is drawn
  assert.equal(pickCard(column, 10, 40), 1); // where it is going
  assert.equal(pickCard(column, 10, 10), 0); // the card under, above it
  const settled = [column[0], { ...column[1], moving: false }];
  assert.equal(pickCard(settled, 90, 40), -1); // no slide, no box there
});
