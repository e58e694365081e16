// settings-state.js: the table's settings as data (the server's choices themselves are
// checked against games/table_settings.py in tests/browser/test_js_settings.py).
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  DEFAULTS,
  boardData,
  changedFields,
  initialSettings,
  readStored,
  withChoice,
} from "../../static/js/board/settings-state.js";

test("a stored copy is read field by field, falling back to the defaults", () => {
  assert.deepEqual(readStored(null), { ...DEFAULTS });
  assert.deepEqual(readStored("not json"), { ...DEFAULTS });
  assert.deepEqual(readStored("[1, 2]"), { ...DEFAULTS });
  assert.deepEqual(readStored('{"size": "large", "back": "gold", "auto_home": "yes"}'), {
    ...DEFAULTS,
    size: "large",
  });
  assert.deepEqual(readStored('{"size": "small", "back": "lattice", "auto_home": true}'), {
    size: "small",
    back: "lattice",
    auto_home: true,
    tap: "best",
  });
  assert.equal(readStored('{"tap": "home"}').tap, "home");
  assert.equal(readStored('{"tap": "anywhere"}').tap, "best");
});

test("the account's settings win over the browser's", () => {
  const stored = '{"size": "small", "back": "red", "auto_home": false}';
  const account = { size: "large", back: "green", auto_home: true, tap: "home" };
  assert.deepEqual(initialSettings(stored, account), account);
  assert.equal(initialSettings(stored, null).back, "red");
});

test("a choice the table does not know changes nothing", () => {
  const settings = { ...DEFAULTS };
  assert.equal(withChoice(settings, "size", "large").size, "large");
  assert.deepEqual(withChoice(settings, "size", "huge"), settings);
  assert.deepEqual(withChoice(settings, "colour", "red"), settings);
  assert.equal(withChoice(settings, "auto_home", true).auto_home, true);
  assert.deepEqual(withChoice(settings, "auto_home", "true"), settings);
  assert.equal(withChoice(settings, "tap", "home").tap, "home");
  assert.deepEqual(withChoice(settings, "tap", "double"), settings);
});

test("a save sends only what changed", () => {
  const saved = { ...DEFAULTS };
  assert.equal(changedFields(saved, saved), null);
  const changed = { ...saved, back: "red", auto_home: true };
  assert.deepEqual(changedFields(saved, changed), { back: "red", auto_home: true });
});

test("the board carries the size and back for the css", () => {
  assert.deepEqual(boardData({ size: "small", back: "lattice" }), { cardSize: "small", cardBack: "lattice" });
  assert.deepEqual(boardData({ size: 3 }), { cardSize: "medium", cardBack: "blue" });
});
