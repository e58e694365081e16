"""The table's bar at every width and in every language, measured in a real Chromium: no
button lies under another element, none is cut, each takes a click at its centre, no two
pieces of the bar overlap (the variant's name never over "Score"), and on a phone the bar
is one row whose other actions are behind "More".

A practice table as a visitor plays it (the fullest bar: Undo, Hint, Resign, New game,
Restart, Describe, Table settings), one per language and kind of screen, resized to each
width. The long Italian and Finnish words ("Suggerimento", "Abbandona", "Kuvaile lauta")
are the hard cases.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import CONNECTED
from tests.browser.test_board import JOSEPHINE

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

WIDTHS = (375, 414, 768, 1024, 1280, 1366, 1440, 1680, 1920)
LOCALES = {"en": "en-GB", "it": "it-IT", "nl": "nl-NL", "fi": "fi-FI"}
PHONE_PX = 480  # at most this wide the bar is one row (the rest behind "More")

# Every visible piece of the bar: its buttons (and the site's menu button, which stands
# over the bar on a phone), the title's parts, each number with its label and the
# connection. For a button: whether the point at its centre is the button (or inside it),
# and whether its words fit it (nothing cut by its own box or a scrolling parent).
MEASURE = """() => {
  const bar = document.querySelector('.ft-bar');
  const seen = (el) => {
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden'
      && !el.closest('dialog, [hidden]');
  };
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {x: r.x, y: r.y, right: r.right, bottom: r.bottom, width: r.width, height: r.height};
  };
  const name = (el) => (el.getAttribute('aria-label') || el.innerText || '')
    .trim().replace(/\\s+/g, ' ');
  // Where an ancestor clips its children (overflow other than visible), the part of the
  // box it lets show: a button scrolled half out of a toolbar is cut.
  const shown = (el) => {
    let r = box(el);
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const c = p.getBoundingClientRect();
      r = {x: Math.max(r.x, c.left), y: Math.max(r.y, c.top),
           right: Math.min(r.right, c.right), bottom: Math.min(r.bottom, c.bottom)};
    }
    return r;
  };
  const buttons = Array.from(
    bar.querySelectorAll('button, a.ft-btn, [role="button"]'), (el) => el,
  ).concat(Array.from(document.querySelectorAll('.site-menu-button'))).filter(seen).map((el) => {
    const b = box(el);
    const hit = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
    const s = shown(el);
    return {
      kind: 'button', name: name(el), ...b, hit: Boolean(hit && el.contains(hit)),
      under: hit && !el.contains(hit)
        ? (hit.className || hit.tagName) + ': ' + name(hit).slice(0, 40) : null,
      fits: el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1,
      whole: s.x <= b.x + 0.5 && s.y <= b.y + 0.5
        && s.right >= b.right - 0.5 && s.bottom >= b.bottom - 0.5,
    };
  });
  // Text pieces: each line box of the words of the title's parts, the numbers' labels and
  // values, and the connection (a wrapped name is two boxes, each must stand clear).
  const texts = [];
  const parts = bar.querySelectorAll(
    '.ft-title > span, .ft-title-main, .ft-stats dt, .ft-stats dd, .ft-connection');
  for (const el of parts) {
    if (!seen(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(el);
    for (const r of range.getClientRects()) {
      if (r.width < 1 || r.height < 1) continue;
      texts.push({kind: 'text', name: name(el), cls: el.className || el.tagName, x: r.x, y: r.y,
                  right: r.right, bottom: r.bottom, width: r.width, height: r.height});
    }
  }
  return {buttons, texts, width: innerWidth, height: innerHeight,
          scroll: document.documentElement.scrollWidth};
}"""


VERSION_ONE = "() => document.querySelector('[data-board]').dataset.version === '1'"
TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def overlap(a: dict[str, Any], b: dict[str, Any], slack: float = 0.5) -> bool:
    """Whether two boxes share more than a hairline."""
    across = a["x"] + slack < b["right"] and b["x"] + slack < a["right"]
    return across and a["y"] + slack < b["bottom"] and b["y"] + slack < a["bottom"]


def problems(measured: dict[str, Any]) -> list[str]:
    """Everything wrong with the bar as measured (empty when it is right)."""
    width, height = measured["width"], measured["height"]
    buttons, texts = measured["buttons"], measured["texts"]
    found = []
    for b in buttons:
        if not b["hit"]:
            found.append(f"{b['name']!r} lies under {b['under']!r}")
        if not b["fits"] or not b["whole"]:
            found.append(f"{b['name']!r} is cut (its words fit: {b['fits']}, whole: {b['whole']})")
        if b["x"] < 0 or b["y"] < 0 or b["right"] > width or b["bottom"] > height:
            found.append(f"{b['name']!r} leaves the window: {b}")
    for i, a in enumerate(buttons):
        for b in buttons[i + 1 :]:
            if overlap(a, b):
                found.append(f"buttons {a['name']!r} and {b['name']!r} overlap")
    for t in texts:
        for b in buttons:
            if overlap(t, b):
                found.append(f"text {t['name']!r} ({t['cls']}) under button {b['name']!r}")
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            if a["cls"] != b["cls"] and a["name"] != b["name"] and overlap(a, b):
                found.append(f"text {a['name']!r} ({a['cls']}) over {b['name']!r} ({b['cls']})")
    if measured["scroll"] > width:
        found.append(f"the page scrolls sideways: {measured['scroll']} > {width}")
    return found


class Tables:
    """One practice table per language and kind of screen (a phone's touch or a desktop's
    mouse), opened once and resized for each width."""

    def __init__(self, browser: Browser, live_url: str) -> None:
        self.browser = browser
        self.live_url = live_url
        self.pages: dict[tuple[str, bool], Page] = {}
        self.contexts: list[Any] = []

    def at(self, lang: str, width: int) -> Page:
        phone = width <= PHONE_PX
        height = 812 if phone else 900
        key = (lang, phone)
        if key not in self.pages:
            context = self.browser.new_context(
                viewport={"width": width, "height": height},
                locale=LOCALES[lang],
                has_touch=phone,
                is_mobile=phone,
            )
            self.contexts.append(context)
            page = context.new_page()
            page.set_default_timeout(15_000)
            page.goto(self.live_url + "/practice/")
            page.fill("input[name=code]", JOSEPHINE)
            page.locator('button[name="action"][value="code"]').click()
            page.locator(CONNECTED).wait_for()
            # One draw: Undo is on (a disabled button takes no click to test).
            page.locator('[data-pile="stock"]').click()
            page.wait_for_function(VERSION_ONE)
            self.pages[key] = page
        page = self.pages[key]
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        # Two frames: the container queries and the bar's own fitting have settled.
        page.evaluate(TWO_FRAMES)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture(scope="module")
def tables(browser: Browser, live_url: str) -> Iterator[Tables]:
    opened = Tables(browser, live_url)
    yield opened
    opened.close()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", list(LOCALES))
def test_no_button_of_the_bar_is_covered_cut_or_overlapping(
    tables: Tables, lang: str, width: int, shots: Path
) -> None:
    page = tables.at(lang, width)
    measured = page.evaluate(MEASURE)
    page.screenshot(path=str(shots / f"table-bar-{lang}-{width}.png"))
    names = [b["name"] for b in measured["buttons"]]
    assert len(names) >= 3, names  # the bar is there, with its buttons
    found = problems(measured)
    assert not found, f"{lang} at {width} px:\n" + "\n".join(found)
    # Each button takes a real click there: Playwright's check that the point it would
    # click is the button's, not another element's (what "Connesso intercepts pointer
    # events" was).
    for button in page.locator(".ft-bar .ft-tools button").all():
        if button.is_visible():
            button.click(trial=True, timeout=2_000)


def variant_and_score(page: Page) -> tuple[dict[str, Any], dict[str, Any]]:
    return page.evaluate(
        """() => [document.querySelector('.ft-variant'), document.querySelector('.ft-stats dt')]
             .map((el) => { const r = el.getBoundingClientRect();
                            return {x: r.x, y: r.y, right: r.right, bottom: r.bottom}; })"""
    )


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_variant_name_never_overlaps_score(tables: Tables, lang: str) -> None:
    for width in WIDTHS:
        page = tables.at(lang, width)
        variant, score = variant_and_score(page)
        assert not overlap(variant, score), f"{lang} at {width}: {variant} over {score}"


@pytest.mark.parametrize("width", [375, 414])
@pytest.mark.parametrize("lang", list(LOCALES))
def test_on_a_phone_the_bar_is_one_row_and_the_rest_is_behind_more(
    tables: Tables, lang: str, width: int, shots: Path
) -> None:
    page = tables.at(lang, width)
    tools = page.locator(".ft-bar .ft-tools")
    top = page.evaluate("document.querySelector('.ft-table').getBoundingClientRect().top")
    print(f"{lang} at {width} px: the cards start {top:.0f} px down")
    shown = page.evaluate(
        """() => Array.from(document.querySelectorAll('.ft-tools button'))
             .filter((b) => b.getBoundingClientRect().width > 0)
             .map((b) => ({y: b.getBoundingClientRect().y}))"""
    )
    assert shown, "no button in the bar"
    rows = {round(b["y"]) for b in shown}
    assert len(rows) == 1, f"{len(rows)} rows of buttons: {shown}"
    # "More" is a disclosure button: closed, it says so; open, its box shows, and each
    # button in it takes a click.
    more = tools.locator('[data-action="more"]')
    expect(more).to_be_visible()
    expect(more).to_have_attribute("aria-expanded", "false")
    menu = page.locator(f"#{more.get_attribute('aria-controls')}")
    expect(menu).to_be_hidden()
    more.tap()
    expect(more).to_have_attribute("aria-expanded", "true")
    expect(menu).to_be_visible()
    items = menu.locator("button:visible")
    assert items.count() >= 2
    for item in items.all():
        item.click(trial=True, timeout=2_000)  # in view, nothing over it
        box = item.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, box
        assert box["height"] >= 44, box  # a finger's tap
    page.screenshot(path=str(shots / f"table-bar-{lang}-{width}-more.png"))
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    expect(more).to_have_attribute("aria-expanded", "false")
    expect(more).to_be_focused()
    # Opened again, a tap elsewhere closes it.
    more.tap()
    expect(menu).to_be_visible()
    page.locator(".ft-table").tap(position={"x": 5, "y": 5})
    expect(menu).to_be_hidden()
    expect(more).to_have_attribute("aria-expanded", "false")


def test_on_a_desktop_every_action_is_in_the_bar_and_there_is_no_more(
    tables: Tables,
) -> None:
    page = tables.at("fi", 1366)
    expect(page.locator('.ft-bar [data-action="more"]')).to_be_hidden()
    for action in ("undo", "hint", "resign", "new-game", "restart", "describe", "settings"):
        expect(page.locator(f'.ft-bar [data-action="{action}"]').first).to_be_visible()


@pytest.mark.parametrize("lang", list(LOCALES))
def test_undo_says_it_counts_as_a_move(tables: Tables, lang: str) -> None:
    page = tables.at(lang, 1366)
    undo = page.locator('.ft-bar [data-action="undo"]').first
    title = undo.get_attribute("title") or ""
    words = {"en": "move", "it": "mossa", "nl": "zet", "fi": "siirro"}[lang]
    assert words in title.lower(), title
    # Said to screen readers as well: the title is the button's description.
    expect(undo).to_have_accessible_description(title)


def test_without_the_script_every_action_stays_in_the_bar_and_the_move_form_plays(
    new_page: Any, live_url: str, shots: Path
) -> None:
    """ "More" needs the script to open: without it a phone's bar keeps every button (they
    wrap), New game and Restart stay plain forms, and the form under the board plays."""
    page = new_page(
        viewport={"width": 375, "height": 812}, java_script_enabled=False, locale="en-GB"
    )
    page.goto(live_url + "/practice/")
    page.fill("input[name=code]", JOSEPHINE)
    page.locator('button[name="action"][value="code"]').click()
    page.wait_for_url(lambda url: "/games/" in url)
    expect(page.locator('[data-action="more"]')).to_be_hidden()
    for action in ("undo", "hint", "new-game", "resign", "restart", "describe", "settings"):
        button = page.locator(f'.ft-bar [data-action="{action}"]')
        expect(button).to_be_visible()
        box = button.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 375, (action, box)
    page.screenshot(path=str(shots / "table-bar-no-script-375.png"))
    form = page.locator("form.act-form")
    form.locator("input[name=move]").fill("s")
    form.locator("button[type=submit]").click()
    expect(page.locator('[data-stat="moves"]')).to_have_text("1")
