// changes.js: the server's changes applied to a board view, for the board and the replay
// viewer alike (tests/browser/test_js_units.py checks them against the engine's own).
import { test } from "node:test";
import assert from "node:assert/strict";

import { boardView, plain } from "./fixtures.js";
import { applyChanges } from "../../static/js/board/changes.js";

test("it replaces only the changed piles and whole values", () => {
  const view = boardView();
  const changes = { columns: { 0: { down: 0, cards: ["KS"] } }, waste: [], stock: 0 };
  const after = applyChanges(view, changes);
  assert.deepEqual(plain(after.columns), [{ down: 0, cards: ["KS"] }, view.columns[1]]);
  assert.deepEqual(after.waste, []);
  assert.equal(after.stock, 0);
  assert.deepEqual(plain(after.foundations), view.foundations);
});

test("it leaves the view it was given untouched", () => {
  const view = boardView();
  const before = JSON.stringify(view);
  applyChanges(view, { columns: { 1: { down: 0, cards: [] } }, stock: 3 });
  assert.equal(JSON.stringify(view), before);
});

test("it takes a whole pile list, and no changes at all", () => {
  const view = boardView();
  const whole = [{ down: 0, cards: ["2C"] }];
  assert.deepEqual(plain(applyChanges(view, { columns: whole }).columns), whole);
  assert.deepEqual(plain(applyChanges(view, {})), view);
  assert.deepEqual(plain(applyChanges(view, null)), view);
});
