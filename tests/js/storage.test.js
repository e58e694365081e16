// storage.js: the board's one way to localStorage, against fake storages that keep, that
// are full, and that refuse to be touched at all.
import { test } from "node:test";
import assert from "node:assert/strict";

import { storageGet, storageSet } from "../../static/js/board/storage.js";

function memory() {
  const kept = new Map();
  return {
    kept,
    getItem: (key) => (kept.has(key) ? kept.get(key) : null),
    setItem: (key, text) => kept.set(key, String(text)),
  };
}

const refusing = {
  getItem() {
    throw new Error("SecurityError: the operation is insecure");
  },
  setItem() {
    throw new Error("SecurityError: the operation is insecure");
  },
};

test("it keeps a text and reads it back", () => {
  const storage = memory();
  assert.equal(storageSet("ft-four-colour", "1", storage), true);
  assert.equal(storageGet("ft-four-colour", storage), "1");
  assert.deepEqual([...storage.kept], [["ft-four-colour", "1"]]);
});

test("it reads null for a key never kept", () => {
  assert.equal(storageGet("ft-table-settings", memory()), null);
});

test("a full storage refuses the text and the old one stays", () => {
  const storage = memory();
  storageSet("ft-table-settings", "{}", storage);
  const full = {
    ...storage,
    setItem() {
      throw new Error("QuotaExceededError");
    },
  };
  assert.equal(storageSet("ft-table-settings", '{"size": "large"}', full), false);
  assert.equal(storageGet("ft-table-settings", full), "{}");
});

test("a storage that refuses every touch reads as nothing kept and keeps nothing", () => {
  assert.equal(storageGet("ft-four-colour", refusing), null);
  assert.equal(storageSet("ft-four-colour", "1", refusing), false);
});

test("without any storage it reads nothing and keeps nothing", () => {
  assert.equal(storageGet("ft-four-colour", null), null);
  assert.equal(storageSet("ft-four-colour", "1", null), false);
});

test("with no storage given it uses the page's own, or none", () => {
  // Node has no localStorage (a null storage); Chromium's blank page has a real one.
  const key = "ft-storage-test";
  const page = typeof globalThis.localStorage === "object" ? globalThis.localStorage : null;
  const kept = storageSet(key, "yes");
  assert.equal(kept, page !== null);
  assert.equal(storageGet(key), page ? "yes" : null);
  page?.removeItem(key);
});
