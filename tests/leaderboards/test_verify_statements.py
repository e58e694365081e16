"""The statements one ranked verification costs (issue 37): the player's sightings read
once for both kinds of linked account, and the standings' refresh without a savepoint of
its own inside the ranking's transaction. A bound, so a change that adds a statement a
result is seen."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services as game_services
from games.models import Action, Deal, User
from leaderboards.models import Result
from leaderboards.services import result_verify
from leaderboards.standings.models import PeriodStanding
from tests.support.games import game_resign, play_all

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


def test_a_ranked_verification_costs_at_most_fifteen_statements(
    now: datetime,
    make_daily_deal: Callable[..., Deal],
    django_capture_on_commit_callbacks: Capture,
) -> None:
    make_daily_deal(now.date(), revealed=False)
    player = User.objects.create_user(username="paced", password="x" * 12)
    game = game_services.game_start_daily(user=player, now=now)
    play_all(player, game, ["s"] * 10)
    game_resign(user=player, game_id=game.pk)
    # A person's pace (the pace check would hold a log stamped all at once).
    for n, pk in enumerate(Action.objects.filter(game=game).order_by("seq").values_list("pk")):
        at = now - timedelta(seconds=300 - 3 * n - n % 3)
        Action.objects.filter(pk=pk[0]).update(created_at=at)
    Result.objects.filter(game=game).delete()

    # Outside the on-commit capture: the ranking that runs on commit is counted too.
    with (
        CaptureQueriesContext(connection) as seen,
        django_capture_on_commit_callbacks(execute=True),
    ):
        result = result_verify(game_id=game.pk)

    assert result is not None and result.status == Result.Status.VERIFIED
    result.refresh_from_db()
    assert result.ranked_at is not None and PeriodStanding.objects.filter(player=player).exists()
    statements = [q["sql"] for q in seen.captured_queries]
    assert sum('FROM "games_sighting" WHERE' in s and "user_id" in s for s in statements) == 1
    assert len(statements) <= 15, "\n".join(statements)
