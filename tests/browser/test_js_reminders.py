"""Unit tests of reminders.js and finish.js that need the server's side, run in Chromium
as the site serves them (the harness of test_js_units.py): refusals said in the player's
words, in English and in Italian through Django's catalog, from the rules and params the
engine really raises; the note for a card that cannot move and the share text in Italian.
Their cases on plain data are in tests/js/finish.test.js."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from games.engine import EngineError, GameState
from tests.browser.test_js_units import CALL, _open_units_page, game_state

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

Say = Callable[[dict[str, Any]], str]


@pytest.fixture
def call(page: Any, live_url: str) -> Callable[..., Any]:
    _open_units_page(page, live_url)
    return lambda module, name, *args: page.evaluate(CALL, [module, name, list(args)])


@pytest.fixture
def in_italian(browser: Any, live_url: str) -> Iterator[Callable[..., Any]]:
    """``call`` on a page in Italian, with Django's JavaScript catalog loaded."""
    context = browser.new_context(locale="it-IT")
    page = context.new_page()
    _open_units_page(page, live_url, head='<script src="/jsi18n/"></script>')
    yield lambda module, name, *args: page.evaluate(CALL, [module, name, list(args)])
    context.close()


def refusal(game: GameState, move: str) -> dict[str, Any]:
    """The refusal the server sends for ``move`` (games.errors.Refused, consumers.py)."""
    try:
        game.play(move)
    except EngineError as err:
        return {"code": err.code, "reason": err.reason, "rule": err.rule, "params": err.params}
    raise AssertionError(f"{move} was legal")


def test_refusals_are_said_in_the_players_words_in_english_and_italian(
    call: Callable[..., Any], in_italian: Callable[..., Any]
) -> None:
    game = GameState.from_seed(7)  # column 1 shows the king of clubs, column 3 the 5 of hearts
    cases = {
        "t1-f1": (
            "The spades foundation takes only spades, not the king of clubs.",
            "La fondazione di picche accetta solo picche, non il re di fiori.",
        ),
        "t3-f2": (
            "The hearts foundation starts with an ace, not the 5 of hearts.",
            "La fondazione di cuori comincia con un asso, non con il 5 di cuori.",
        ),
        "t3-t1": (
            "The 5 of hearts cannot go on the king of clubs: a column builds down in the"
            " same suit.",
            "Il 5 di cuori non può andare sopra il re di fiori: in colonna si scende di uno"
            " nello stesso seme.",
        ),
    }
    for move, (english, italian) in cases.items():
        message = refusal(game, move)
        assert call("reminders.js", "reminderText", message) == english
        assert in_italian("reminders.js", "reminderText", message) == italian
    # The ace, the 8, the court cards: each with its own article in Italian.
    words = [in_italian("reminders.js", "theCard", card) for card in ("AS", "8D", "QH", "TC")]
    assert words == ["l'asso di picche", "l'8 di quadri", "la regina di cuori", "il 10 di fiori"]


def test_every_rule_a_real_game_refuses_with_has_a_sentence(call: Callable[..., Any]) -> None:
    """Every illegal move from every pile of a real deal: the page has words of its own
    for each rule the engine names (never the English fallback)."""
    game = GameState.from_seed(7)
    legal = set(game.legal_moves())
    seen = {}
    for src in ["w"] + [f"t{n}" for n in range(1, 11)]:
        for dst in [f"t{n}" for n in range(1, 11)] + [f"f{n}" for n in range(1, 9)]:
            move = f"{src}-{dst}"
            if move not in legal:
                message = refusal(game, move)
                seen.setdefault(message["rule"], message)
    tops = ["KS", "KH", "KD", "KC", "QS", "KH", "KD", "KC"]
    spent = GameState.from_layout([["KS"]] + [[]] * 9, [], foundations=tops)
    seen["stock_empty"] = refusal(spent, "s")
    for rule, message in seen.items():
        said = call("reminders.js", "reminderText", message)
        assert said and said != message["reason"], rule


def test_a_tap_on_a_card_that_cannot_move_says_so_briefly_in_italian(
    in_italian: Callable[..., Any],
) -> None:
    game = game_state(legal_moves=["s", "t2-f2"])
    stuck = {"pile": "t1", "card": "QS", "count": 1}
    assert in_italian("reminders.js", "cannotMoveNote", game, stuck) == (
        "La regina di picche ora non può muoversi."
    )


def test_the_practice_share_text_is_in_italian_too(in_italian: Callable[..., Any]) -> None:
    result = {
        "status": "won",
        "score": 1234,
        "moves": 280,
        "time": "7:05",
        "variant": "Josephine",
        "code": "FT1-J-0000002",
        "link": "https://example.test/practice/?code=FT1-J-0000002",
    }
    assert in_italian("finish.js", "practiceShareText", result).startswith(
        "Josephine FT1-J-0000002 — vinta ✅ · 1234 punti · 280 mosse"
    )
