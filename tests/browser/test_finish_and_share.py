"""The end of a game and the deal's code, in a real Chromium: reminders said in the
player's language and words (an Italian board), the finish sent home in one tap with the
win celebrated (and no confetti for a player who asks for reduced motion), the rank in a
daily game's result, and the deal's code copied and shared as a link."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import CONNECTED
from tests.browser.test_board import GRAB, JOSEPHINE, record_accepted, won_game

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

StartPractice = Callable[[Page, str], str]
BoardOf = Callable[[Page], Any]
OnSite = Callable[[str], str]
CLASSIC = "FT1-N-0000007"  # column 1 shows the king of clubs, which cannot move at first

# Run in `manage.py shell` on the live server's database: the player's moves of a known
# win, up to the position from which every card left can go home.
TO_THE_FINISH = """
from games import services
from games.models import Game
game = Game.objects.get(pk="{game_id}")
for n, move in enumerate({moves}):
    result = services.game_act(kind="move", user=game.player, game_id=game.pk, move=move, version=n)
    if result.changes["can_finish"]:
        break
print(result.version)
"""
DAILY_GAME = """
from games import services
from games.models import User
print(services.game_start_daily(user=User.objects.get(username="{username}")).pk)
"""


@pytest.fixture
def context_page(new_page: Callable[..., Page], live_url: str) -> Callable[..., Page]:
    """``context_page(locale=..., reduced_motion=...)``: a page of a context of its own,
    allowed to use the clipboard."""

    def open_page(
        locale: str = "en-GB", reduced_motion: str = "no-preference", **more: Any
    ) -> Page:
        page = new_page(
            viewport={"width": 1280, "height": 900},
            locale=locale,
            reduced_motion=reduced_motion,
            **more,
        )
        page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_url)
        return page

    return open_page


# Reminders in the player's language -----------------------------------------------------


def test_an_italian_player_hears_a_refusal_in_italian_in_the_words_players_use(
    context_page: Callable[..., Page],
    sign_up: Callable[[Page], str],
    start_practice: StartPractice,
    board: BoardOf,
    shots: Path,
) -> None:
    page = context_page(locale="it-IT")
    sign_up(page)
    start_practice(page, CLASSIC)
    table = board(page)
    reminder = page.locator('[data-testid="reminder"]')
    # One tap on a card with nowhere to go: a short note, and nothing sent.
    table.card("t1").click(position=GRAB)
    expect(reminder).to_have_text("Il re di fiori ora non può muoversi.")
    page.screenshot(path=str(shots / "reminder-tap-it.png"))
    page.wait_for_timeout(600)  # apart from a double-tap
    # A double-tap asks the server with the card's own foundation: its refusal, by rule.
    table.card("t1").dblclick(position=GRAB)
    expect(reminder).to_have_text(
        "La fondazione di fiori comincia con un asso, non con il re di fiori."
    )
    assert table.version == 0
    page.screenshot(path=str(shots / "reminder-refused-it.png"))


# The finish and the celebration ----------------------------------------------------------


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_finish_sends_every_card_home_and_the_win_is_celebrated(
    context_page: Callable[..., Page],
    sign_up: Callable[[Page], str],
    start_practice: StartPractice,
    on_site: OnSite,
    board: BoardOf,
    shots: Path,
    motion: str,
) -> None:
    page = context_page(reduced_motion=motion)
    sign_up(page)
    url = start_practice(page, JOSEPHINE)
    game_id = url.rstrip("/").rsplit("/", 1)[-1]
    moves = won_game(JOSEPHINE)["moves"].split()
    version = int(
        on_site(TO_THE_FINISH.format(game_id=game_id, moves=json.dumps(moves))).split()[-1]
    )
    accepted = record_accepted(page)
    page.goto(url)
    page.locator(CONNECTED).wait_for()
    offer = page.locator('[data-testid="finish"]')
    expect(offer).to_be_visible()
    left = 104 - sum(
        int(n)
        for n in page.locator("[data-board]").evaluate(
            "() => JSON.parse(document.getElementById('game-state').textContent)"
            ".board.foundations.map((f) => f.count)"
        )
    )
    assert 0 < left < 20
    if motion == "no-preference":
        page.screenshot(path=str(shots / "finish-offered.png"))
    page.locator('[data-action="finish"]').click()
    expect(offer).to_be_hidden()
    result = page.locator('[data-testid="result"]')
    expect(result).to_be_visible(timeout=20_000)
    table = board(page)
    assert table.status == "won" and table.version == version + left
    # One ordinary move per card, each to a foundation, sent through the action queue.
    assert len(accepted) == left and all(re.fullmatch(r"(w|t\d+)-f\d+", m) for m in accepted)
    expect(result.locator('[data-result="title"]')).to_have_text("You won!")
    expect(result).to_have_class(re.compile(r"\bis-won\b"))
    share = result.locator('[data-result="share-text"]')
    expect(share).to_contain_text(f"Josephine {JOSEPHINE} — won ✅")
    expect(share).to_contain_text(f"/practice/?code={JOSEPHINE}")
    confetti = result.locator(".ft-confetti__bit")
    if motion == "reduce":
        expect(confetti).to_have_count(0)
        page.screenshot(path=str(shots / "win-celebration-reduced-motion.png"))
    else:
        assert confetti.count() > 0 and confetti.first.is_visible()
        page.wait_for_timeout(400)  # the confetti under way, for the screenshot
        page.screenshot(path=str(shots / "win-celebration.png"))


def test_a_daily_result_shows_the_players_rank_and_share_text(
    context_page: Callable[..., Page],
    sign_up: Callable[[Page], str],
    on_site: OnSite,
    live_url: str,
    board: BoardOf,
    shots: Path,
) -> None:
    # A browser of its own: the other tests' players share this machine's address and
    # browser, so fair play would link them and hold this result (off the board, no rank).
    page = context_page(user_agent=f"Mozilla/5.0 (X11; Linux) ft-rank-test/{uuid.uuid4().hex}")
    username = sign_up(page)
    game_id = on_site(DAILY_GAME.format(username=username)).split()[-1]
    page.goto(f"{live_url}/games/{game_id}/")
    table = board(page)
    table.wait_connected()
    table.pile("stock").click()
    table.wait_for_version(1)
    page.locator('[data-action="resign"]').click()
    page.locator('[data-testid="confirm-resign"] button[value="resign"]').click()
    result = page.locator('[data-testid="result"]')
    expect(result).to_be_visible()
    # Verified and ranked just after the last action (eager Celery here): the rank line.
    expect(result.locator('[data-testid="result-rank"]')).to_have_text(
        re.compile(r"^\d+(st|nd|rd|th) of \d+ players? so far$"), timeout=15_000
    )
    expect(result.locator('[data-result="share-text"]')).to_contain_text("/boards/daily/")
    expect(result.locator(".ft-confetti__bit")).to_have_count(0)  # a loss: no confetti
    page.screenshot(path=str(shots / "daily-result-rank.png"))


# The deal's code --------------------------------------------------------------------------


def test_the_deal_code_is_copied_and_its_link_opens_the_same_deal(
    context_page: Callable[..., Page],
    sign_up: Callable[[Page], str],
    start_practice: StartPractice,
    live_url: str,
    shots: Path,
) -> None:
    page = context_page()
    sign_up(page)
    first = start_practice(page, JOSEPHINE)
    block = page.locator('[data-testid="deal-code"]')
    expect(block.locator("code")).to_have_text(JOSEPHINE)
    # No raw state and no one-move form for a player (they are a developer's, ?dev=1).
    expect(page.locator('[data-testid="dev-details"]')).to_have_count(0)
    expect(page.locator(".act-form")).to_be_hidden()

    block.locator('[data-action="copy-code"]').click()
    expect(block.locator('[data-code-part="copied"]')).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == JOSEPHINE
    block.locator('[data-action="copy-link"]').click()
    link = page.evaluate("navigator.clipboard.readText()")
    assert link == f"{live_url}/practice/?code={JOSEPHINE}"
    block.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "deal-code-copied.png"))

    # The link, opened (by a friend, or here): the same deal, one click away.
    page.goto(link)
    expect(page.locator("input[name=code]")).to_have_value(JOSEPHINE)
    page.locator('button[name="action"][value="code"]').click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}/$"))
    assert page.url != first
    expect(page.locator('[data-testid="deal-code"] code')).to_have_text(JOSEPHINE)


# The post-game analysis, one tap from the finished game ----------------------------------


@pytest.mark.parametrize("size", [(1366, 900), (375, 812)])
def test_the_finished_game_links_its_replay_and_analysis_from_dialog_and_board(
    new_page: Callable[..., Page],
    sign_up: Callable[[Page], str],
    start_practice: StartPractice,
    board: BoardOf,
    live_url: str,
    shots: Path,
    size: tuple[int, int],
) -> None:
    width = size[0]
    page = new_page(size=size)
    sign_up(page)
    url = start_practice(page, JOSEPHINE)
    on_board = page.locator('[data-testid="board-analysis-link"]')
    expect(on_board).to_be_hidden()  # not while the game is on
    table = board(page)
    table.pile("stock").click()
    table.wait_for_version(1)
    table.act("resign")  # on a phone, behind "More"
    page.locator('[data-testid="confirm-resign"] button[value="resign"]').click()
    result = page.locator('[data-testid="result"]')
    link = result.locator('[data-testid="result-analysis-link"]')
    expect(link).to_be_visible()
    game_id = re.search(r"/games/([0-9a-f-]{36})/", url)[1]  # type: ignore[index]
    assert link.get_attribute("href") == f"/games/{game_id}/replay/#analysis"
    page.screenshot(path=str(shots / f"result-analysis-link-{width}.png"))
    result.locator('button[type="submit"]').click()  # "Look at the board"
    expect(on_board).to_be_visible()
    page.screenshot(path=str(shots / f"board-analysis-link-{width}.png"), full_page=True)
    # After a reload the finished board still has it, and it opens the analysis.
    page.reload()
    page.locator('[data-testid="result"] button[type="submit"]').click()
    on_board.locator("a").click()
    page.wait_for_url(re.compile(r"/replay/#analysis$"))
    expect(page.locator("#analysis")).to_be_attached()
