// The table's settings as data (pure): card size, card back, "send safe cards home" and
// what a tap on a card does (place.js).
// The same choices as games/table_settings.py, which validates what the account keeps;
// the browser's copy (localStorage) is read through the same checks, so a stale or
// hand-edited copy can only ever fall back to the defaults.

export const SIZES = ["small", "medium", "large"];
export const BACKS = ["blue", "red", "green", "lattice"];
export const TAPS = ["best", "home"];
export const DEFAULTS = Object.freeze({ size: "medium", back: "blue", auto_home: false, tap: "best" });
export const STORAGE_KEY = "ft-table-settings";

/**
 * @typedef {object} Settings
 * @property {string} size  one of SIZES
 * @property {string} back  one of BACKS
 * @property {boolean} auto_home  the server sends safe cards home
 * @property {string} tap  one of TAPS: where a tap sends a card (place.js)
 */

/** @type {Record<string, unknown[]>} */
const CHOICES = { size: SIZES, back: BACKS, auto_home: [true, false], tap: TAPS };

/**
 * `value` as a complete settings record: each field kept if valid, else its default.
 * @param {unknown} value
 * @returns {Settings}
 */
export function cleanSettings(value) {
  const given = value && typeof value === "object" && !Array.isArray(value) ? value : {};
  const clean = { ...DEFAULTS };
  for (const [name, allowed] of Object.entries(CHOICES)) {
    if (allowed.includes(given[name])) clean[name] = given[name];
  }
  return clean;
}

/**
 * The settings a browser kept (the text localStorage holds, or null).
 * @param {string | null} text
 * @returns {Settings}
 */
export function readStored(text) {
  if (typeof text !== "string") return { ...DEFAULTS };
  try {
    return cleanSettings(JSON.parse(text));
  } catch {
    return { ...DEFAULTS };
  }
}

/**
 * The settings to start with: the account's (signed in: they follow the player), else the browser's.
 * @param {string | null} storedText
 * @param {object | null | undefined} account
 * @returns {Settings}
 */
export function initialSettings(storedText, account) {
  return account ? cleanSettings(account) : readStored(storedText);
}

/**
 * `settings` with one choice changed; a name or value the table does not know changes nothing.
 * @param {Settings} settings
 * @param {string} name
 * @param {unknown} value
 * @returns {Settings}
 */
export function withChoice(settings, name, value) {
  if (!(name in CHOICES) || !CHOICES[name].includes(value)) return settings;
  return { ...settings, [name]: value };
}

/**
 * The fields of `next` that differ from `saved` (what a save sends), or null when none do.
 * @param {Settings} saved
 * @param {Settings} next
 * @returns {Partial<Settings> | null}
 */
export function changedFields(saved, next) {
  const changed = {};
  for (const name of Object.keys(CHOICES)) {
    if (saved[name] !== next[name]) changed[name] = next[name];
  }
  return Object.keys(changed).length ? changed : null;
}

/**
 * What the board's element carries for the CSS (data-card-size, data-card-back).
 * @param {Partial<Settings>} settings
 * @returns {{cardSize: string, cardBack: string}}
 */
export function boardData(settings) {
  const clean = cleanSettings(settings);
  return { cardSize: clean.size, cardBack: clean.back };
}
