"""The table's settings panel in Chromium: card size and back applied without a reload,
kept on the account, "send safe cards home" played by the server in the next game; the
panel passes axe at 1366x900 and 375x812; Sixty Thieves' cards are 44 px on a phone."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_accessibility import axe, run_axe  # noqa: F401 - axe is a fixture
from tests.browser.test_phone_board import CARDS, MIN_UPRIGHT_CARD_PX

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

ACES = "FT1-N-0000063"  # column 7 ends with the ace of hearts over the ace of hearts
SIXTY_THIEVES = "FT1-X-0000007"
WIDTH = (
    "() => document.querySelector('[data-pile=\"t1\"] .ft-card[data-card]')"
    ".getBoundingClientRect().width"
)
BACK = "() => getComputedStyle(document.querySelector('.ft-stock .ft-card--back')).backgroundImage"
STORED = "() => JSON.parse(localStorage.getItem('ft-table-settings'))"


@pytest.fixture
def sized(new_page: Callable[..., Page]) -> Callable[..., Page]:
    def make(width: int, height: int, *, touch: bool = False) -> Page:
        return new_page(
            viewport={"width": width, "height": height},
            has_touch=touch,
            is_mobile=touch,
            locale="en-GB",
        )

    return make


def open_settings(page: Page) -> Any:
    # On a phone, Table settings is behind "More".
    if page.locator('[data-action="more"]').is_visible():
        page.locator('[data-action="more"]').click()
    page.locator('[data-action="settings"]').click()
    dialog = page.locator('[data-testid="table-settings"]')
    expect(dialog).to_be_visible()
    return dialog


def test_size_and_back_apply_at_once_and_follow_the_account(
    sized,
    sign_up,
    start_practice,
    board,
    shots: Path,
    axe: str,  # noqa: F811
) -> None:
    page = sized(1366, 900)
    sign_up(page)
    start_practice(page, ACES)
    medium = page.evaluate(WIDTH)
    blue = page.evaluate(BACK)
    dialog = open_settings(page)
    dialog.get_by_label("Large").check()
    page.wait_for_function(f"() => ({WIDTH})() > {medium + 5}")
    dialog.get_by_label("Red").check()
    assert page.evaluate(BACK) != blue
    dialog.get_by_label("Four colours (diamonds blue, clubs green)").check()
    expect(page.locator("[data-board]")).to_have_class(re.compile(r"\bfour-colour\b"))
    dialog.get_by_label("Send safe cards home automatically").check()
    expect(dialog.locator("[data-settings-status]")).to_have_text("Saved to your account.")
    assert page.evaluate(STORED) == {
        "size": "large",
        "back": "red",
        "auto_home": True,
        "tap": "best",
    }
    serious = run_axe(page, axe)
    assert not serious, serious
    page.screenshot(path=str(shots / "table-settings-1366x900.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
    large = page.evaluate(WIDTH)
    print(f"1366x900: medium cards {medium:.1f} px, large {large:.1f} px")

    # Another browser of the same player: the account's settings, not the browser's.
    page.evaluate("localStorage.clear()")
    page.reload()
    board(page).wait_connected()
    assert page.locator("[data-board]").get_attribute("data-card-size") == "large"
    assert page.locator("[data-board]").get_attribute("data-card-back") == "red"
    assert abs(page.evaluate(WIDTH) - large) < 1


def test_the_next_game_sends_safe_cards_home_after_a_move(
    sized, sign_up, start_practice, board
) -> None:
    page = sized(1366, 900)
    sign_up(page)
    start_practice(page, ACES)
    open_settings(page).get_by_label("Send safe cards home automatically").check()
    expect(page.locator("[data-settings-status]")).to_have_text("Saved to your account.")
    start_practice(page, ACES)  # a new game takes the option
    table = board(page)
    open_settings(page)
    expect(page.locator('[data-testid="this-game-auto-home"]')).to_have_text(
        "This game sends safe cards home."
    )
    page.keyboard.press("Escape")
    table.pile("stock").click()
    table.wait_for_version(3)  # the draw and both aces of hearts
    table.settled()
    piles = table.piles()
    assert piles["f2"] == ["AH"] and piles["f6"] == ["AH"]
    assert "AH" not in piles["t7"]


def test_on_a_phone_the_panel_fits_and_sixty_thieves_cards_are_44_px(
    sized,
    sign_up,
    start_practice,
    board,
    shots: Path,
    axe: str,  # noqa: F811
) -> None:
    page = sized(375, 812, touch=True)
    sign_up(page)
    start_practice(page, SIXTY_THIEVES)
    board(page).settled()
    page.evaluate("window.scrollTo(0, 0)")
    cards = page.evaluate(CARDS)
    narrow = [c for c in cards if c["width"] < MIN_UPRIGHT_CARD_PX]
    assert not narrow, f"cards under {MIN_UPRIGHT_CARD_PX} px: {narrow[:3]}"
    assert max(c["right"] for c in cards) <= 375
    print(f"375x812 Sixty Thieves: cards {cards[0]['width']:.1f} px wide")
    page.screenshot(path=str(shots / "sixty-thieves-375x812.png"))

    # Every button of the board's bar is on the screen, a finger's size.
    for button in page.locator(".ft-tools .ft-btn:visible").all():
        box = button.bounding_box()
        assert box and box["x"] + box["width"] <= 375 and box["width"] >= 44, box
    dialog = open_settings(page)
    dialog.get_by_label("Small").check()
    box = dialog.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 375
    for label in dialog.locator("label").all():
        assert (label.bounding_box() or {"height": 0})["height"] >= 44
    serious = run_axe(page, axe)
    assert not serious, serious
    page.screenshot(path=str(shots / "table-settings-375x812.png"))
    page.keyboard.press("Escape")
    cards = page.evaluate(CARDS)
    assert min(c["width"] for c in cards) >= MIN_UPRIGHT_CARD_PX  # small changes nothing here
