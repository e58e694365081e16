""" "My games" in a real Chromium: an abandoned practice start shows as not started and
the player discards it in one tap (issue 20, item 6), on a desktop and a phone."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_board import JOSEPHINE

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


@pytest.mark.parametrize("size", [(1366, 900), (375, 812)])
def test_an_abandoned_practice_start_is_not_started_and_discarded_in_one_tap(
    new_page: Callable[..., Page],
    sign_up: Callable[[Page], str],
    start_practice: Callable[[Page, str], str],
    live_url: str,
    shots: Path,
    size: tuple[int, int],
) -> None:
    width = size[0]
    page = new_page(size=size)
    sign_up(page)
    start_practice(page, JOSEPHINE)
    page.goto(f"{live_url}/games/")
    rows = page.locator(".games-table tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first.locator('[data-testid="not-started"]')).to_have_text("not started")
    discard = rows.first.locator('[data-testid="discard"]')
    box = discard.bounding_box()
    assert box and box["x"] + box["width"] <= width  # on the screen, no sideways scroll
    page.screenshot(path=str(shots / f"my-games-not-started-{width}.png"), full_page=True)
    discard.click()
    expect(page.get_by_text("The practice game was discarded.")).to_be_visible()
    expect(page.locator(".games-table tbody tr")).to_have_count(0)
