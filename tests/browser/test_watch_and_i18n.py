"""Watching a game from a second browser, and the site in Italian."""

from __future__ import annotations

import gettext
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from games.engine import GameState

pytestmark = [pytest.mark.browser]

# The conftest fixtures: start_practice(page, code) -> URL; board(page) -> its test hooks.
StartPractice = Callable[[Page, str], str]
BoardOf = Callable[[Page], Any]

ROOT = Path(__file__).resolve().parents[2]
WON_GAMES = ROOT / "tests" / "data" / "won_games.json"
ITALIAN_CATALOG = ROOT / "locale" / "it" / "LC_MESSAGES" / "django.mo"
JOSEPHINE = "FT1-J-0000002"


@pytest.fixture
def watcher(browser: Browser) -> Iterator[Page]:
    """A second browser context, anonymous: a visitor who was only given the link."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def first_moves(count: int) -> list[str]:
    games = json.loads(WON_GAMES.read_text())["games"]
    log = next(g for g in games if g["code"] == JOSEPHINE)["moves"].split()
    return log[:count]


def moved_card(game: GameState, move: str) -> tuple[str, str] | None:
    """The card a move carries (the top one of a run) and the pile it lands on."""
    if move in ("s", "r"):
        return None
    src, rest = move.split("-")
    dst = rest.partition("x")[0]
    view = game.view()
    cards = view["waste"] if src == "w" else view["columns"][int(src[1:]) - 1]["cards"]
    return cards[-1], dst


@pytest.mark.timeout(120)
def test_a_second_browser_watches_the_game_and_sees_each_move(
    signed_up_page: Page, watcher: Page, start_practice: StartPractice, board: BoardOf
) -> None:
    player_page = signed_up_page
    url = start_practice(player_page, JOSEPHINE)
    player, seen = board(player_page), board(watcher)

    watcher.goto(url)
    seen.wait_connected()
    assert watcher.url == url  # practice games may be watched by anyone with the link
    expect(watcher.locator('[data-testid="watching"]')).to_be_visible()
    expect(watcher.locator('[data-testid="watching"]')).to_contain_text("Watching")
    assert watcher.locator("[data-board]").get_attribute("data-role") == "watcher"
    # A watcher has nothing to press: no undo, no resign, no keyboard help.
    expect(watcher.locator('[data-action="resign"], [data-action="undo"]')).to_have_count(0)
    assert seen.piles() == player.piles()

    game = GameState.from_code(JOSEPHINE)
    for version, move in enumerate(first_moves(14), start=1):
        card = moved_card(game, move)
        if move == "s":
            player.pile("stock").click()
        else:
            # A drag names the exact target (a tap could choose the other foundation).
            src, _, rest = move.partition("-")
            dst, _, count = rest.partition("x")
            source = player.card(src, -int(count or 1))
            source.hover(position={"x": 10, "y": 8})
            player_page.mouse.down()
            box = player.pile(dst).bounding_box()
            assert box is not None
            player_page.mouse.move(
                box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 40), steps=4
            )
            player_page.mouse.up()
        player.wait_for_version(version)
        game.play(move)
        seen.wait_for_version(version)
        if card is not None:
            code, dst = card
            assert seen.piles()[dst][-1] == code, f"{move}: the watcher misses {code} on {dst}"
        else:
            assert seen.piles()["w"][-1] == game.view()["waste"][-1]
        assert seen.pile("stock").inner_text() == player.pile("stock").inner_text()
    assert seen.piles() == player.piles()
    assert seen.status == "active"
    # What the watcher sees in the header follows too.
    for stat in ("score", "moves"):
        expect(watcher.locator(f'[data-stat="{stat}"]')).to_have_text(
            player_page.locator(f'[data-stat="{stat}"]').inner_text()
        )


# Italian --------------------------------------------------------------------------

# Words the home page and the rules page show, by their English text (the msgid).
# ("Change language" is the picker's no-JavaScript button, hidden where the script runs:
# tests/browser/test_language_switch.py.)
ON_EVERY_PAGE = ["Practice", "Rules", "Leaderboards", "Language"]
ON_THE_RULES_PAGE = ["Forty Thieves: the rules", "Contents", "How to play"]


@pytest.fixture
def italian(browser: Browser) -> Iterator[Page]:
    """A visitor whose browser asks for Italian (Accept-Language: it-IT)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="it-IT")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("path", "msgids"),
    [("/", ON_EVERY_PAGE), ("/rules/", ON_EVERY_PAGE + ON_THE_RULES_PAGE)],
    ids=["home", "rules"],
)
def test_an_italian_browser_gets_the_pages_in_italian(
    italian: Page, live_url: str, path: str, msgids: list[str]
) -> None:
    italian.goto(live_url + path)
    expect(italian.locator("html")).to_have_attribute("lang", "it")
    if not ITALIAN_CATALOG.exists():
        pytest.skip(
            "the Italian catalog locale/it/LC_MESSAGES/django.mo is not there yet"
            " (django-admin compilemessages after locale/it/LC_MESSAGES/django.po)"
        )
    with ITALIAN_CATALOG.open("rb") as mo:
        catalog = gettext.GNUTranslations(mo)
    text = italian.locator("body").inner_text()
    for msgid in msgids:
        msgstr = catalog.gettext(msgid)
        assert msgstr != msgid, f"{msgid!r} has no Italian translation"
        assert msgstr in text, f"{path}: {msgstr!r} (for {msgid!r}) is not on the page"
    # Some words are fixed here, not read from the catalog: the page is really Italian.
    assert "Regole" in text
    assert "Rules" not in text
