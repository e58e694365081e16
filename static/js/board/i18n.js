// Translation for the board's scripts, through Django's JavaScript catalog: base.html
// loads /jsi18n/ (a classic script, so it has run before any module), which defines
// gettext() and interpolate() in the page's language. Strings are found for the catalog
// by makemessages with --keyword=t (the Makefile's `messages` target), so every string
// must be a literal at its t() call, never a variable.

/** The translation of `msgid`, with %(name)s placeholders filled from `vars`. */
export function t(msgid, vars) {
  const catalog = typeof globalThis.gettext === "function";
  // Without the catalog (a page that does not load it) the English text stands.
  const text = catalog ? globalThis.gettext(msgid) : msgid;
  if (!vars) return text;
  if (typeof globalThis.interpolate === "function") return globalThis.interpolate(text, vars, true);
  return text.replace(/%\((\w+)\)s/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}
