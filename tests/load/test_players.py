"""``load.players.stock_turned`` gives a storm's games a log their hello must read and
replay: a legal one, the row at its version, as a player's turns would leave it."""

from __future__ import annotations

import pytest

from games import services
from games.access import GAME_ROW
from games.models import Action, User
from games.runtime import live
from load.players import stock_turned

pytestmark = pytest.mark.django_db


def test_the_games_get_a_legal_log_of_stock_turns(user: User, bob: User) -> None:
    games = [services.game_start_practice(user=person) for person in (user, bob)]
    stock_turned([str(g.pk) for g in games], 5)
    for game in games:
        row = GAME_ROW.get(game.pk)
        assert row is not None and row.version == 5 and row.moves == 5
        log = list(Action.objects.filter(game=game).order_by("seq").values_list("seq", "move"))
        assert log == [(n, "s") for n in range(1, 6)]
        live.live_clear()
        engine = live.engine_for(row)  # the log replays: every turn was legal
        assert engine.view()["stock"] == 64 - 5 and engine.moves == 5


def test_no_turns_leave_the_games_new(user: User) -> None:
    game = services.game_start_practice(user=user)
    stock_turned([str(game.pk)], 0)
    assert not Action.objects.filter(game=game).exists()
