"""The archive and the weekly challenge in a real Chromium: a closed daily deal played again
from the archive's calendar (with undo), and the weekly board."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .conftest import Board  # noqa: TID252

pytestmark = pytest.mark.timeout(120)

# Opens (uncertified, as the tier's shell runs) and closes a past day's deal, with a line to
# show as "one way to win" (the reveal comes with the close).
CLOSED_DAY = """
from datetime import date, timedelta
from games import services
from games.models import Deal
day = date.fromisoformat("{day}")
deal = services.deal_open_daily(day=day)
Deal.objects.filter(pk=deal.pk).update(solution="s s s", difficulty=3)
services.deal_close_daily(day=day, now=deal.closes_at + timedelta(minutes=1))
print(deal.pk)
"""


def test_a_player_plays_a_closed_day_again_from_the_archive_with_undo(
    signed_up_page: Page, live_url: str, on_site, board: type[Board], shots: Path
) -> None:
    page = signed_up_page
    day = (datetime.now(UTC) - timedelta(days=2)).date()
    deal_id = on_site(CLOSED_DAY.format(day=day.isoformat())).split()[-1]
    page.goto(live_url + "/")
    page.locator("nav.site-nav").get_by_role("link", name="Archive").click()
    page.goto(f"{live_url}/archive/{day:%Y-%m}/")
    cell = page.locator(f'[data-day="{day.isoformat()}"]')
    expect(cell.locator('[data-testid="winners"]')).to_contain_text("0 winners")
    expect(cell).to_contain_text("★★★☆☆")
    expect(cell.locator('[data-testid="solution-link"]')).to_have_attribute(
        "href", f"/deals/{deal_id}/solution/"
    )
    expect(cell.locator('[data-testid="your-result"]')).to_contain_text("Ranked: not played")
    page.screenshot(path=str(shots / "archive-calendar.png"), full_page=True)

    cell.locator('[data-testid="play-archive"]').click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}/$"))
    table = board(page)
    table.wait_connected()
    expect(page.locator('[data-testid="archive-mark"]')).to_contain_text(day.isoformat())
    table.pile("stock").click()
    table.wait_for_version(1)
    undo = page.locator('[data-action="undo"]')
    expect(undo).to_be_enabled()
    undo.click()
    table.wait_for_version(2)
    page.screenshot(path=str(shots / "archive-game.png"))

    # Back in the archive, the day offers to continue the unfinished game.
    page.goto(f"{live_url}/archive/{day:%Y-%m}/")
    expect(cell.get_by_role("link", name="Continue")).to_be_visible()


WEEKLY_DEAL = """
from django.utils import timezone
from games import services
from games.weekly import week_monday
deal = services.deal_open_weekly(monday=week_monday(timezone.now().date()))
print(deal.variant)
"""


def test_a_player_plays_this_weeks_challenge_and_sees_the_weekly_board(
    signed_up_page: Page, live_url: str, on_site, board: type[Board], shots: Path
) -> None:
    from games.weekly import week_label, week_monday

    page = signed_up_page
    variant = on_site(WEEKLY_DEAL).split()[-1]
    label = week_label(week_monday(datetime.now(UTC).date()))
    page.goto(live_url + "/")
    entry = page.locator('[data-testid="home-weekly"]')
    expect(entry).to_contain_text(label)
    entry.locator('[data-testid="play-weekly"]').click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}/$"))
    table = board(page)
    table.wait_connected()
    expect(page.locator(".ft-title")).to_contain_text("Weekly challenge")
    expect(page.locator('[data-action="undo"]')).to_have_count(0)  # ranked: no undo
    table.pile("stock").click()
    table.wait_for_version(1)
    page.locator('[data-action="resign"]').click()
    page.locator('[data-testid="confirm-resign"] button[value="resign"]').click()
    result = page.locator('[data-testid="result"]')
    # The result's story (issue 36) leads to the week's board once it has loaded; the
    # plain link it replaces is the page's without the story.
    week_board = result.get_by_test_id("story-board")
    expect(week_board).to_have_text("See the week's board")
    week_board.click()

    page.wait_for_url(re.compile(rf"/boards/weekly/{label}/$"))
    expect(page.locator('[data-testid="week"]')).to_have_text(label)
    expect(page.locator('[data-testid="weekly-variant"]')).not_to_be_empty()
    expect(page.locator('[data-testid="weekly-board"] .board-me')).to_have_count(1)
    page.screenshot(path=str(shots / "weekly-board.png"), full_page=True)
    assert variant
