"""Fixtures of the arena tests: no countdown at a round's open, an arena starting now
(the pinned wall clock) of three five-minute rounds, and a move in an entrant's game."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.arenas.models import Arena, ArenaPlay
from games.models import Game, User


@pytest.fixture(autouse=True)
def arena_settings(settings) -> None:
    """A round's clock starts at its open (no countdown); the site's schedule is off
    unless a test turns it on."""
    settings.FT_DUEL_COUNTDOWN_SECONDS = 0
    settings.FT_ARENA_EVERY_MINUTES = 0
    settings.FT_ARENA_LEAD_SECONDS = 30


@pytest.fixture
def arena(db, wall_clock) -> Arena:
    """An arena from now, 15 minutes in rounds of 5."""
    return services.arena_create(starts_at=timezone.now(), minutes=15, round_minutes=5)


def play_of(arena: Arena, number: int, user: User) -> ArenaPlay:
    return ArenaPlay.objects.select_related("game__player", "round").get(
        round__arena=arena, round__number=number, entry__player=user
    )


def game_of(arena: Arena, number: int, user: User) -> Game:
    return play_of(arena, number, user).game


def act(game: Game, kind: str = "move", move: str | None = None, **extra: Any) -> Any:
    return services.game_act(user=game.player, game_id=game.pk, kind=kind, move=move, **extra)
