"""The board on a phone, upright (375x812) and on its side (812x375), and a bar that
never moves the table: measured in a real Chromium.

Upright, the columns stand in two rows, so the cards take their width from the top row
(51 px at 375 px; the foundations in two rows beside the stock and the waste), the board
page has no site header (the menu button alone, in the corner; its menu carries Home)
and the board's bar is compact: the whole board is in the first screen. On its side, the
stock, the waste and the foundations stand right of the columns and a short window caps
the cards by its height, so a 13-card column fits; the reminder shows over the page's
header.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.engine import GameState
from tests.browser.test_board import JOSEPHINE, NO_HORIZONTAL_SCROLL, Player, won_game

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

StartPractice = Callable[[Page, str], str]
BoardOf = Callable[[Page], Any]

MIN_CARD_PX = 34  # on its side, where the height caps the cards
MIN_UPRIGHT_CARD_PX = 44  # upright: a finger's width (the columns in two rows)
MIN_TAP_PX = 44

# Every face-up card as drawn: its box, its corner's font size, and whether the middle of
# its rank and of its suit is this card's own pixel (not covered by another card).
CARDS = """() => Array.from(document.querySelectorAll('.ft-table .ft-card[data-card]'), (card) => {
  const box = card.getBoundingClientRect();
  const [rank, suit] = ['.ft-card__rank', '.ft-card__suit'].map((s) => card.querySelector(s));
  const shows = (el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return Boolean(hit && card.contains(hit));
  };
  return {
    card: card.dataset.card, pile: card.dataset.in,
    width: box.width, height: box.height, right: box.right, bottom: box.bottom,
    rank: shows(rank), suit: shows(suit),
    rankPx: parseFloat(getComputedStyle(rank).fontSize),
    suitPx: parseFloat(getComputedStyle(suit).fontSize),
  };
})"""
# Each element as drawn (one not drawn, as the buttons folded behind "More", is left out).
BOX = """(sel) => Array.from(document.querySelectorAll(sel), (el) => {
  const r = el.getBoundingClientRect();
  return {name: el.dataset.pile || el.textContent.trim(), x: r.x, y: r.y, width: r.width,
          height: r.height, right: r.right, bottom: r.bottom};
}).filter((box) => box.width > 0 && box.height > 0)"""


@pytest.fixture
def phone(new_page: Callable[..., Page]) -> Callable[[int, int], Page]:
    """``phone(width, height)``: a touch screen of that size."""
    return lambda width, height: new_page(
        viewport={"width": width, "height": height}, has_touch=True, is_mobile=True, locale="en-GB"
    )


def boxes(page: Page, selector: str) -> list[dict[str, Any]]:
    return page.evaluate(BOX, selector)


def overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    across = a["x"] < b["right"] and b["x"] < a["right"]
    return across and a["y"] < b["bottom"] and b["y"] < a["bottom"]


def play_opening(page: Page, table: Any, count: int) -> GameState:
    """The recorded win's first ``count`` moves: covered cards in every column, the waste
    fanned, a card on a foundation."""
    game = GameState.from_code(JOSEPHINE)
    player = Player(page, table)
    for move in won_game(JOSEPHINE)["moves"].split()[:count]:
        player.play(game, move)
    table.settled()
    # Measured as the page opens: at the top (the gestures may have scrolled it).
    page.evaluate("window.scrollTo(0, 0)")
    return game


def test_at_375_px_every_card_is_44_px_readable_and_the_board_fits_the_first_screen(
    phone: Callable[[int, int], Page],
    sign_up: Callable[[Page], str],
    start_practice: StartPractice,
    board: BoardOf,
    shots: Path,
) -> None:
    page = phone(375, 812)
    sign_up(page)
    start_practice(page, JOSEPHINE)
    table = board(page)
    play_opening(page, table, 8)  # ends on five draws: three waste cards fanned

    cards = page.evaluate(CARDS)
    assert {c["pile"] for c in cards} >= {"w", "f3", "t1", "t10"}
    assert len([c for c in cards if c["pile"] == "w"]) == 3
    narrow = [c for c in cards if c["width"] < MIN_UPRIGHT_CARD_PX]
    assert not narrow, f"cards under {MIN_UPRIGHT_CARD_PX} px: {narrow[:3]}"
    # Rank and suit readable on every card, on each covered card's visible strip too.
    hidden = [c for c in cards if not (c["rank"] and c["suit"])]
    assert not hidden, f"rank or suit covered: {hidden}"
    assert min(c["rankPx"] for c in cards) >= 12 and min(c["suitPx"] for c in cards) >= 11

    # The whole board in the first screen, nothing sideways.
    bottom = page.evaluate("document.querySelector('.ft-table').getBoundingClientRect().bottom")
    piles = boxes(page, ".ft-table [data-pile]")
    assert bottom <= 812, f"the board ends at {bottom} px"
    assert max(p["bottom"] for p in piles) <= 812 and max(p["right"] for p in piles) <= 375
    assert max(c["bottom"] for c in cards) <= 812
    assert page.evaluate(NO_HORIZONTAL_SCROLL)

    # Tap targets: the board's buttons, the piles and the header's menu button (its links
    # are tested open in test_site_menu.py).
    for button in boxes(page, ".ft-tools .ft-btn, .site-menu-button, .ft-table [data-pile]"):
        assert button["height"] >= MIN_TAP_PX and button["width"] >= MIN_TAP_PX, button
    width = cards[0]["width"]
    print(f"375x812: cards {width:.1f}x{cards[0]['height']:.1f} px, board bottom {bottom:.0f}")
    page.screenshot(path=str(shots / "board-375x812.png"))

    # And it plays by touch: a tap on the stock draws.
    before = table.version
    stock = table.pile("stock").bounding_box()
    assert stock
    page.touchscreen.tap(stock["x"] + stock["width"] / 2, stock["y"] + stock["height"] / 2)
    table.wait_for_version(before + 1)


def test_upright_the_board_page_has_no_site_header_and_the_menu_is_one_tap_away(
    phone: Callable[[int, int], Page],
    sign_up: Callable[[Page], str],
    start_practice: StartPractice,
    board: BoardOf,
    shots: Path,
) -> None:
    page = phone(375, 812)
    username = sign_up(page)
    start_practice(page, JOSEPHINE)
    board(page)

    # No header strip: the site's name is not drawn, the board's bar starts at the top, and
    # the menu button alone stands in the corner, clear of the bar's words and buttons.
    expect(page.locator(".site-name")).to_be_hidden()
    title = boxes(page, ".ft-title")[0]
    assert title["y"] <= 12, f"the bar starts at {title['y']} px"
    button = boxes(page, ".site-menu-button")[0]
    assert button["width"] >= MIN_TAP_PX and button["height"] >= MIN_TAP_PX, button
    for other in boxes(page, ".ft-title, .ft-connection, .ft-stats > div, .ft-tools .ft-btn"):
        assert not overlap(button, other), (button, other)
    # Every table button is in view (one row, the rest behind "More"), a finger wide.
    tools = boxes(page, ".ft-tools .ft-btn")
    assert len({round(tool["y"]) for tool in tools}) == 1, tools
    for tool in tools:
        assert tool["right"] <= 375 and tool["width"] >= MIN_TAP_PX, tool
    page.screenshot(path=str(shots / "board-375x812-no-header.png"))

    # One tap opens every link, Home included; Home goes home.
    page.get_by_role("button", name="Menu").tap()
    links = page.locator(".site-nav a, .site-nav button")
    shown = [t.strip() for t in links.all_inner_texts() if t.strip()]
    assert shown[0] == "Home" and username in shown and "Log out" in shown, shown
    assert {"Practice", "Leaderboards", "Archive", "Rules", "My games"} <= set(shown)
    page.screenshot(path=str(shots / "board-375x812-menu-open.png"))
    page.locator(".site-nav").get_by_role("link", name="Home").tap()
    page.wait_for_url(lambda url: "/games/" not in url)
    # Elsewhere the header is as it was: the site's name shows.
    expect(page.locator(".site-name")).to_be_visible()


def test_on_its_side_the_columns_show_and_the_reminder_leaves_the_foundations_free(
    phone: Callable[[int, int], Page],
    sign_up: Callable[[Page], str],
    start_practice: StartPractice,
    board: BoardOf,
    shots: Path,
) -> None:
    page = phone(812, 375)
    sign_up(page)
    start_practice(page, JOSEPHINE)
    table = board(page)
    play_opening(page, table, 3)  # a card on a foundation

    # Every column, to its last card, and the top row are on the first screen.
    cards = page.evaluate(CARDS)
    piles = boxes(page, ".ft-table [data-pile]")
    assert len([p for p in piles if p["name"].startswith("t")]) == 10
    lowest = max(c["bottom"] for c in cards)
    assert lowest <= 375, f"cards down to {lowest:.0f} px, below the fold"
    assert max(p["right"] for p in piles) <= 812
    assert min(c["width"] for c in cards) >= MIN_CARD_PX
    assert all(c["rank"] and c["suit"] for c in cards)
    assert page.evaluate(NO_HORIZONTAL_SCROLL)

    # A refusal (the keyboard's `f` on a column whose card no foundation takes): the
    # reminder shows, and covers no foundation, nor the stock or the waste.
    page.evaluate("document.querySelector('[data-pile=\"t1\"]').focus({preventScroll: true})")
    page.keyboard.press("f")
    reminder = page.locator('[data-testid="reminder"]')
    expect(reminder).to_be_visible()
    expect(reminder).to_have_class("ft-reminder is-shown")
    note = boxes(page, '[data-testid="reminder"]')[0]
    top_row = [p for p in piles if p["name"] == "stock" or p["name"][0] in "wf"]
    assert len(top_row) == 10
    assert page.evaluate("window.scrollY") == 0
    covered = [p["name"] for p in top_row if overlap(note, p)]
    assert not covered, f"the reminder covers {covered}"
    assert table.version == 3
    page.screenshot(path=str(shots / "board-812x375.png"))


@pytest.fixture
def sized(new_page: Callable[..., Page]) -> Callable[[int, int], Page]:
    """``sized(width, height)``: a desktop browser window of that size."""
    return lambda width, height: new_page(
        viewport={"width": width, "height": height}, locale="en-GB", timeout=30_000
    )


@pytest.mark.parametrize("size", [(1024, 768), (360, 780)], ids=["1024", "360"])
def test_the_table_stays_put_as_the_numbers_grow(
    sized: Callable[[int, int], Page],
    sign_up: Callable[[Page], str],
    start_practice: StartPractice,
    board: BoardOf,
    shots: Path,
    size: tuple[int, int],
) -> None:
    """The score, the moves and the clock grow digits and the connection changes its
    words: the bar keeps its places, so the table does not jump."""
    page = sized(*size)
    sign_up(page)
    start_practice(page, JOSEPHINE)
    table = board(page)
    top = "() => document.querySelector('.ft-table').getBoundingClientRect().top + scrollY"
    bar = "() => document.querySelector('.ft-bar').getBoundingClientRect().height"
    before = (page.evaluate(top), page.evaluate(bar))
    play_opening(page, table, 20)
    page.wait_for_function(
        "() => document.querySelector('[data-stat=\"time\"] time').textContent !== '0:00'"
    )
    assert int(page.locator('[data-stat="score"]').inner_text()) >= 10
    after = (page.evaluate(top), page.evaluate(bar))
    assert after == before, f"the table moved from {before[0]} to {after[0]} px"
    page.screenshot(path=str(shots / f"board-steady-{size[0]}.png"))


# Plays the recorded win's first {count} moves on the live server (as the socket would).
PLAY_MOVES = """
from games import services
from games.models import User
user = User.objects.get(username="{username}")
for move in "{moves}".split():
    services.game_act(user=user, game_id="{game}", kind="move", move=move)
"""


def test_on_its_side_a_column_of_13_cards_fits_the_first_screen(
    phone: Callable[[int, int], Page],
    sign_up: Callable[[Page], str],
    start_practice: StartPractice,
    on_site: Callable[[str], str],
    board: BoardOf,
    shots: Path,
) -> None:
    page = phone(812, 375)
    username = sign_up(page)
    url = start_practice(page, JOSEPHINE)
    # After 55 moves of the recorded win a column holds 13 cards.
    moves = " ".join(won_game(JOSEPHINE)["moves"].split()[:55])
    on_site(PLAY_MOVES.format(username=username, game=url.rstrip("/").split("/")[-1], moves=moves))
    page.reload()
    table = board(page)
    table.wait_connected()
    table.wait_for_version(55)
    table.settled()

    cards = page.evaluate(CARDS)
    lengths = {p: len([c for c in cards if c["pile"] == p]) for p in {c["pile"] for c in cards}}
    longest = max(lengths, key=lambda p: lengths[p])
    assert lengths[longest] == 13, lengths
    column = [c for c in cards if c["pile"] == longest]
    lowest = max(c["bottom"] for c in cards)
    assert lowest <= 375, f"cards down to {lowest:.0f} px, below the window"
    assert all(c["rank"] and c["suit"] for c in cards), "a covered card's corner is hidden"
    piles = boxes(page, ".ft-table [data-pile]")
    assert max(p["bottom"] for p in piles if not p["name"].startswith("t")) <= 375
    assert max(p["right"] for p in piles) <= 812
    assert page.evaluate("window.scrollY") == 0 and page.evaluate(NO_HORIZONTAL_SCROLL)
    # The bar in one row: no button over the connection's dot or over another button.
    dot = boxes(page, '[data-testid="connection"]')[0]
    tools = boxes(page, ".ft-tools .ft-btn")
    assert all(not overlap(dot, b) for b in tools), (dot, tools)
    assert all(not overlap(a, b) for a, b in zip(tools, tools[1:], strict=False)), tools
    assert all(b["height"] >= MIN_TAP_PX for b in tools), tools
    print(f"812x375: 13 cards end at {lowest:.0f} px, cards {column[0]['width']:.1f} px wide")
    page.screenshot(path=str(shots / "board-812x375-13-cards.png"))


def test_upright_the_second_row_of_columns_stays_put_as_the_first_row_grows(
    phone: Callable[[int, int], Page],
    sign_up: Callable[[Page], str],
    start_practice: StartPractice,
    board: BoardOf,
    shots: Path,
) -> None:
    """Issue 36: on a phone the ten columns stand in two rows, and the second row must not
    move down under the thumb when a column of the first grows: each row has its share of
    the screen from the start (render.js fitColumns)."""
    page = phone(375, 812)
    sign_up(page)
    start_practice(page, JOSEPHINE)
    table = board(page)
    game = GameState.from_code(JOSEPHINE)
    player = Player(page, table)
    top = "() => document.querySelector('[data-pile=\"t6\"]').getBoundingClientRect().top + scrollY"
    first_row = (
        "() => Math.max(...[1, 2, 3, 4, 5].map((n) =>"
        ' document.querySelectorAll(`[data-pile="t${n}"] .ft-card`).length))'
    )
    start = (page.evaluate(top), page.evaluate(first_row))
    tops, longest = [], start[1]
    for move in won_game(JOSEPHINE)["moves"].split()[:40]:
        player.play(game, move)
        table.settled()
        tops.append(page.evaluate(top))
        longest = max(longest, page.evaluate(first_row))
    # Meaningful only if a first-row column did grow past the deal's four cards.
    assert longest > start[1], "no column of the first row grew in these moves"
    moved = sorted({round(t - start[0]) for t in tops} - {0})
    assert not moved, f"the second row moved by {moved} px while a first-row column grew"
    page.screenshot(path=str(shots / "board-375x812-rows-steady.png"))
