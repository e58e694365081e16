// arena/standings.js: the live table's rows, pure.
import { test } from "node:test";
import assert from "node:assert/strict";

import { tableRows } from "../../static/js/arena/standings.js";

function row(entry, rank, extra = {}) {
  return { entry, rank, name: `p${entry}`, points: 10 - rank, rounds_played: 2, left: false, ...extra };
}

test("the viewer's row is marked and the others are not", () => {
  const lines = tableRows({ type: "standings", state: "running", rounds: 2, entrants: 2, top: 2, rows: [row(7, 1), row(9, 2)] }, 9);
  assert.deepEqual(lines.map((l) => l.viewer), [false, true]);
});

test("the viewer's own row after the top rows is kept in its place and marked", () => {
  const rows = [row(1, 1), row(2, 1), row(3, 3), row(40, 30)];
  const lines = tableRows({ type: "standings", state: "running", rounds: 1, entrants: 50, top: 3, rows }, 40);
  assert.deepEqual(lines.map((l) => [l.entry, l.rank, l.viewer]), [[1, 1, false], [2, 1, false], [3, 3, false], [40, 30, true]]);
});

test("a visitor without an entry has no row of their own, and no rows draw nothing", () => {
  assert.deepEqual(tableRows({ type: "standings", state: "upcoming", rounds: 0, entrants: 1, top: 1, rows: [row(1, 1)] }, null).map((l) => l.viewer), [false]);
  assert.deepEqual(tableRows({ type: "standings", state: "upcoming", rounds: 0, entrants: 0, top: 0, rows: [] }, null), []);
});
