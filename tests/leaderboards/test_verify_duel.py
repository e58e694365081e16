"""A duel's games are verified by replay like any game, with the duel's clock: the
server's resign at the flag or at a forfeit stands, a player's action stamped from the
flag on, or a server's resign after it, is rejected."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import services
from games.engine.audit import Stamped, close_violation
from games.models import Action
from leaderboards.models import Result
from leaderboards.services import result_verify
from tests.games.duels.conftest import act, seat_game, start_duel

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def duel_settings(settings) -> None:
    settings.FT_DUEL_COUNTDOWN_SECONDS = 0
    settings.FT_DUEL_GRACE_SECONDS = 60


def test_a_forfeited_and_a_flagged_game_are_verified(user, bob, wall_clock) -> None:
    duel = start_duel(user, bob)
    services.duel_presence(duel_id=duel.pk, user_id=user.pk, delta=1)
    act(seat_game(duel, 0), move="s")
    wall_clock.shift(timedelta(seconds=61))
    services.duel_tick(duel_id=duel.pk)  # bob never came: he forfeits now
    wall_clock.shift(timedelta(seconds=600))
    services.duel_tick(duel_id=duel.pk)  # ada's game ends at the flag
    statuses = dict(Result.objects.values_list("player__username", "status"))
    assert statuses == {"ada": "verified", "bob": "verified"}


def test_a_player_action_after_the_flag_is_rejected(user, bob) -> None:
    duel = start_duel(user, bob)
    game = seat_game(duel, 0)
    act(game, move="s")
    act(game, kind="resign")
    Action.objects.filter(game=game, seq=1).update(created_at=duel.ends_at + timedelta(seconds=1))
    Result.objects.filter(game=game).delete()
    assert result_verify(game_id=game.pk).status == Result.Status.REJECTED


def test_the_close_rule_of_a_duel_takes_an_early_server_resign_only() -> None:
    from datetime import UTC, datetime

    flag = datetime(2026, 12, 2, 12, 10, tzinfo=UTC)
    early = [Stamped(1, "s", flag - timedelta(minutes=5), False)]
    early.append(Stamped(2, "resign", flag - timedelta(minutes=1), True))
    assert close_violation(early, closes_at=flag, early_resign=True) is None
    assert close_violation(early, closes_at=flag) is not None  # a daily's rule: at the close
    late = [Stamped(1, "resign", flag + timedelta(seconds=1), True)]
    assert close_violation(late, closes_at=flag, early_resign=True) is not None
