// Translation for the board. Django's JS catalog (window.gettext, from /jsi18n/) wins
// when the page loads it; until then the server sends the board's own strings already
// translated (board-config "strings"), and anything else falls back to the English text.

let serverStrings = {};

export function setStrings(strings) {
  serverStrings = strings || {};
}

/** The translation of `msgid`, with %(name)s placeholders filled from `vars`. */
export function t(msgid, vars) {
  let text;
  if (typeof window.gettext === "function") {
    text = window.gettext(msgid);
    // The catalog answers the msgid itself when it has no translation.
    if (text === msgid && serverStrings[msgid]) text = serverStrings[msgid];
  } else {
    text = serverStrings[msgid] ?? msgid;
  }
  if (!vars) return text;
  return text.replace(/%\((\w+)\)s/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}
