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

pytestmark = pytest.mark.django_db

Capture = Callable[..., object]


def ranked_finished(user: User, now: datetime, moves: list[str]) -> Game:
    game = game_services.game_start_daily(user=user, now=now)
    for move in moves:
        game_services.game_play(user=user, game_id=game.pk, move=move)
    game_services.game_resign(user=user, game_id=game.pk)
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


def test_the_servers_own_resign_at_the_close_is_not_late(
    user: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    game = game_services.game_start_daily(user=user, now=now)
    game_services.game_play(user=user, game_id=game.pk, move="s")
    with django_capture_on_commit_callbacks(execute=True):
        deal_services.deal_close_daily(day=now.date(), now=now + timedelta(days=1))
    # The close ran "tomorrow": stamp the server's resign as the close itself would.
    Action.objects.filter(game=game, by_system=True).update(
        created_at=game.deal.closes_at + timedelta(seconds=30)
    )
    result = services.result_verify(game_id=game.pk)
    assert result.status == "verified", result.reason
    assert result.outcome == "resigned"


def test_a_practice_game_of_a_closed_daily_is_never_late(user: User, now: datetime) -> None:
    ranked = ranked_finished(user, now, ["s"])
    deal_services.deal_close_daily(day=now.date(), now=now + timedelta(days=1))
    practice = game_services.game_start_practice(user=user, deal_id=ranked.deal_id)
    game_services.game_resign(user=user, game_id=practice.pk)  # verification not run yet
    Action.objects.filter(game=practice).update(
        created_at=ranked.deal.closes_at + timedelta(hours=1)
    )
    assert services.result_verify(game_id=practice.pk).status == "verified"
