// moves.js: the protocol's move words, and what the legal moves say a tap may do.
import { test } from "node:test";
import assert from "node:assert/strict";

import { boardView, gameState } from "./fixtures.js";
import {
  drawMove,
  formatMove,
  hasMovesFrom,
  legalCounts,
  legalTargets,
  movePiles,
  parseMove,
} from "../../static/js/board/moves.js";

test("it parses card moves and runs", () => {
  const cases = {
    "t3-f1": { src: "t3", dst: "f1", count: 1 },
    "w-t10": { src: "w", dst: "t10", count: 1 },
    "t3-t5x3": { src: "t3", dst: "t5", count: 3 },
    "f2-t4": { src: "f2", dst: "t4", count: 1 },
  };
  for (const [text, move] of Object.entries(cases)) {
    assert.deepEqual(parseMove(text), move);
    assert.equal(formatMove(move.src, move.dst, move.count), text);
  }
});

test("it parses no card move from draws, words and junk", () => {
  for (const text of ["s", "r", "undo", "resign", "", null, "t3-", "x-t1", "w-w", "t3-t5x", "T3-F1"]) {
    assert.equal(parseMove(text), null, String(text));
  }
});

test("it names the piles a hint marks", () => {
  const cases = {
    "t3-f1": ["t3", "f1"],
    "w-t10": ["w", "t10"],
    "t1-t2x4": ["t1", "t2"],
    s: ["stock"],
    r: ["stock"],
    nonsense: [],
  };
  for (const [text, piles] of Object.entries(cases)) assert.deepEqual(movePiles(text), piles, text);
});

test("it reads targets and run lengths from the legal moves", () => {
  const legal = ["s", "w-t2", "w-f1", "t1-t2", "t1-t2x2", "t1-t4x3", "t3-f1"];
  assert.deepEqual(legalTargets(legal, "w"), ["t2", "f1"]);
  assert.deepEqual(legalTargets(legal, "t1", 2), ["t2"]);
  assert.deepEqual(legalCounts(legal, "t1", "t2"), [2, 1]);
  assert.equal(hasMovesFrom(legal, "t3"), true);
  assert.equal(hasMovesFrom(legal, "t2"), false);
});

test("the stock draws, redeals, and stops when the game is over", () => {
  assert.equal(drawMove(gameState()), "s");
  const spent = gameState({ board: boardView({ stock: 0 }), legal_moves: ["r", "t2-f2"] });
  assert.equal(drawMove(spent), "r");
  const noRedeal = gameState({ board: boardView({ stock: 0 }), legal_moves: ["t2-f2"] });
  assert.equal(drawMove(noRedeal), "s"); // sent: the server says why not
  assert.equal(drawMove(gameState({ status: "won" })), null);
});
