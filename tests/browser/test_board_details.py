"""Smaller things a player meets, in a real Chromium: no undo offered in a ranked game (the
key says so, in the player's language), the site's icon, variants by their names, a
resignation shown as the loss it is, the dead-end notice after a reload, "Describe the
board" for sighted players too, and wide pages that use a desktop's width."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import CONNECTED
from tests.browser.test_board import JOSEPHINE, record_accepted

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

StartPractice = Callable[[Page, str], str]
BoardOf = Callable[[Page], Any]
OnSite = Callable[[str], str]

# Run in `manage.py shell` on the live server's database (the on_site fixture).
DAILY_GAME = """
from games import services
from games.models import User
print(services.game_start_daily(user=User.objects.get(username="{username}")).pk)
"""
DEAD_END_GAME = """
from games import services
from games.models import Game, User
game = services.game_start_practice(user=User.objects.get(username="{username}"), code="{code}")
# What the server records once its solver proved no win is left (services._record).
Game.objects.filter(pk=game.pk).update(dead_end=True)
print(game.pk)
"""


@pytest.fixture
def in_language(new_page: Callable[..., Page]) -> Callable[[str], Page]:
    """``in_language(locale)``: a page whose browser asks for that language."""
    return lambda locale: new_page(viewport={"width": 1280, "height": 900}, locale=locale)


# Ranked games: no undo ----------------------------------------------------------------

RANKED_WORDS = {
    "en-GB": ("Ranked games have no undo.", "u undo", "d draw"),
    "it-IT": ("Nelle partite classificate non si annulla.", "u annulla", "d pesca"),
}


@pytest.mark.parametrize("locale", list(RANKED_WORDS))
def test_a_ranked_game_leaves_undo_out_of_its_help_and_refuses_the_key_with_a_note(
    in_language: Callable[[str], Page],
    sign_up: Callable[[Page], str],
    on_site: OnSite,
    live_url: str,
    board: BoardOf,
    shots: Path,
    locale: str,
) -> None:
    note, undo_words, draw_words = RANKED_WORDS[locale]
    page = in_language(locale)
    record_accepted(page)
    username = sign_up(page)
    game_id = on_site(DAILY_GAME.format(username=username)).split()[-1]
    page.goto(f"{live_url}/games/{game_id}/")
    table = board(page)
    table.wait_connected()
    assert page.locator("[data-board]").get_attribute("data-mode") == "ranked"
    help_text = page.locator("#board-help").inner_text()
    assert draw_words in help_text and undo_words not in help_text
    expect(page.locator('[data-action="undo"]')).to_have_count(0)

    table.pile("stock").click()
    table.wait_for_version(1)
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("u")
    reminder = page.locator('[data-testid="reminder"]')
    expect(reminder).to_be_visible()
    expect(reminder).to_have_text(note)
    page.screenshot(path=str(shots / f"ranked-undo-{locale}.png"))
    # Nothing went to the server, and the draw stands.
    sent = [f for f in getattr(page, "_ft_frames", []) if f.startswith(">")]
    assert not [f for f in sent if '"undo"' in f], sent
    assert table.version == 1


def test_a_practice_game_still_offers_undo(
    signed_up_page: Page, start_practice: StartPractice
) -> None:
    page = signed_up_page
    start_practice(page, JOSEPHINE)
    assert "u undo" in page.locator("#board-help").inner_text()
    expect(page.locator('[data-action="undo"]')).to_have_count(1)


def test_the_help_line_names_h_for_a_hint_where_hints_are_open(
    signed_up_page: Page, start_practice: StartPractice
) -> None:
    page = signed_up_page
    start_practice(page, JOSEPHINE)  # a practice deal: hints open
    assert "h hint" in page.locator("#board-help").inner_text()
    expect(page.locator('[data-action="hint"]')).to_have_count(1)


# The icon ---------------------------------------------------------------------------


def test_every_page_finds_the_sites_icon(
    signed_up_page: Page, start_practice: StartPractice, live_url: str, shots: Path
) -> None:
    page = signed_up_page
    board_url = start_practice(page, JOSEPHINE)
    pages = ["/", "/rules/", "/practice/", "/boards/daily/", "/games/", "/accounts/profile/"]
    for url in [live_url + path for path in pages] + [board_url]:
        page.goto(url)
        href = page.locator('link[rel="icon"]').get_attribute("href")
        assert href, f"{url} links no icon"
        icon = page.request.get(live_url + href)
        assert icon.status == 200, f"{url}: its icon {href} answers {icon.status}"
        assert icon.headers["content-type"].startswith("image/svg+xml")
    # Browsers also ask for /favicon.ico on their own, whatever the page says.
    response = page.request.get(live_url + "/favicon.ico")
    assert response.status == 200 and response.headers["content-type"].startswith("image/")
    page.goto(live_url + "/favicon.ico")
    page.screenshot(path=str(shots / "favicon.png"))


# Names and outcomes -----------------------------------------------------------------


def test_variants_show_by_their_names_and_a_resignation_by_its_name(
    signed_up_page: Page, start_practice: StartPractice, live_url: str, shots: Path
) -> None:
    page = signed_up_page
    url = start_practice(page, JOSEPHINE)
    expect(page.locator(".ft-variant")).to_have_text("Josephine")
    # The raw details are a developer's view now (?dev=1), with the variant's name too.
    page.goto(url + "?dev=1")
    page.locator(CONNECTED).wait_for()
    page.locator("summary", has_text="Game details").click()
    details = page.locator(".ft-debug dl").inner_text()
    assert "Josephine" in details and "josephine" not in details

    page.locator('[data-action="resign"]').click()
    page.locator('[data-testid="confirm-resign"] button[value="resign"]').click()
    result = page.locator('[data-testid="result"]')
    expect(result).to_be_visible()
    expect(result).to_have_attribute("data-status", "resigned")
    # Said as what it was (the resign button asked "resign?"), with the cards home.
    expect(result.locator('[data-result="title"]')).to_have_text("You resigned")
    expect(result.locator('[data-result="line"]')).to_have_text(
        re.compile(r"^\d+ of 104 cards home when you resigned\.$")
    )
    page.screenshot(path=str(shots / "resigned-result.png"))

    page.goto(live_url + "/games/")
    row = page.locator(".games-table tbody tr").first
    cells = row.locator("td").all_inner_texts()
    assert "Josephine" in cells[2] and "josephine" not in cells[2]
    assert cells[3] == "resigned"
    page.screenshot(path=str(shots / "my-games.png"), full_page=True)


# The dead-end notice ----------------------------------------------------------------


def test_the_dead_end_notice_is_there_when_the_board_opens_and_after_a_reload(
    signed_up_page: Page, on_site: OnSite, live_url: str, shots: Path
) -> None:
    page = signed_up_page
    username = page.locator(".site-nav a[href='/accounts/profile/']").inner_text()
    game_id = on_site(DEAD_END_GAME.format(username=username, code=JOSEPHINE)).split()[-1]
    page.goto(f"{live_url}/games/{game_id}/")
    notice = page.locator('[data-testid="dead-end"]')
    expect(notice).to_be_visible()
    page.locator(CONNECTED).wait_for()  # the hello has come: the notice stays
    expect(notice).to_be_visible()
    page.reload()
    page.locator(CONNECTED).wait_for()
    expect(notice).to_be_visible()
    expect(notice.locator('[data-action="end-game"]')).to_be_visible()
    page.screenshot(path=str(shots / "dead-end-after-reload.png"))


@pytest.mark.parametrize("size", [(1366, 900), (375, 812)])
def test_the_dead_end_notice_floats_and_never_moves_the_board(
    new_page: Callable[..., Page],
    sign_up: Callable[[Page], str],
    on_site: OnSite,
    live_url: str,
    shots: Path,
    size: tuple[int, int],
) -> None:
    width = size[0]
    page = new_page(size=size)
    username = sign_up(page)
    game_id = on_site(DEAD_END_GAME.format(username=username, code=JOSEPHINE)).split()[-1]
    page.goto(f"{live_url}/games/{game_id}/")
    page.locator(CONNECTED).wait_for()
    notice = page.locator('[data-testid="dead-end"]')
    expect(notice).to_be_visible()
    table = page.locator(".ft-table")
    shown = table.bounding_box()
    page.screenshot(path=str(shots / f"dead-end-floating-{width}.png"))
    # What notices.js does when the solver's verdict no longer holds (or comes mid-game).
    notice.evaluate("el => { el.hidden = true; }")
    hidden = table.bounding_box()
    assert shown and hidden and shown["y"] == hidden["y"], "the notice moved the board"
    notice.evaluate("el => { el.hidden = false; }")
    box = notice.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= width  # on the screen


# The board in words -----------------------------------------------------------------


def test_describe_the_board_shows_its_words_to_everyone(
    signed_up_page: Page, start_practice: StartPractice, shots: Path
) -> None:
    page = signed_up_page
    start_practice(page, JOSEPHINE)
    page.locator('[data-action="describe"]').click()
    described = page.locator('[data-testid="described"]')
    expect(described).to_be_visible()
    words = described.locator('[data-described="text"]')
    expect(words).to_contain_text("Column 1: 3 of diamonds")
    expect(words).to_contain_text("Stock: 64 cards.")
    box = words.bounding_box()
    assert box and box["width"] > 200 and box["height"] > 40  # on screen, not a 1 px region
    page.screenshot(path=str(shots / "describe-the-board.png"))
    described.locator("button").click()
    expect(described).to_be_hidden()


# Wide pages, tap-sized calendar days -------------------------------------------------


DAY_SIZES = """() => Array.from(document.querySelectorAll('.sc-calendar .sc-day'), (el) => {
  const r = el.getBoundingClientRect();
  return [r.width, r.height];
})"""


def side_by_side(page: Page, left: str, right: str) -> bool:
    a, b = page.locator(left).bounding_box(), page.locator(right).bounding_box()
    assert a and b, (left, right)
    return a["x"] + a["width"] <= b["x"] and abs(a["y"] - b["y"]) < 40


def test_wide_pages_use_the_screen_and_calendar_days_are_large_enough_to_tap(
    browser: Browser, sign_up: Callable[[Page], str], live_url: str, shots: Path
) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-GB")
    try:
        page = context.new_page()
        username = sign_up(page)
        page.goto(f"{live_url}/players/{username}/")
        assert page.locator("article").bounding_box()["width"] >= 1000  # type: ignore[index]
        assert side_by_side(page, ".sc-numbers", '[aria-labelledby="sc-history-heading"]')
        days = page.locator(".sc-calendar .sc-day")
        assert days.count() == 7 * 12
        sizes = page.evaluate(DAY_SIZES)
        assert min(min(size) for size in sizes) >= 40, sizes[:3]
        page.screenshot(path=str(shots / "scorecard-1366.png"), full_page=True)

        page.goto(f"{live_url}/boards/daily/")
        assert page.locator("article").bounding_box()["width"] >= 1000  # type: ignore[index]
        assert side_by_side(page, ".board-side", '[aria-labelledby="top-title"]')
        page.screenshot(path=str(shots / "daily-board-1366.png"), full_page=True)

        page.goto(f"{live_url}/games/")
        assert page.locator("article").bounding_box()["width"] >= 1000  # type: ignore[index]

        page.goto(f"{live_url}/")
        assert side_by_side(page, '[aria-labelledby="daily-title"]', '[data-testid="home-weekly"]')
        page.screenshot(path=str(shots / "home-1366.png"), full_page=True)

        page.goto(f"{live_url}/archive/")
        assert page.locator("article").bounding_box()["width"] >= 1000  # type: ignore[index]
        day = page.locator(".archive-day").first.bounding_box()
        assert day and day["width"] >= 120, day

        # On a phone the calendar fits the page (its days shrink) and shows this week.
        page.set_viewport_size({"width": 375, "height": 812})
        page.goto(f"{live_url}/")
        assert not side_by_side(
            page, '[aria-labelledby="daily-title"]', '[data-testid="home-weekly"]'
        )
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.goto(f"{live_url}/players/{username}/")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        today = datetime.now(UTC).date().isoformat()
        cell = page.locator(f'.sc-calendar td[title^="{today}"]').bounding_box()
        assert cell and cell["x"] >= 0 and cell["x"] + cell["width"] <= 375, cell
        page.screenshot(path=str(shots / "scorecard-375.png"), full_page=True)
    finally:
        context.close()
