"""``manage.py seed_scale``: a copy of the site at scale, built through the models."""

from __future__ import annotations

from collections import Counter
from datetime import date
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.models import Deal, Game, User
from leaderboards.models import Result
from leaderboards.ranking import sort_key
from leaderboards.selectors import board_for_day, period_board, period_board_size

pytestmark = pytest.mark.django_db


def seed(**options: object) -> str:
    out = StringIO()
    call_command("seed_scale", players=40, days=10, results=120, seed=3, stdout=out, **options)
    return out.getvalue()


def test_it_seeds_players_closed_dailies_and_ranked_results() -> None:
    assert "Seeded 40 players, 10 deals" in seed()
    assert User.objects.count() == 40
    deals = Deal.objects.filter(kind=Deal.Kind.DAILY)
    assert deals.count() == 10 and not deals.filter(revealed_at__isnull=True).exists()
    results = Result.objects.all()
    assert 60 <= results.count() <= 240
    assert results.count() == Game.objects.filter(mode=Game.Mode.RANKED).count()
    assert not results.exclude(status=Result.Status.VERIFIED, ranked=True).exists()
    for r in results[:20]:
        assert r.sort_key == sort_key(
            won=r.won, score=r.score, moves=r.moves, duration_ms=r.duration_ms
        )
        assert r.day == r.deal.day and r.game.player_id == r.player_id


def test_a_few_play_every_day_and_most_a_few_days() -> None:
    seed()
    per_player = Counter(Result.objects.values_list("player_id", flat=True))
    assert max(per_player.values()) == 10  # a regular
    few = sum(1 for n in per_player.values() if n <= 5)
    assert few > len(per_player) / 2


def test_the_seeded_copy_reads_as_boards() -> None:
    seed()
    day = Deal.objects.order_by("day").values_list("day", flat=True).first()
    assert isinstance(day, date)
    assert board_for_day(day=day, user=None).size > 0
    assert period_board(kind="all", start=None).rows
    assert period_board_size(kind="all", start=None) > 0


def test_it_refuses_a_database_with_users() -> None:
    User.objects.create(username="real")
    with pytest.raises(CommandError, match="refusing to seed"):
        seed()
    assert User.objects.count() == 1 and not Result.objects.exists()


def test_force_seeds_a_database_with_users() -> None:
    User.objects.create(username="real")
    seed(force=True)
    assert User.objects.count() == 41
