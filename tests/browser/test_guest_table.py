"""A visitor plays without an account, uses Restart and New game on the table (asked first
only while a game is in progress), and signs up keeping every game: in a real Chromium."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import CONNECTED, PASSWORD
from tests.browser.test_board import JOSEPHINE
from tests.browser.test_js_units import Call, call  # noqa: F401 - the fixture

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

GAME_URL = re.compile(r"/games/([0-9a-f-]{36})/$")


@pytest.mark.parametrize(
    ("status", "moves", "asks"),
    [("active", 3, True), ("active", 0, False), ("won", 90, False), ("resigned", 4, False)],
)
def test_it_asks_first_only_while_a_game_is_in_progress(
    call: Call,  # noqa: F811
    status: str,
    moves: int,
    asks: bool,
) -> None:
    assert call("table.js", "needsConfirm", {"status": status, "moves": moves}) is asks


def game_id(page: Page) -> str:
    match = GAME_URL.search(page.url)
    assert match, page.url
    return match.group(1)


def test_a_visitor_plays_restarts_starts_anew_and_keeps_it_all_by_signing_up(
    page: Page, live_url: str, board: Callable[[Page], Any], shots: Path
) -> None:
    page.goto(live_url + "/practice/")
    expect(page.get_by_test_id("guest-note")).to_be_visible()
    page.fill("input[name=code]", JOSEPHINE)
    page.locator('button[name="action"][value="code"]').click()
    page.wait_for_url(GAME_URL)
    page.locator(CONNECTED).wait_for()
    first = game_id(page)
    expect(page.get_by_test_id("guest-signup")).to_be_visible()

    table = board(page)
    table.pile("stock").click()
    table.wait_for_version(1)

    # In progress: Restart asks; "Keep playing" keeps the game.
    dialog = page.get_by_test_id("confirm-table")
    page.locator('[data-action="restart"]').click()
    expect(dialog).to_be_visible()
    expect(dialog.locator('[data-table-question="restart"]')).to_be_visible()
    page.screenshot(path=str(shots / "table-restart-confirm.png"))
    dialog.get_by_role("button", name="Keep playing").click()
    expect(dialog).to_be_hidden()
    assert game_id(page) == first

    page.locator('[data-action="restart"]').click()
    dialog.get_by_role("button", name="Yes").click()
    page.wait_for_url(lambda url: first not in url)
    page.locator(CONNECTED).wait_for()
    second = game_id(page)
    expect(page.locator('[data-stat="moves"]')).to_have_text("0")
    assert "FT1-J-0000002" in page.content()  # the same deal

    # Nothing played yet: New game goes at once, to a new deal of the same variant.
    page.locator('[data-action="new-game"]').click()
    page.wait_for_url(lambda url: second not in url)
    page.locator(CONNECTED).wait_for()
    third = game_id(page)
    expect(page.locator(".ft-variant")).to_have_text("Josephine")

    # Sign up from the header: every game comes along.
    page.get_by_test_id("guest-signup").click()
    expect(page.get_by_test_id("guest-keeps")).to_be_visible()
    page.fill("input[name=username]", "guest_now_player")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator('form[action$="/accounts/signup/"] button[type=submit]').click()
    page.wait_for_url(lambda url: "/accounts/signup/" not in url)
    page.goto(live_url + "/games/")
    for game in (first, second, third):
        expect(page.locator(f'a[href="/games/{game}/"]').first).to_be_visible()
    page.screenshot(path=str(shots / "guest-signed-up-my-games.png"))
