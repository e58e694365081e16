"""What tests/browser/test_design.py measures on a page, as scripts run in the page.

Each returns a list of problems (empty: none), so one page's findings read together:

* ``OVERFLOW``: the page is wider than the window (it scrolls sideways).
* ``CONTRAST``: a piece of text, or a control's label, under 4.5:1 against what is drawn
  behind it (its own and its ancestors' background colours, alpha composited), WCAG's
  formula. Inactive controls are left out, as WCAG leaves them; so is the board's own
  table (the rules' pictures: board.css, its own look) and chart text (SVG).
* ``TOKENS``: a button or a field that does not wear the design's tokens: its corner
  radius is not ``--radius-control`` (a checkbox's ``--radius-sm``) or its font is not
  ``--font-sans``, as the browser's own controls would show.
* ``MENU``: the menu's items (links and the Log out button) on one row that do not share
  one baseline, or a resting item of another colour than the others.
"""

from __future__ import annotations

OVERFLOW = """(width) => {
  const seen = document.scrollingElement.scrollWidth;
  return seen > width ? [`the page is ${seen} px wide in a ${width} px window`] : [];
}"""

_COLOUR = """
  const parse = (text) => {
    let m = text.match(/rgba?\\(([^)]+)\\)/);
    if (m) {
      const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    }
    m = text.match(/color\\(srgb ([^)]+)\\)/);
    if (m) {
      const p = m[1].split(/[\\s\\/]+/).filter(Boolean).map(Number);
      return [p[0] * 255, p[1] * 255, p[2] * 255, p.length > 3 ? p[3] : 1];
    }
    return [0, 0, 0, 0];
  };
  const over = (top, under) => {
    const a = top[3] + under[3] * (1 - top[3]);
    if (!a) return [0, 0, 0, 0];
    const mix = (i) => (top[i] * top[3] + under[i] * under[3] * (1 - top[3])) / a;
    return [mix(0), mix(1), mix(2), a];
  };
  const backdrop = (el) => {
    const layers = [];
    for (let node = el; node; node = node.parentElement) {
      const colour = parse(getComputedStyle(node).backgroundColor);
      if (colour[3] > 0) layers.push(colour);
      if (colour[3] >= 1) break;
    }
    let colour = [255, 255, 255, 1];
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const luminance = ([r, g, b]) => {
    const c = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * c(r) + 0.7152 * c(g) + 0.0722 * c(b);
  };
  const ratio = (a, b) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
"""

CONTRAST = (
    """() => {"""
    + _COLOUR
    + """
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    for (let node = el; node; node = node.parentElement) {
      const s = getComputedStyle(node);
      if (s.visibility === 'hidden' || s.display === 'none') return false;
      if (Number(s.opacity) === 0) return false;
      if (s.clip === 'rect(0px, 0px, 0px, 0px)' || s.clipPath === 'inset(50%)') return false;
    }
    return true;
  };
  const problems = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('.ft-board, svg, script, style, noscript, option, :disabled')) continue;
    const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    const control = el.matches('button, .button, input:not([type=hidden]), select, textarea');
    if ((!own && !control) || !shown(el)) continue;
    const style = getComputedStyle(el);
    const fg = over(parse(style.color), backdrop(el));
    const value = ratio(fg, backdrop(el));
    if (value < 4.5) {
      const text = (el.textContent || el.value || '').trim().slice(0, 40);
      problems.push(`${value.toFixed(2)}:1 ${el.tagName.toLowerCase()}.${el.className} "${text}"`);
    }
  }
  return problems;
}"""
)

TOKENS = """() => {
  const probe = document.createElement('span');
  probe.style.setProperty('font-family', 'var(--font-sans)');
  probe.style.setProperty('border-radius', 'var(--radius-control)');
  document.body.append(probe);
  const want = getComputedStyle(probe);
  const font = want.fontFamily;
  const radius = want.borderTopLeftRadius;
  probe.style.setProperty('border-radius', 'var(--radius-sm)');
  const small = getComputedStyle(probe).borderTopLeftRadius;
  probe.remove();
  const problems = [];
  const fields =
    'input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select, textarea';
  const boxes = 'input[type=checkbox], input[type=radio]';
  for (const el of document.querySelectorAll(`button, .button, ${fields}, ${boxes}`)) {
    if (el.closest('.ft-board')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const s = getComputedStyle(el);
    const words = (el.textContent || el.name || '').trim().slice(0, 30);
    const name = `${el.tagName.toLowerCase()}.${el.className} "${words}"`;
    const corner = s.borderTopLeftRadius;
    if (el.matches(boxes)) {
      if (el.type === 'checkbox' && corner !== small) problems.push(`${name}: radius ${corner}`);
      if (s.appearance !== 'none') problems.push(`${name}: the browser's own box`);
      continue;
    }
    if (s.fontFamily !== font) problems.push(`${name}: font ${s.fontFamily.slice(0, 40)}`);
    if (corner !== radius) problems.push(`${name}: radius ${corner}`);
    if (el.matches(fields) && s.appearance !== 'none') {
      problems.push(`${name}: the browser's own field`);
    }
  }
  return problems;
}"""

MENU = (
    """() => {"""
    + _COLOUR
    + """
  const items = Array.from(document.querySelectorAll('.site-nav li > a, .site-nav li button'))
    .filter((el) => el.getBoundingClientRect().width > 0);
  const rows = new Map();
  for (const el of items) {
    const range = document.createRange();
    range.selectNodeContents(el);
    const text = range.getBoundingClientRect();
    const box = el.getBoundingClientRect();
    const row = Math.round(box.top / 20);
    if (!rows.has(row)) rows.set(row, []);
    const style = getComputedStyle(el);
    rows.get(row).push({
      name: el.textContent.trim(), base: text.bottom, left: text.left, colour: style.color,
      current: el.hasAttribute('aria-current'), underline: style.textDecorationLine,
    });
  }
  const problems = [];
  const all = [...rows.values()].flat();
  for (const row of rows.values()) {
    const bases = row.map((i) => i.base);
    if (row.length > 1 && Math.max(...bases) - Math.min(...bases) > 1)
      problems.push(`baselines differ: ${row.map((i) => `${i.name} ${i.base}`).join(', ')}`);
  }
  const resting = all.filter((i) => !i.current);
  const colours = new Set(resting.map((i) => i.colour));
  if (colours.size > 1) {
    problems.push(`menu colours differ: ${resting.map((i) => `${i.name} ${i.colour}`)}`);
  }
  for (const i of all) if (i.underline !== 'none') problems.push(`${i.name} is underlined`);
  if (rows.size > 1 && [...rows.values()].every((r) => r.length === 1)) {
    const lefts = all.map((i) => i.left);
    if (Math.max(...lefts) - Math.min(...lefts) > 1) {
      problems.push(`a folded menu's items start at ${lefts}`);
    }
  }
  return problems;
}"""
)
