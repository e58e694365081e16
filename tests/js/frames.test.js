// replay/frames.js: the viewer's pure rules (its frames built from a real game's steps are
// checked against the engine in tests/browser/test_replay.py).
import { test } from "node:test";
import assert from "node:assert/strict";

import { animates, boardGame, hashFor, stepFromHash, stepMs } from "../../static/js/replay/frames.js";

test("it reads a link to a step within the game", () => {
  assert.equal(stepFromHash("#move=12", 100), 12);
  assert.equal(stepFromHash("#move=500", 100), 100);
  assert.equal(stepFromHash("#move=0", 100), 0);
  for (const other of ["", "#analysis", "#move=-1", "#move=1x"]) assert.equal(stepFromHash(other, 100), null, other);
  assert.equal(hashFor(7), "#move=7");
});

test("it steps at the speed chosen and slides cards only when there is time", () => {
  assert.deepEqual(
    [1, 2, 4, 8].map((speed) => stepMs(speed)),
    [1000, 500, 250, 125],
  );
  assert.equal(stepMs("3"), 500); // not offered: 2 a second
  assert.equal(stepMs(null), 500);
  assert.deepEqual(
    ["1", "2", "4", "8"].map((speed) => animates(speed)),
    [true, true, true, false],
  );
});

test("it draws a read-only game with its status on the last frame only", () => {
  const frames = [{ stock: 3 }, { stock: 2 }, { stock: 1 }];
  assert.deepEqual(boardGame(frames, 1, { score: 5, status: "lost" }), {
    board: { stock: 2 },
    legal_moves: [],
    can_undo: false,
    version: 1,
    moves: 1,
    score: 5,
    status: "active",
  });
  assert.equal(boardGame(frames, 2, { score: 5, status: "lost" }).status, "lost");
});
