// place.js: where a tap sends a card, chosen among the engine's legal moves only.
import { test } from "node:test";
import assert from "node:assert/strict";

import { boardView, gameState } from "./fixtures.js";
import { boundMove } from "../../static/js/board/gestures.js";
import {
  TAP_MODES,
  bestPlace,
  ownFoundation,
  smartTarget,
  tapNote,
  tapTarget,
} from "../../static/js/board/place.js";
import { TAPS } from "../../static/js/board/settings-state.js";

// Column 1 ends on the 7 of spades, 2 is empty, 3 ends on the 7 of hearts under two
// face-down cards, 4 on the 7 of spades under three: where may the 6 of spades go?
function sixOfSpades(legal) {
  const board = boardView({
    columns: [
      { down: 0, cards: ["KS", "7S"] },
      { down: 0, cards: [] },
      { down: 2, cards: ["7H"] },
      { down: 3, cards: ["7S"] },
      { down: 0, cards: ["9D", "6S"] },
    ],
    foundations: [
      { suit: "S", count: 4, top: "4S" },
      { suit: "S", count: 5, top: "5S" },
    ],
    waste: ["6S"],
  });
  return gameState({ board, legal_moves: legal });
}

test("a card goes home first when a foundation takes it", () => {
  const game = sixOfSpades(["s", "w-t1", "w-t2", "w-f2", "t5-f2", "t5-t1"]);
  assert.equal(bestPlace(game, "w", 1), "f2");
  assert.equal(bestPlace(game, "t5", 1), "f2");
  assert.equal(tapTarget(game, "t5", 1, { tap: "best" }), "f2");
  assert.equal(tapTarget(game, "t5", 1, { tap: "home" }), "f2");
});

test("else a column that builds on a card of its suit, the longest, before a space", () => {
  // Only what the engine says is legal is ever chosen: here every column but 5.
  const game = sixOfSpades(["s", "w-t1", "w-t2", "w-t3", "w-t4"]);
  // Column 4 (4 cards, on the 7 of spades) over column 3 (3 cards, on a heart), column 1
  // (2 cards, in suit) and the space.
  assert.equal(bestPlace(game, "w", 1), "t4");
  game.legal_moves = ["s", "w-t1", "w-t2", "w-t3"];
  assert.equal(bestPlace(game, "w", 1), "t1", "in suit beats a longer column in another suit");
  game.legal_moves = ["s", "w-t2", "w-t3"];
  assert.equal(bestPlace(game, "w", 1), "t3");
  game.legal_moves = ["s", "w-t2"];
  assert.equal(bestPlace(game, "w", 1), "t2", "a space when nothing else takes it");
  game.legal_moves = ["s"];
  assert.equal(bestPlace(game, "w", 1), null);
});

test("a run goes where the engine lets the whole run go", () => {
  const board = boardView({
    columns: [
      { down: 0, cards: ["8S", "7S", "6S"] },
      { down: 0, cards: ["9S"] },
      { down: 1, cards: ["9S"] },
    ],
  });
  const game = gameState({ board, legal_moves: ["t1-t2x2", "t1-t3x2", "t1-f1"] });
  assert.equal(bestPlace(game, "t1", 2), "t3");
  assert.equal(bestPlace(game, "t1", 3), null, "no move of three cards is legal");
  assert.equal(boundMove(game, { pile: "t1", card: "7S", index: 1, count: 2, x: 0, y: 0, time: 0 }), "t1-t3x2");
});

test("under the setting home a tap sends a column card home only, as the table first did", () => {
  const game = sixOfSpades(["s", "t5-t1", "t5-t2", "w-t1"]);
  assert.equal(tapTarget(game, "t5", 1, { tap: "best" }), "t1");
  assert.equal(tapTarget(game, "t5", 1, { tap: "home" }), null);
  assert.equal(tapTarget(game, "t5", 1, { tap: "home", double: true }), "t1", "a double-tap places it");
  // The waste's card goes to a column either way, as before.
  assert.equal(tapTarget(game, "w", 1, { tap: "home" }), "t1");
  // smartTarget: the double-tap's and the keyboard's choice.
  assert.equal(smartTarget(game, "t5", 1, { columns: true }), "t1");
  assert.equal(smartTarget(game, "t5", 1, { columns: false }), null);
});

test("a press makes the move of the player's setting", () => {
  const game = sixOfSpades(["s", "t5-t1", "t5-t2"]);
  const six = { pile: "t5", card: "6S", index: 1, count: 1, x: 0, y: 0, time: 0 };
  assert.equal(boundMove(game, six), "t5-t1", "best is the default");
  assert.equal(boundMove(game, six, { tap: "best" }), "t5-t1");
  assert.equal(boundMove(game, six, { tap: "home" }), null);
  assert.equal(boundMove(game, six, { tap: "home", double: true }), "t5-t1");
});

test("a tap that moves nothing says why, and under home that a double-tap places it", () => {
  const game = sixOfSpades(["s", "t5-t1"]);
  const six = { pile: "t5", card: "6S", count: 1 };
  assert.equal(tapNote(game, { pile: "t1", card: "7S", count: 1 }), "The 7 of spades cannot move now.");
  assert.equal(tapNote(game, six, { tap: "best" }), null, "best: it moved");
  assert.equal(tapNote(game, six, { tap: "home" }), "Double-tap to place the 6 of spades on a column.");
  assert.equal(tapNote({ ...game, status: "won" }, six, { tap: "home" }), null);
});

test("the likeliest home of a card is its suit's foundation furthest along", () => {
  const game = sixOfSpades(["s"]);
  assert.equal(ownFoundation(game.board, "w"), "f2");
  assert.equal(ownFoundation(game.board, "t3"), null, "no hearts foundation here");
  assert.equal(ownFoundation(game.board, "t2"), null, "an empty column");
});

test("the modes are the settings' own", () => {
  assert.deepEqual(TAP_MODES, TAPS);
});
