"""Verification refuses a ranked log with a player action stamped after the deal's close.

The play service refuses such actions (tests/games/test_day_close.py); verification is the
second line, for anything that got into the log some other way (attack 1 of issue 10).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

from games import services as game_services
from games.models import Action, Game, User
from games.services import deals as deal_services
from leaderboards import services
from leaderboards.boards import board_for
from leaderboards.models import Result
from tests.support.games import game_play, game_resign

pytestmark = pytest.mark.django_db

Capture = Callable[..., object]


def ranked_finished(user: User, now: datetime, moves: list[str]) -> Game:
    game = game_services.game_start_daily(user=user, now=now)
    for move in moves:
        game_play(user=user, game_id=game.pk, move=move)
    game_resign(user=user, game_id=game.pk)
    game.refresh_from_db()
    return game


def test_it_rejects_a_ranked_log_with_a_player_action_after_the_close(
    user: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    game = ranked_finished(user, now, ["s", "s"])
    late = game.deal.closes_at + timedelta(seconds=10)
    Action.objects.filter(game=game, seq__gte=2).update(created_at=late)
    with django_capture_on_commit_callbacks(execute=True):
        result = services.result_verify(game_id=game.pk)
    assert result.status == "rejected" and result.ranked_at is None
    assert "action 2 ('s') was played at" in result.reason
    assert "after the deal closed" in result.reason
    assert board_for(now.date(), "forty-thieves").rank(result) is None


def test_the_servers_own_resign_is_stamped_with_the_close_and_verified(
    user: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    game = game_services.game_start_daily(user=user, now=now)
    game_play(user=user, game_id=game.pk, move="s")
    with django_capture_on_commit_callbacks(execute=True):
        # The close ran late ("tomorrow"): its resign is still stamped with the close.
        deal_services.deal_close_daily(day=now.date(), now=now + timedelta(days=1))
    resign = Action.objects.get(game=game, by_system=True)
    assert (resign.move, resign.created_at) == ("resign", game.deal.closes_at)
    result = Result.objects.get(game=game)
    assert result.status == "verified", result.reason
    assert result.outcome == "resigned" and result.finished_at == game.deal.closes_at


def closed_by_the_server(user: User, now: datetime) -> Game:
    """A ranked game the close resigned (not verified yet)."""
    game = game_services.game_start_daily(user=user, now=now)
    game_play(user=user, game_id=game.pk, move="s")
    deal_services.deal_close_daily(day=now.date(), now=now + timedelta(days=1))
    game.refresh_from_db()
    return game


@pytest.mark.parametrize(
    "shift",
    [timedelta(seconds=30), timedelta(hours=5), -timedelta(minutes=1), timedelta(milliseconds=1)],
    ids=["30s-after", "5h-after", "1min-before", "1ms-after"],
)
def test_it_rejects_a_server_resign_stamped_at_any_time_but_the_close(
    user: User, now: datetime, shift: timedelta
) -> None:
    game = closed_by_the_server(user, now)
    at = game.deal.closes_at + shift
    Action.objects.filter(game=game, by_system=True).update(created_at=at)
    result = services.result_verify(game_id=game.pk)
    assert result.status == "rejected" and result.ranked_at is None
    assert "marked as the server's close-of-day resign but stamped" in result.reason
    assert "not at the close" in result.reason


@pytest.mark.parametrize("late", [False, True], ids=["before-the-close", "after-the-close"])
def test_it_rejects_a_move_marked_as_the_servers_own(
    user: User, now: datetime, late: bool, django_capture_on_commit_callbacks: Capture
) -> None:
    """A player's move flagged ``by_system`` (with a stamp before the close, or a late one
    that the exemption would otherwise have let through) is not the server's."""
    game = ranked_finished(user, now, ["s", "s"])
    at = game.deal.closes_at + timedelta(minutes=3) if late else None
    forged = Action.objects.filter(game=game, seq=2)
    forged.update(by_system=True, **({"created_at": at} if late else {}))
    with django_capture_on_commit_callbacks(execute=True):
        result = services.result_verify(game_id=game.pk)
    assert result.status == "rejected" and result.ranked_at is None
    assert "action 2 ('s') is marked as the server's own" in result.reason
    assert "only ever writes the resign at the close" in result.reason
    assert board_for(now.date(), "forty-thieves").rank(result) is None


def test_it_rejects_a_player_resign_marked_as_the_servers_before_the_close(
    user: User, now: datetime
) -> None:
    game = ranked_finished(user, now, ["s"])
    Action.objects.filter(game=game, move="resign").update(by_system=True)
    result = services.result_verify(game_id=game.pk)
    assert result.status == "rejected"
    assert "marked as the server's close-of-day resign but stamped" in result.reason


def test_a_practice_game_of_a_closed_daily_is_never_late(user: User, now: datetime) -> None:
    ranked = ranked_finished(user, now, ["s"])
    deal_services.deal_close_daily(day=now.date(), now=now + timedelta(days=1))
    practice = game_services.game_start_practice(user=user, deal_id=ranked.deal_id)
    game_resign(user=user, game_id=practice.pk)  # verification not run yet
    Action.objects.filter(game=practice).update(
        created_at=ranked.deal.closes_at + timedelta(hours=1)
    )
    assert services.result_verify(game_id=practice.pk).status == "verified"
