// The board's words without Django's catalog (i18n.js falls back to the English text; the
// Italian, through the real catalog, is tested in Chromium: tests/browser/test_js_units.py).
import { test } from "node:test";
import assert from "node:assert/strict";

import { cardName } from "../../static/js/board/cards.js";
import { t } from "../../static/js/board/i18n.js";

test("it falls back to english without the catalog", () => {
  assert.equal(typeof globalThis.gettext, "undefined");
  assert.equal(t("Column %(n)s", { n: 4 }), "Column 4");
  assert.equal(t("%(a)s and %(missing)s", { a: 1 }), "1 and %(missing)s");
  assert.equal(cardName("TD"), "10 of diamonds");
  assert.equal(cardName("AS"), "ace of spades");
});

test("it fills the placeholders through the catalog's interpolate when there is one", () => {
  globalThis.gettext = (msgid) => (msgid === "Column %(n)s" ? "Colonna %(n)s" : msgid);
  globalThis.interpolate = (text, vars, named) => (named ? text.replace("%(n)s", `[${vars.n}]`) : text);
  try {
    assert.equal(t("Column %(n)s", { n: 3 }), "Colonna [3]");
    assert.equal(t("no such text"), "no such text");
  } finally {
    delete globalThis.gettext;
    delete globalThis.interpolate;
  }
});
