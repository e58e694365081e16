"""A ranked result's time comes from the log's own server stamps, never from the game row
(issue 19, C): shortening ``first_action_at`` in the database once put 0:01 on the board."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games import services as game_services
from games.models import Action, Game, User
from leaderboards import services
from leaderboards.boards import board_for
from tests.support.games import game_resign, play_all

pytestmark = pytest.mark.django_db

Capture = Callable[..., object]


def ranked_resigned(user: User, now: datetime, started_ago: timedelta) -> Game:
    """A ranked daily game whose first action the log stamps ``started_ago`` (not verified)."""
    game = game_services.game_start_daily(user=user, now=now)
    play_all(user, game, ["s", "s", "s"])
    first = (timezone.now() - started_ago).replace(microsecond=0)
    Action.objects.filter(game=game, seq=1).update(created_at=first)
    game_resign(user=user, game_id=game.pk)
    game.refresh_from_db()
    return game


def test_shortening_the_game_rows_times_does_not_change_the_verified_time(
    user: User, now: datetime
) -> None:
    game = ranked_resigned(user, now, started_ago=timedelta(minutes=10))
    Game.objects.filter(pk=game.pk).update(
        first_action_at=game.finished_at - timedelta(seconds=1),
        created_at=game.finished_at - timedelta(seconds=1),
    )
    result = services.result_verify(game_id=game.pk)
    assert result.status == "verified", result.reason
    assert 10 * 60_000 <= result.duration_ms < 11 * 60_000
    last = Action.objects.filter(game=game).order_by("-seq").first()
    assert result.finished_at == last.created_at


def test_moving_the_game_rows_finish_does_not_move_the_result(user: User, now: datetime) -> None:
    game = ranked_resigned(user, now, started_ago=timedelta(minutes=2))
    last = Action.objects.filter(game=game).order_by("-seq").first()
    Game.objects.filter(pk=game.pk).update(finished_at=last.created_at - timedelta(minutes=1))
    result = services.result_verify(game_id=game.pk)
    assert result.finished_at == last.created_at
    assert 2 * 60_000 <= result.duration_ms < 3 * 60_000


def test_a_tampered_row_does_not_lift_a_slower_game_above_a_faster_one(
    user: User, bob: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    slow = ranked_resigned(user, now, started_ago=timedelta(minutes=30))
    fast = ranked_resigned(bob, now, started_ago=timedelta(minutes=3))
    # The slow game's row now claims a one-second game.
    Game.objects.filter(pk=slow.pk).update(first_action_at=slow.finished_at - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        slow_result = services.result_verify(game_id=slow.pk)
        fast_result = services.result_verify(game_id=fast.pk)
    board = board_for(now.date(), "forty-thieves")
    assert board.rank(fast_result) == 1 and board.rank(slow_result) == 2
    assert slow_result.duration_ms >= 30 * 60_000


def test_an_unranked_games_time_comes_from_its_log_too(user: User) -> None:
    game = game_services.game_start_practice(user=user, code="FT1-N-0000007")
    play_all(user, game, ["s", "s"])
    first = (timezone.now() - timedelta(hours=1)).replace(microsecond=0)
    Action.objects.filter(game=game, seq=1).update(created_at=first)
    game_resign(user=user, game_id=game.pk)
    Game.objects.filter(pk=game.pk).update(first_action_at=timezone.now())
    result = services.result_verify(game_id=game.pk)
    assert result.status == "verified", result.reason
    assert 60 * 60_000 <= result.duration_ms < 61 * 60_000
