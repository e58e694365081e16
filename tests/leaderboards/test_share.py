"""Share text: day, result, score, moves and time, and never a card, a move or the deal code."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from games import services
from games.display import format_duration
from games.engine import format_code, parse_code
from games.engine.cards import RANKS, SUITS
from games.models import Deal, Game, User
from leaderboards.models import Result
from leaderboards.share import share_text
from tests.support.games import game_play, game_resign

Capture = Callable[..., Any]
WON = json.loads((Path(__file__).parent.parent / "data" / "won_games.json").read_text())["games"]
CARD_CODES = [r + s for r in RANKS for s in SUITS]
# Any move of the notation, as a whole word: s, r, w-t3, t1-f2, t3-t5x3, f1-t2.
MOVE = re.compile(r"(?<![\w-])(?:s|r|(?:w|[tf]\d{1,2})-[tf]\d{1,2}(?:x\d+)?)(?![\w-])")


def assert_spoiler_free(text: str, deal: Deal | None = None) -> None:
    for code in CARD_CODES:
        assert not re.search(rf"\b{code}\b", text), f"card {code} in {text!r}"
    assert not MOVE.search(text), f"a move in {text!r}"
    assert "FT1-" not in text
    if deal is not None:
        assert deal.code not in text and deal.seed_hex not in text


def won_daily(user: User, day: date, capture: Capture) -> Game:
    """A real won ranked game of a daily deal (a known winning deal, made the day's deal)."""
    won = WON[0]
    rules, seed = parse_code(won["code"])
    deal = Deal.objects.create(
        kind=Deal.Kind.DAILY,
        variant=rules.spec,
        day=day,
        seed_hex=f"{seed:032x}",
        code=format_code(rules, seed) + "-daily",
    )
    game = Game.objects.create(player=user, deal=deal, mode="ranked")
    with capture(execute=True):
        for move in won["moves"].split():
            game_play(user=user, game_id=game.pk, move=move)
    game.refresh_from_db()
    return game


@pytest.mark.django_db
def test_the_share_text_of_a_real_won_game_has_no_card_and_no_move(
    user: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    game = won_daily(user, now.date(), django_capture_on_commit_callbacks)
    result = Result.objects.get(game=game)
    assert result.status == Result.Status.VERIFIED and result.won
    text = share_text(result, site_url="https://ft.example")
    first, link = text.split("\n")
    assert first.startswith(f"Josephine {now.date().isoformat()} — won ✅ ")
    assert f"{result.score} pts" in first and f"{result.moves} moves" in first
    assert first.endswith(format_duration(result.duration_ms))
    assert link == f"https://ft.example/boards/daily/{now.date().isoformat()}/"
    assert_spoiler_free(text, game.deal)
    # And every card the game ever showed is absent, not only the 52 codes as words.
    for move in WON[0]["moves"].split():
        assert move not in text.split()


def test_the_share_text_matches_the_issues_example() -> None:
    result = Result(
        day=date(2026, 11, 29),
        variant="forty-thieves",
        outcome="won",
        won=True,
        score=1185,
        moves=312,
        duration_ms=(18 * 60 + 42) * 1000 + 999,
    )
    assert share_text(result, site_url="https://ft.example/") == (
        "Forty Thieves 2026-11-29 — won ✅ 1185 pts · 312 moves · 18:42\n"
        "https://ft.example/boards/daily/2026-11-29/"
    )


@pytest.mark.parametrize(("outcome", "mark"), [("lost", "lost ❌"), ("resigned", "resigned 🏳️")])
def test_a_lost_or_resigned_game_says_so(outcome: str, mark: str) -> None:
    result = Result(
        day=date(2027, 1, 1),
        variant="forty-thieves",
        outcome=outcome,
        score=410,
        moves=1,
        duration_ms=3_723_000,
    )
    assert share_text(result) == (
        f"Forty Thieves 2027-01-01 — {mark} 410 pts · 1 move · 1:02:03\n/boards/daily/2027-01-01/"
    )


def test_a_practice_result_has_no_share_text() -> None:
    result = Result(
        day=None, variant="forty-thieves", outcome="won", score=1, moves=1, duration_ms=0
    )
    with pytest.raises(ValueError):
        share_text(result)


@given(
    outcome=st.sampled_from(["won", "lost", "resigned"]),
    score=st.integers(0, 1360),
    moves=st.integers(0, 9999),
    duration_ms=st.integers(0, 10**9),
    day=st.dates(min_value=date(2024, 1, 1), max_value=date(2035, 12, 31)),
)
def test_no_share_text_ever_carries_a_card_or_a_move(
    outcome: str, score: int, moves: int, duration_ms: int, day: date
) -> None:
    result = Result(
        day=day,
        variant="forty-thieves",
        outcome=outcome,
        score=score,
        moves=moves,
        duration_ms=duration_ms,
    )
    text = share_text(result, site_url="https://ft.example")
    assert_spoiler_free(text)
    assert day.isoformat() in text and f"{score} pts" in text


def test_durations_read_as_a_clock() -> None:
    assert format_duration(0) == "0:00"
    assert format_duration(59_999) == "0:59"
    assert format_duration(60_000) == "1:00"
    assert format_duration(3_599_999) == "59:59"
    assert format_duration(3_600_000) == "1:00:00"
    assert format_duration(36_000_000 + 61_000) == "10:01:01"


# The /games/<id>/share/ view ------------------------------------------------------------------


@pytest.mark.django_db
def test_the_owner_gets_the_share_text_as_plain_text(
    user: User,
    bob: User,
    now: datetime,
    client: Client,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    game = services.game_start_daily(user=user, now=now)
    with django_capture_on_commit_callbacks(execute=True):
        for move in ("s", "s"):
            game_play(user=user, game_id=game.pk, move=move)
        game_resign(user=user, game_id=game.pk)
    game.refresh_from_db()
    url = reverse("leaderboards:share", args=[game.pk])
    assert client.get(url).status_code == 401
    client.force_login(bob)
    assert client.get(url).status_code == 403
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    text = response.content.decode()
    assert text == share_text(Result.objects.get(game=game), site_url="http://testserver")
    assert_spoiler_free(text, game.deal)


@pytest.mark.django_db
def test_share_is_refused_for_unfinished_pending_and_practice_games(
    user: User, now: datetime, client: Client, django_capture_on_commit_callbacks: Capture
) -> None:
    client.force_login(user)
    daily = services.game_start_daily(user=user, now=now)
    url = reverse("leaderboards:share", args=[daily.pk])
    assert client.get(url).status_code == 404  # still being played
    game_resign(user=user, game_id=daily.pk)  # no on-commit: not verified yet
    assert client.get(url).status_code == 409
    practice = services.game_start_practice(user=user, code="FT1-N-0000007")
    with django_capture_on_commit_callbacks(execute=True):
        game_resign(user=user, game_id=practice.pk)
    assert Result.objects.get(game=practice).status == Result.Status.VERIFIED
    response = client.get(reverse("leaderboards:share", args=[practice.pk]))
    assert response.status_code == 404 and b"daily" in response.content


@pytest.mark.django_db
def test_the_result_dialog_gets_the_share_text_and_the_rank_as_json(
    user: User, now: datetime, client: Client, django_capture_on_commit_callbacks: Capture
) -> None:
    game = services.game_start_daily(user=user, now=now)
    with django_capture_on_commit_callbacks(execute=True):
        game_play(user=user, game_id=game.pk, move="s")
        game_resign(user=user, game_id=game.pk)
    client.force_login(user)
    url = reverse("leaderboards:share", args=[game.pk])
    body = client.get(url, HTTP_ACCEPT="application/json").json()
    assert body["text"] == client.get(url).content.decode()
    # The day's only result, ranked once its verification committed.
    assert body["rank"] == 1 and body["size"] == 1
    practice = services.game_start_practice(user=user, code="FT1-N-0000007")
    refused = client.get(
        reverse("leaderboards:share", args=[practice.pk]), HTTP_ACCEPT="application/json"
    )
    assert refused.status_code == 404 and refused.json()["code"] == "not_found"


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("it", "Forty Thieves 2026-11-29 — vinta ✅ 1185 punti · 312 mosse · 18:42"),
        ("nl", "Forty Thieves 2026-11-29 — gewonnen ✅ 1185 ptn · 312 zetten · 18:42"),
        ("fi", "Forty Thieves 2026-11-29 — voitettu ✅ 1185 p · 312 siirtoa · 18:42"),
    ],
)
def test_the_share_text_is_in_the_players_language(language: str, expected: str) -> None:
    """The text is made in the sharer's language; the link carries none, so whoever opens
    it reads the board in their own (Accept-Language, or their account's choice)."""
    result = Result(
        day=date(2026, 11, 29),
        variant="forty-thieves",
        outcome="won",
        won=True,
        score=1185,
        moves=312,
        duration_ms=(18 * 60 + 42) * 1000,
    )
    with translation.override(language):
        first, link = share_text(result, site_url="https://ft.example").split("\n")
    assert first == expected
    assert link == "https://ft.example/boards/daily/2026-11-29/"
