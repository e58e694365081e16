"""A finished arena on its players' scorecards: the final place and points, linked to the
arena's table, and the winner's badge (first place with points; ties share it)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.arenas.models import ArenaEntry
from tests.games.arenas.conftest import act, game_of

pytestmark = pytest.mark.django_db(transaction=True)


def _finish(arena, wall_clock) -> None:
    wall_clock.shift(timedelta(minutes=16))
    services.arena_sweep()
    services.arena_sweep()
    arena.refresh_from_db()
    assert arena.finished_at is not None


def test_the_winner_has_a_badge_and_both_link_to_the_final_table(
    arena, user, bob, reserve_deal, classic_win, wall_clock
) -> None:
    reserve_deal()
    for player in (user, bob):
        services.arena_join(user=player, arena_id=arena.pk)
    services.arena_round_open(arena=arena, number=1)
    for move in classic_win[1]:
        act(game_of(arena, 1, user), move=move)
    act(game_of(arena, 1, bob), move="s")
    _finish(arena, wall_clock)
    assert ArenaEntry.objects.get(player=user).points == 15
    ada = Client().get(reverse("leaderboards:scorecard", args=[user.username])).content.decode()
    section = ada.split('data-testid="scorecard-arenas"')[1].split("</section>")[0]
    assert reverse("arena", args=[arena.pk]) in section
    assert 'data-testid="arena-winner-badge"' in section
    assert 'data-testid="arena-wins">1<' in section
    theirs = Client().get(reverse("leaderboards:scorecard", args=["bob"])).content.decode()
    section = theirs.split('data-testid="scorecard-arenas"')[1].split("</section>")[0]
    assert reverse("arena", args=[arena.pk]) in section
    assert 'data-testid="arena-winner-badge"' not in section


def test_a_table_of_zeros_has_no_winner_and_an_unplayed_arena_is_not_listed(
    arena, user, bob, wall_clock
) -> None:
    for player in (user, bob):
        services.arena_join(user=player, arena_id=arena.pk)
    services.arena_round_open(arena=arena, number=1)
    act(game_of(arena, 1, user), move="s")  # bob never moves
    _finish(arena, wall_clock)
    ada = Client().get(reverse("leaderboards:scorecard", args=[user.username])).content.decode()
    section = ada.split('data-testid="scorecard-arenas"')[1].split("</section>")[0]
    assert 'data-testid="arena-winner-badge"' not in section  # alone in the round: 0 points
    theirs = Client().get(reverse("leaderboards:scorecard", args=["bob"])).content.decode()
    assert 'data-testid="scorecard-arenas"' not in theirs
