"""The plain move form says a refusal in the player's language, in the board script's words."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from games import refusal_words, services
from games.engine import GameState
from games.engine.errors import EngineError
from games.errors import GameOver, Refused, ServiceError, StaleVersion
from games.models import Game, User
from games.refusal_words import NEEDS, RULES, refusal_sentence
from tests.support.games import game_play

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = (ROOT / "static/js/board/reminders.js").read_text(encoding="utf-8")
PRACTICE_CODE = "FT1-N-0000007"
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != "en"]

# Params in words for each rule, enough for every sentence to be built.
WORDED: dict[str, Any] = {
    "foundation": "F",
    "card": "C",
    "onto": "O",
    "want": "W",
    "suit": "S",
    "variant": "V",
    "n": 3,
    "face_up": 2,
    "pileKind": "column",
    "text": "zz",
    "columns": 10,
    "foundations": 8,
}


def _script_msgids() -> set[str]:
    # Every t("...") of reminders.js but the tap note, which is not a refusal.
    found = {m.replace('\\"', '"') for m in re.findall(r'\bt\(\s*"((?:[^"\\]|\\.)*)"', SCRIPT)}
    # The suits' names come from cards.js, as the script's suitName() takes them.
    cards = (ROOT / "static/js/board/cards.js").read_text(encoding="utf-8")
    suits = re.search(r"const SUIT_NAMES = \{(.*?)\};", cards)
    assert suits is not None
    found |= set(re.findall(r'\bt\("(\w+)"\)', suits.group(1)))
    return found - {"%(card)s cannot move now."}


def _python_msgids(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    seen: set[str] = set()

    def record(msgid: str, values: Any = None) -> str:
        seen.add(msgid)
        return msgid

    monkeypatch.setattr(refusal_words, "js_text", record)
    for rule, make in RULES.items():
        if rule == "build":
            for build in ("same-suit", "other-suit", "alternate-colour"):
                make({**WORDED, "build": build})
        elif rule == "pile_empty":
            make({**WORDED, "pileKind": "waste"})
            make(WORDED)
        else:
            make(WORDED)
    for card in ("AS", "8H", "JD", "QC", "KS", "7H", "TD"):
        refusal_words.the_card(card)
    refusal_words._in_words("foundation_empty", {"foundation": {"suit": "S"}})
    return seen


def test_the_sentences_are_the_board_scripts_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """One sentence per rule, the same msgid as the script's, so each language translates a
    reminder once (in the JavaScript catalog) and both say it alike."""
    assert _python_msgids(monkeypatch) == _script_msgids()
    block = SCRIPT.split("const NEEDS = {", 1)[1].split("};", 1)[0]
    script_needs = {
        rule: tuple(re.findall(r'"(\w+)"', keys))
        for rule, keys in re.findall(r"(\w+): \[([^\]]*)\]", block)
    }
    assert script_needs == NEEDS


def test_every_rule_of_the_protocol_has_a_sentence() -> None:
    protocol = (ROOT / "docs/protocol.md").read_text(encoding="utf-8")
    table = protocol.split("| rule | params | when |", 1)[1].split("\n\n", 1)[0]
    documented = set(re.findall(r"`(\w+)`", table.split("|---|---|---|", 1)[1]))
    documented -= {"same", "other", "alternate", "foundation", "pile", "card", "onto", "want"}
    documented -= {"variant", "face_up", "count", "build", "text", "columns", "foundations"}
    documented -= {"forbidden", "invalid_move"}  # codes, named beside their rules
    assert documented <= set(RULES), documented - set(RULES)


def _refusal(move: str) -> Refused:
    game = GameState.from_code(PRACTICE_CODE)
    try:
        game.play(move)
    except EngineError as err:
        return Refused(err)
    raise AssertionError(f"{move} was accepted")


@pytest.mark.parametrize(
    ("move", "dutch"),
    [
        ("t1-t2", "De klaverenheer kan niet op de ruiten 5"),
        ("zz", "“zz” is geen zet"),
        ("t11-t1", "“t11-t1”"),
        ("w-t1", "De aflegstapel is leeg."),
    ],
)
def test_it_words_the_engines_refusals_in_dutch(move: str, dutch: str) -> None:
    with translation.override("nl"):
        assert dutch in refusal_sentence(err=_refusal(move))


def test_it_falls_back_to_the_reason_when_the_params_are_not_whole() -> None:
    err = ServiceError("the reason", rule="build", params={"build": "same-suit", "card": "XX"})
    with translation.override("nl"):
        assert refusal_sentence(err=err) == "the reason"


@pytest.mark.parametrize("language", LANGUAGES)
def test_refusals_by_code_are_translated(language: str) -> None:
    for err in (GameOver("over"), StaleVersion("stale", version=3)):
        with translation.override("en"):
            english = refusal_sentence(err=err)
        with translation.override(language):
            assert refusal_sentence(err=err) not in (english, err.reason)


def _send(client: Client, game: Game, kind: str, move: str, language: str) -> str:
    page = client.get(reverse("game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language)
    version = re.search(r'name="version" value="(\d+)"', page.content.decode())
    answer = client.post(
        reverse("game_act", args=[game.pk]),
        {"type": kind, "move": move, "version": version.group(1) if version else "0"},
        HTTP_ACCEPT_LANGUAGE=language,
        follow=True,
    )
    assert answer.status_code == 200
    errors = re.findall(r'<li class="message message--error">(.*?)</li>', answer.content.decode())
    assert len(errors) == 1, (move, re.findall(r"message--\w+\">(.*?)<", answer.content.decode()))
    return errors[0]


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_plain_form_says_every_refusal_in_the_players_language(
    client: Client, user: User, language: str, now: Any
) -> None:
    game = services.game_start_practice(user=user, code=PRACTICE_CODE)
    client.force_login(user)
    for move in ("t1-t2", "zz", "t11-t1", "w-t1", "t3-f1"):
        with translation.override("en"):
            english = refusal_sentence(err=_refusal(move))
        said = _send(client, game, "move", move, language)
        assert said and said != english and "cannot" not in said, (move, said)
    # A move sent from a page the table has moved past (another tab played meanwhile).
    game_play(user=user, game_id=game.pk, move="s")
    stale = client.post(
        reverse("game_act", args=[game.pk]),
        {"type": "move", "move": "s", "version": "0"},
        HTTP_ACCEPT_LANGUAGE=language,
        follow=True,
    )
    with translation.override(language):
        assert escape(refusal_sentence(err=StaleVersion("stale"))) in stale.content.decode()
    # An undo in a ranked game: the daily's table has no Undo button, the form can still ask.
    daily = services.game_start_daily(user=user, now=now)
    said = _send(client, daily, "undo", "", language)
    with translation.override(language):
        assert (
            said
            == refusal_words.js_text("Ranked games have no undo.")
            != ("Ranked games have no undo.")
        )
