"""The home page invites (issue 36): one click from the home page to a playable board as a
visitor; today's ranked deal behind a clear "one attempt, no undo" question; the day's
picture (finished, won, the top five) instead of a hash; the commitment one click away."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

CONNECTED = '[data-testid="connection"][data-state="connected"]'
GAME_URL = re.compile(r"/games/[0-9a-f-]{36}/$")


def test_a_visitor_reaches_a_playable_board_in_one_click(
    page: Page, live_url: str, shots: Path
) -> None:
    page.goto(live_url + "/")
    page.screenshot(path=str(shots / "home-visitor.png"), full_page=True)
    # The day's commitment no longer leads the page: it is inside "How we keep it fair".
    assert not page.get_by_test_id("home-fairness").locator(".commitment").is_visible()
    page.get_by_test_id("play-now").click()
    page.wait_for_url(GAME_URL)
    page.locator(CONNECTED).wait_for()
    assert page.locator('[data-pile="t1"] .ft-card[data-card]').count() >= 1
    assert page.get_by_test_id("ranked-mark").count() == 0  # practice: no attempt to spend


OPEN_TODAY = (
    "from django.utils import timezone; from games.daily import utc_today; "
    "from games.services import deal_open_daily; "
    "print(deal_open_daily(day=utc_today(timezone.now())).commitment)"
)


OPEN_THIS_WEEK = (
    "from django.utils import timezone; from games.daily import utc_today; "
    "from games.weekly import week_monday; from games.services import deal_open_weekly; "
    "print(deal_open_weekly(monday=week_monday(utc_today(timezone.now()))).commitment)"
)


def test_the_commitment_is_one_click_away(page: Page, live_url: str, on_site) -> None:
    commitment = on_site(OPEN_TODAY).split()[-1]
    weekly = on_site(OPEN_THIS_WEEK).split()[-1]
    page.goto(live_url + "/")
    for testid, expected in (("home-fairness", commitment), ("home-weekly-fairness", weekly)):
        fairness = page.get_by_test_id(testid)
        assert not fairness.locator(".commitment").is_visible(), testid
        fairness.locator("summary").click()
        assert fairness.locator(".commitment").inner_text() == expected


def test_on_a_phone_the_ranked_line_keeps_clear_of_the_screens_edges(
    new_page, sign_up, live_url: str, on_site, shots: Path
) -> None:
    page = new_page(size=(375, 812), locale="en-GB")
    username = sign_up(page)
    game = on_site(
        "from games import services; from games.models import User; "
        f"print(services.game_start_daily(user=User.objects.get(username='{username}')).pk)"
    ).split()[-1]
    page.goto(f"{live_url}/games/{game}/")
    page.locator(CONNECTED).wait_for()
    box = page.get_by_test_id("ranked-mark").bounding_box()
    assert box is not None
    # As the bar's own text: at least 8 px from either edge of the glass.
    assert box["x"] >= 8 and box["x"] + box["width"] <= 375 - 8, box
    page.screenshot(path=str(shots / "table-ranked-mark-375.png"))


def test_the_ranked_deal_asks_first_and_not_now_stays_home(
    signed_up_page: Page, live_url: str, shots: Path
) -> None:
    page = signed_up_page
    page.goto(live_url + "/")
    terms = page.locator("#daily-terms")
    assert re.search(
        r"one attempt, no undo and no hints; it closes in \d\d:\d\d", terms.inner_text()
    )
    page.get_by_test_id("play-daily").click()
    dialog = page.locator("#daily-confirm")
    dialog.wait_for(state="visible")
    page.screenshot(path=str(shots / "home-daily-confirm.png"))
    page.get_by_test_id("daily-cancel").click()
    dialog.wait_for(state="hidden")
    assert page.url == live_url + "/"
    page.get_by_test_id("play-daily").click()
    page.get_by_test_id("daily-confirm").click()
    page.wait_for_url(GAME_URL)
    page.locator(CONNECTED).wait_for()
    # The table says it is the ranked attempt and when it closes, ticking by the second.
    mark = page.get_by_test_id("ranked-mark")
    words = mark.inner_text()
    assert re.search(r"one attempt, no undo and no hints; it closes in \d\d:\d\d:\d\d", words)
    page.wait_for_function(
        "(before) => document.querySelector('[data-testid=ranked-mark]').innerText !== before",
        arg=words,
    )
    page.screenshot(path=str(shots / "table-ranked-mark.png"))


def test_the_home_page_shows_the_day_as_players_see_it(signed_up_page: Page, live_url: str) -> None:
    page = signed_up_page
    page.goto(live_url + "/")
    today = page.get_by_test_id("home-today")
    assert re.search(r"\d+ players? (has|have) finished so far, \d+ won\.", today.inner_text())
    assert "Your streak: 0 days won in a row." in page.get_by_test_id("home-me").inner_text()


@pytest.mark.parametrize("stars", ["2", "5"])
def test_a_fresh_install_deals_a_proven_deal_of_the_stars_asked_for(
    page: Page, live_url: str, stars: str
) -> None:
    """Winnable deals only, 2 stars and the hardest, 5, on a site that has only ever run
    `make run`: a board of a proven deal of those stars, no "none is ready" notice."""
    page.goto(live_url + "/practice/")
    page.locator("input[name=winnable]").check()
    page.locator("select[name=stars]").select_option(stars)
    page.locator('button[name="action"][value="random"]').first.click()
    page.wait_for_url(GAME_URL)
    page.locator(CONNECTED).wait_for()
    assert page.get_by_test_id("difficulty").first.get_attribute("aria-label") == (
        f"Difficulty: {stars} of 5 stars"
    )
