// The board's one way to this browser's localStorage (the table's settings, the four-colour
// deck). Storage may be missing or refuse: a privacy mode can throw on merely reading
// window.localStorage, a full quota throws on setItem. A choice is then kept for the page
// only, never an error. `storage` is for the unit tests (a fake); the page uses its own.

/** @typedef {Pick<Storage, "getItem" | "setItem">} TextStorage */

/** The page's localStorage, or null where there is none or the browser refuses it. */
function pageStorage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/**
 * The text kept under `key`, or null: nothing kept, or no storage to read.
 * @param {string} key
 * @param {TextStorage | null} [storage]
 * @returns {string | null}
 */
export function storageGet(key, storage = pageStorage()) {
  try {
    return storage ? storage.getItem(key) : null;
  } catch {
    return null;
  }
}

/**
 * Keep `text` under `key`; false when it could not be kept (no storage, full, refused).
 * @param {string} key
 * @param {string} text
 * @param {TextStorage | null} [storage]
 * @returns {boolean}
 */
export function storageSet(key, text, storage = pageStorage()) {
  if (!storage) return false;
  try {
    storage.setItem(key, text);
    return true;
  } catch {
    return false;
  }
}
