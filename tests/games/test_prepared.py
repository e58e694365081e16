"""A row read by :class:`games.prepared.RowByPk` (its SQL compiled once) is the row the
ORM reads, its select_related objects included, every time; and a key no row has is
``None``."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db.models import Model

from games import services
from games.access import GAME_ROW
from games.models import Game, User
from games.runtime.live import _log_of

from .conftest import practice_game

pytestmark = pytest.mark.django_db


def _fields(obj: Model) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_it_reads_the_game_deal_and_player_the_orm_reads(user: User, bob: User, now) -> None:
    games = [practice_game(user), services.game_start_daily(user=bob, now=now)]
    for game in games * 2:  # the second round runs the SQL compiled in the first
        expected = Game.objects.select_related("deal", "player").get(pk=game.pk)
        got = GAME_ROW.get(game.pk)
        assert got is not None and got._state.adding is False and got._state.db == "default"
        assert _fields(got) == _fields(expected)
        assert _fields(got.deal) == _fields(expected.deal)
        assert _fields(got.player) == _fields(expected.player)
        assert got.player.public_name == expected.player.public_name


def test_it_reads_none_for_a_key_no_game_has(user: User) -> None:
    practice_game(user)
    assert GAME_ROW.get(uuid.uuid4()) is None


def test_the_log_read_is_the_orm_log_up_to_the_version(user: User) -> None:
    game = practice_game(user)
    for n, move in enumerate(["s", "s", "s"]):
        services.game_act(
            user=user, game_id=game.pk, kind="move", move=move, client_id=f"c{n}", version=n
        )
    assert _log_of(game.pk, upto=2) == [("s", "c0"), ("s", "c1")]
    assert _log_of(game.pk, upto=3) == list(
        game.actions.order_by("seq").values_list("move", "client_id")
    )
