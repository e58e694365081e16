"""The Celery entry points (run eagerly in the tests) over the leaderboards services."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games import services as game_services
from games.models import Game, User
from leaderboards import tasks
from leaderboards.boards import board_for
from leaderboards.models import Result
from tests.support.games import game_play, game_resign

pytestmark = pytest.mark.django_db

Capture = Callable[..., object]


def finished_ranked(user: User, now: datetime, *, draws: int = 2) -> Game:
    """A ranked daily game played and resigned; its on-commit verification never runs."""
    game = game_services.game_start_daily(user=user, now=now)
    for _ in range(draws):
        game_play(user=user, game_id=game.pk, move="s")
    game_resign(user=user, game_id=game.pk)
    game.refresh_from_db()
    return game


def age(game: Game, minutes: int = 5) -> None:
    """As if the game had finished ``minutes`` ago."""
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.now() - timedelta(minutes=minutes))


def test_verify_game_returns_the_status(user: User, now: datetime) -> None:
    game = finished_ranked(user, now)
    assert tasks.verify_game.delay(str(game.pk)).get() == "verified"
    assert Result.objects.get(game=game).status == "verified"
    # Redelivered: nothing changes.
    verified_at = Result.objects.get(game=game).verified_at
    assert tasks.verify_game.delay(str(game.pk)).get() == "verified"
    assert Result.objects.get(game=game).verified_at == verified_at
    assert Result.objects.count() == 1


def test_verify_game_returns_rejected_for_a_forged_log(user: User, now: datetime) -> None:
    game = finished_ranked(user, now)
    Game.objects.filter(pk=game.pk).update(score=40)
    assert tasks.verify_game.delay(str(game.pk)).get() == "rejected"


def test_verify_game_returns_none_for_an_unfinished_game(user: User, now: datetime) -> None:
    game = game_services.game_start_daily(user=user, now=now)
    assert tasks.verify_game.delay(str(game.pk)).get() is None
    assert not Result.objects.exists()


def test_rank_result_ranks_once(user: User, now: datetime) -> None:
    game = finished_ranked(user, now)
    tasks.verify_game.delay(str(game.pk))  # its on-commit ranking does not run here
    result = Result.objects.get(game=game)
    assert tasks.rank_result.delay(result.pk).get() is True
    assert tasks.rank_result.delay(result.pk).get() is False
    assert board_for(now.date(), "forty-thieves").rank(result) == 1


def test_finishing_a_game_enqueues_its_verification(
    user: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    game = game_services.game_start_daily(user=user, now=now)
    with django_capture_on_commit_callbacks(execute=True):
        game_resign(user=user, game_id=game.pk)
    result = Result.objects.get(game=game)
    assert result.status == "verified" and result.ranked_at is not None


def test_the_sweep_verifies_and_ranks_what_was_left_undone(
    user: User, bob: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    lost_message = finished_ranked(user, now)
    age(lost_message)
    # bob's game was verified, but the ranking after the commit never happened.
    unranked_game = finished_ranked(bob, now, draws=3)
    tasks.verify_game.delay(str(unranked_game.pk))
    Result.objects.filter(game=unranked_game).update(
        verified_at=timezone.now() - timedelta(minutes=5)
    )
    assert not Result.objects.filter(game=lost_message).exists()

    with django_capture_on_commit_callbacks(execute=True):
        counts = tasks.sweep.delay().get()
    assert counts == {"games": 1, "results": 1, "day_files": 0, "duels": 0}
    swept = Result.objects.get(game=lost_message)
    assert swept.status == "verified" and swept.ranked_at is not None
    assert Result.objects.get(game=unranked_game).ranked_at is not None
    board = board_for(now.date(), "forty-thieves")
    assert board.size() == 2

    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.sweep() == {"games": 0, "results": 0, "day_files": 0, "duels": 0}


def test_the_sweep_leaves_fresh_work_alone(user: User, now: datetime) -> None:
    finished_ranked(user, now)  # finished just now: its own message may still come
    assert tasks.sweep() == {"games": 0, "results": 0, "day_files": 0, "duels": 0}
    assert not Result.objects.exists()


def test_the_sweep_rejects_a_forged_game_it_finds(user: User, now: datetime) -> None:
    game = finished_ranked(user, now)
    age(game)
    Game.objects.filter(pk=game.pk).update(moves=99)
    assert tasks.sweep() == {"games": 1, "results": 0, "day_files": 0, "duels": 0}
    result = Result.objects.get(game=game)
    assert result.status == "rejected" and "move count 99" in result.reason
    assert tasks.sweep() == {"games": 0, "results": 0, "day_files": 0, "duels": 0}


def test_a_verification_of_something_that_is_not_a_game_id_does_nothing(db: None) -> None:
    from leaderboards.models import Result
    from leaderboards.services import result_verify

    assert result_verify(game_id="not-a-uuid") is None
    assert not Result.objects.exists()
