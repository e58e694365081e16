"""What a tap does, and where the table's notes stand, in a real Chromium.

* A single tap on a card no foundation takes but a column does moves it there (its best
  place, chosen among the engine's legal moves), by mouse and by touch; the table's
  setting "home" keeps the old way (home only, with a note that a double-tap places it),
  is kept in the browser and on the account, and its help says so.
* A refusal and a hint stand beside the card concerned, not at the screen's foot, and are
  still said to screen readers (a polite live region).
* The "No win is possible" notice never covers "Copy link", wherever the page is scrolled.

FT1-N-0000063: column 1's queen of spades goes on column 8's king, and on nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import CONNECTED
from tests.browser.test_board import GRAB, JOSEPHINE, record_accepted
from tests.browser.test_board_details import DEAD_END_GAME

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

QUEEN_DEAL = "FT1-N-0000063"
StartPractice = Callable[[Page, str], str]
BoardOf = Callable[[Page], Any]
NEAR_PX = 16  # a callout's edge is at most this far from its card's (its arrow between)


def beside(note: dict[str, float], card: dict[str, float]) -> bool:
    """Whether the callout's box stands just under or over the card's, across from it."""
    across = note["x"] < card["x"] + card["width"] and card["x"] < note["x"] + note["width"]
    under = 0 <= note["y"] - (card["y"] + card["height"]) <= NEAR_PX
    over = 0 <= card["y"] - (note["y"] + note["height"]) <= NEAR_PX
    return across and (under or over)


def shown_note(page: Page) -> tuple[Any, dict[str, float]]:
    note = page.get_by_test_id("reminder")
    expect(note).to_have_class("ft-reminder is-shown")
    expect(note).to_have_attribute("aria-live", "polite")
    expect(note).to_have_attribute("role", "status")
    box = note.bounding_box()
    assert box
    return note, box


@pytest.mark.parametrize("pointer", ["mouse", "touch"])
def test_a_tap_moves_a_card_a_column_takes_to_that_column(
    new_page: Callable[..., Page],
    sign_up: Callable[[Page], str],
    start_practice: StartPractice,
    board: BoardOf,
    pointer: str,
) -> None:
    page = new_page(size=(375, 812) if pointer == "touch" else (1280, 900), locale="en-GB")
    accepted = record_accepted(page)
    sign_up(page)
    start_practice(page, QUEEN_DEAL)
    table = board(page)
    table.settled()
    queen = table.card("t1")
    assert queen.get_attribute("data-card") == "QS"
    if pointer == "touch":
        queen.tap(position=GRAB)
    else:
        queen.click(position=GRAB)
    table.wait_for_version(1)
    page.wait_for_timeout(400)  # time for a second move, if the page sent one
    assert accepted == ["t1-t8"]
    assert table.piles()["t8"][-2:] == ["KS", "QS"]


def choose_tap(page: Page, table: Any, label: str) -> None:
    table.act("settings")
    dialog = page.get_by_test_id("table-settings")
    dialog.get_by_label(label).check()
    expect(dialog.locator("[data-settings-status]")).to_have_text("Saved to your account.")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()


def test_the_home_setting_keeps_taps_for_foundations_and_says_a_double_tap_places_a_card(
    new_page: Callable[..., Page],
    sign_up: Callable[[Page], str],
    start_practice: StartPractice,
    board: BoardOf,
    shots: Path,
) -> None:
    page = new_page(size=(1280, 900), locale="en-GB")
    accepted = record_accepted(page)
    sign_up(page)
    start_practice(page, QUEEN_DEAL)
    table = board(page)
    help_text = page.locator("#board-help")
    # The help as it is shown (inner text: the other mode's sentence is hidden).
    assert help_text.inner_text().startswith("Tap a card to move it to its best place")
    choose_tap(page, table, "Sends it home only")
    assert help_text.inner_text().startswith("Tap a card to send it to a foundation")
    table.settled()
    queen = table.card("t1")
    queen.click(position=GRAB)
    note, box = shown_note(page)
    expect(note).to_have_text("Double-tap to place the queen of spades on a column.")
    card = queen.bounding_box()
    assert card and beside(box, card), (box, card)
    page.screenshot(path=str(shots / "tap-home-note.png"))
    assert table.version == 0 and accepted == []
    page.wait_for_timeout(500)  # a new gesture, not the rest of the first click
    queen.dblclick(position=GRAB)
    table.wait_for_version(1)
    assert accepted == ["t1-t8"]

    # Kept in this browser, and on the account: with the browser's copy gone, the page
    # brings the account's.
    assert page.evaluate("JSON.parse(localStorage.getItem('ft-table-settings')).tap") == "home"
    page.evaluate("localStorage.removeItem('ft-table-settings')")
    page.reload()
    page.locator(CONNECTED).wait_for()
    assert help_text.inner_text().startswith("Tap a card to send it to a foundation")


@pytest.mark.parametrize("size", [(1366, 900), (375, 812)], ids=["1366", "375"])
def test_a_refusal_stands_beside_its_card_and_is_said_to_screen_readers(
    new_page: Callable[..., Page],
    live_url: str,
    board: BoardOf,
    shots: Path,
    size: tuple[int, int],
) -> None:
    page = new_page(size=size, locale="en-GB")
    page.goto(live_url + "/practice/")
    page.fill("input[name=code]", JOSEPHINE)
    page.locator('button[name="action"][value="code"]').click()
    page.locator(CONNECTED).wait_for()
    table = board(page)
    table.settled()
    # `f` on column 1: its 5 of clubs goes to no foundation; the server says why.
    page.evaluate("document.querySelector('[data-pile=\"t1\"]').focus({preventScroll: true})")
    page.keyboard.press("f")
    note, box = shown_note(page)
    expect(note).to_contain_text("5 of clubs")
    page.wait_for_timeout(250)  # faded in, for the picture
    page.screenshot(path=str(shots / f"refusal-callout-{size[0]}.png"))
    card = table.card("t1").bounding_box()
    assert card and beside(box, card), (box, card)
    assert box["x"] >= 0 and box["x"] + box["width"] <= size[0]
    assert box["y"] >= 0 and box["y"] + box["height"] <= size[1], "the note is out of view"
    # A hint stands beside the card it would move.
    page.wait_for_timeout(100)
    if page.locator('[data-action="hint"]').is_visible():
        page.locator('[data-action="hint"]').click()
    else:
        page.keyboard.press("h")
    expect(note).to_contain_text("Hint:")
    source = page.locator('[data-hint="source"]')
    expect(source).to_have_count(1)
    pile = source.get_attribute("data-pile") or ""
    _, box = shown_note(page)
    page.screenshot(path=str(shots / f"hint-callout-{size[0]}.png"))
    target = (table.card(pile) if pile != "stock" else table.pile("stock")).bounding_box()
    assert target and beside(box, target), (pile, box, target)


COPY_LINK_SHOWS = """() => {
  const link = document.querySelector('[data-action="copy-link"]');
  const r = link.getBoundingClientRect();
  if (r.bottom <= 0 || r.top >= innerHeight) return null;  // out of view: nothing to cover
  const y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
  const hit = document.elementFromPoint(r.left + r.width / 2, y);
  return Boolean(hit && link.contains(hit));
}"""


@pytest.mark.parametrize("size", [(1366, 768), (768, 1024), (375, 812)], ids=str)
def test_the_dead_end_notice_never_covers_copy_link(
    new_page: Callable[..., Page],
    sign_up: Callable[[Page], str],
    on_site: Callable[[str], str],
    live_url: str,
    shots: Path,
    size: tuple[int, int],
) -> None:
    page = new_page(size=size, locale="en-GB")
    username = sign_up(page)
    game_id = on_site(DEAD_END_GAME.format(username=username, code=JOSEPHINE)).split()[-1]
    page.goto(f"{live_url}/games/{game_id}/")
    page.locator(CONNECTED).wait_for()
    notice = page.get_by_test_id("dead-end")
    expect(notice).to_be_in_viewport()  # the player sees it as the board opens
    page.screenshot(path=str(shots / f"dead-end-copy-link-{size[0]}.png"))
    height = page.evaluate("document.documentElement.scrollHeight - innerHeight")
    covered = []
    for y in range(0, height + 1, 20):
        page.evaluate("y => window.scrollTo(0, y)", y)
        if page.evaluate(COPY_LINK_SHOWS) is False:
            covered.append(y)
    assert not covered, f"Copy link covered when scrolled to {covered}"
