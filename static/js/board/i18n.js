// Translation for the board's scripts, through Django's JavaScript catalog: base.html
// loads /jsi18n/ (a classic script, so it has run before any module), which defines
// gettext(), ngettext() and interpolate() in the page's language. Strings are found for
// the catalog by makemessages with --keyword=t and --keyword=tn:1,2 (the Makefile's
// `messages` target), so every string must be a literal at its t() or tn() call, never a
// variable.

/**
 * `text` with its %(name)s placeholders filled from `vars`.
 * @param {string} text
 * @param {Record<string, unknown>} [vars]
 * @returns {string}
 */
function fill(text, vars) {
  if (!vars) return text;
  if (typeof globalThis.interpolate === "function") return globalThis.interpolate(text, vars, true);
  return text.replace(/%\((\w+)\)s/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/**
 * The translation of `msgid`, with %(name)s placeholders filled from `vars`.
 * @param {string} msgid
 * @param {Record<string, unknown>} [vars]
 * @returns {string}
 */
export function t(msgid, vars) {
  const catalog = typeof globalThis.gettext === "function";
  // Without the catalog (a page that does not load it) the English text stands.
  return fill(catalog ? globalThis.gettext(msgid) : msgid, vars);
}

/**
 * The plural form of the translation for `count` ("1 day", "2 days"; the language's own
 * forms through the catalog's plural rule), with its placeholders filled from `vars`.
 * @param {string} singular
 * @param {string} plural
 * @param {number} count
 * @param {Record<string, unknown>} [vars]
 * @returns {string}
 */
export function tn(singular, plural, count, vars) {
  const catalog = typeof globalThis.ngettext === "function";
  const text = catalog ? globalThis.ngettext(singular, plural, count) : count === 1 ? singular : plural;
  return fill(text, vars);
}
