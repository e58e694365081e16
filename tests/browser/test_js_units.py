"""Unit tests of the board's pure modules that need the server's side, run in Chromium as
the site serves them: the engine's real positions and changes, Django's JavaScript catalog
in Italian, the live leaderboard's socket. The cases that are plain data live in tests/js
(run by ``node --test`` and, in Chromium, by test_js_cases.py).

Each test opens a blank page on the live server's origin (served by Playwright's router, so
no such page exists on the site) and imports the ES modules from ``/static/js/board/`` as
the board does. ``call(module, function, *args)`` runs one exported function on JSON
arguments and returns its JSON result.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from games.engine import GameState

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

UNITS_PATH = "/__js_units__/"
# The blank page; `head` may load Django's JavaScript catalog (a script with a src only).
PAGE = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>JS units</title>'
    "{head}</head><body></body></html>"
)
CALL = """async ([module, name, args]) => {
  const exports = await import(`/static/js/board/${module}`);
  return exports[name](...args);
}"""

Call = Callable[..., Any]


def _open_units_page(page: Any, live_url: str, head: str = "") -> None:
    url = live_url + UNITS_PATH
    page.route(
        url, lambda route: route.fulfill(content_type="text/html", body=PAGE.format(head=head))
    )
    page.goto(url)


@pytest.fixture
def call(page: Any, live_url: str) -> Call:
    _open_units_page(page, live_url)
    return lambda module, name, *args: page.evaluate(CALL, [module, name, list(args)])


def board_view(**overrides: Any) -> dict[str, Any]:
    """A small board view in the engine's shape (two columns, two foundations)."""
    view = {
        "variant": "forty-thieves",
        "columns": [{"down": 0, "cards": ["KS", "QS"]}, {"down": 1, "cards": ["5H"]}],
        "foundations": [
            {"suit": "S", "count": 0, "top": None},
            {"suit": "H", "count": 1, "top": "AH"},
        ],
        "waste": ["7D"],
        "stock": 20,
        "redeals_left": 0,
        "score": 10,
        "moves": 3,
        "won": False,
        "stuck": False,
        "can_undo": True,
    }
    return {**view, **overrides}


def game_state(**overrides: Any) -> dict[str, Any]:
    """A game as the page embeds it (the fields the reducer reads)."""
    game = {
        "id": "g1",
        "role": "player",
        "mode": "practice",
        "status": "active",
        "version": 3,
        "score": 10,
        "moves": 3,
        "board": board_view(),
        "legal_moves": ["s", "t2-f2"],
        "can_undo": True,
        "hints": 0,
        "solver_help": True,
        "dead_end": False,
        "first_action_at": "2026-01-01T10:00:00+00:00",
        "finished_at": None,
    }
    return {**game, **overrides}


# Applying changes (changes.js) against the engine's own -----------------------------------


def test_it_inverts_the_servers_changes_over_a_real_game(call: Call) -> None:
    """Play a real deal with the engine; every step's changes, as the server computes
    them, turn the view before into exactly the view after."""
    from games.payloads import board_changes

    engine = GameState.from_code("FT1-J-0000002")
    steps = []
    for _ in range(12):
        legal = engine.legal_moves()
        if not legal:
            break
        before = copy.deepcopy(engine.view())
        # A card move when there is one (they change columns and foundations), else a draw.
        engine.play(next((m for m in legal if "-" in m), legal[0]))
        after = engine.view()
        steps.append([before, board_changes(before, after), after])
    assert len(steps) == 12
    for before, changes, after in steps:
        assert call("changes.js", "applyChanges", before, changes) == after


# Translation (i18n.js) through Django's JavaScript catalog --------------------------------


def test_it_translates_through_the_django_catalog_in_the_page_language(
    browser: Any, live_url: str
) -> None:
    context = browser.new_context(locale="it-IT")
    page = context.new_page()
    try:
        _open_units_page(page, live_url, head='<script src="/jsi18n/"></script>')
        words = page.evaluate(
            """async () => {
              const { t } = await import("/static/js/board/i18n.js");
              const { cardName } = await import("/static/js/board/cards.js");
              return [t("spades"), t("Column %(n)s", { n: 3 }), cardName("QH"), t("no such text")];
            }"""
        )
    finally:
        context.close()
    assert words == ["picche", "Colonna 3", "regina di cuori", "no such text"]


# The live leaderboard (board-live.js) on the board's socket class --------------------------


def test_it_keeps_the_daily_board_live_through_the_shared_socket(page: Any, live_url: str) -> None:
    """Not a pure module, but the one other user of socket.js: on connecting it says so
    and fetches the rows once, to catch up on what changed while it was away."""
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(live_url + "/boards/daily/")
    live = page.locator("[data-board-live].is-live")
    live.wait_for()
    assert live.locator(".board-live__label").inner_text() == "live"
    rows_url = live.get_attribute("data-rows-url")
    page.wait_for_function(
        "(url) => performance.getEntriesByType('resource').some((e) => e.name.endsWith(url))",
        arg=rows_url,
    )
    assert any(url.endswith(rows_url) for url in fetched)
