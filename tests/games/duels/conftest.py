"""Fixtures of the duel tests (the reserve deal of a known line is tests/conftest.py's):
the duel's settings for tests (no countdown), a started duel between ada and bob, and linking two
accounts as fair play would (a shared device cookie)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.duels.models import Duel, DuelSeat
from games.models import Game, Sighting, User


@pytest.fixture(autouse=True)
def duel_settings(settings) -> None:
    """The clock starts at the pairing (no countdown) in the unit tier."""
    settings.FT_DUEL_COUNTDOWN_SECONDS = 0
    settings.FT_DUEL_GRACE_SECONDS = 60


def start_duel(challenger: User, friend: User, now: datetime | None = None) -> Duel:
    """A duel by link: ``challenger`` makes it, ``friend`` accepts; started."""
    duel, token = services.duel_challenge_create(user=challenger, now=now)
    return services.duel_challenge_accept(user=friend, token=token, now=now)


def seat_game(duel: Duel, seat: int) -> Game:
    game = DuelSeat.objects.select_related("game__player").get(duel=duel, seat=seat).game
    assert game is not None
    return game


def act(game: Game, kind: str = "move", move: str | None = None, **extra: Any) -> Any:
    return services.game_act(user=game.player, game_id=game.pk, kind=kind, move=move, **extra)


def link_accounts(a: User, b: User, kind: str = "device") -> None:
    """Two accounts seen on one browser (what fair play's sightings record)."""
    now = timezone.now()
    for user in (a, b):
        Sighting.objects.create(
            user=user, kind=kind, digest="d" * 64, first_seen=now, last_seen=now
        )
