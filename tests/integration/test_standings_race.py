"""Two refreshes of one player's period standings at once, on PostgreSQL's row locks: the
one that read first must not write last with what it read (issue 37's standings)."""

from __future__ import annotations

import itertools
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import date, timedelta
from typing import Any

import pytest
from django.db import connection

from games.daily import day_start
from games.models import Game, User
from games.services import deal_open_daily
from leaderboards.models import PeriodStanding, Result
from leaderboards.standings import services
from leaderboards.standings.services import result_standings_refresh, standings_rebuild

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

FIRST = date(2026, 10, 5)  # a Monday: the six days share a week and a month


def won_day(player: User, day: date) -> Result:
    deal = deal_open_daily(day=day)
    game = Game.objects.create(player=player, deal=deal, mode=Game.Mode.RANKED, status="won")
    result = Result.objects.create(
        game=game, player=player, deal=deal, day=day, variant=deal.variant, ranked=True,
        status=Result.Status.VERIFIED, outcome="won", won=True, score=1200, moves=200,
        duration_ms=60_000, finished_at=day_start(day) + timedelta(hours=2),
    )  # fmt: skip
    result_standings_refresh(result=result)
    return result


def table() -> list[tuple]:
    return sorted(
        PeriodStanding.objects.values_list("player_id", "kind", "start", "games", "wins", "rate")
    )


def test_a_refresh_that_read_first_never_writes_last_with_what_it_read(monkeypatch) -> None:
    player = User.objects.create_user(username="racer")
    first, second, *_rest = [won_day(player, FIRST + timedelta(days=n)) for n in range(6)]
    # The first refresh to read sleeps between its read and its write, long enough for the
    # second change to commit and be refreshed meanwhile, were nothing to stop it.
    real, calls, lock = services.period_totals, itertools.count(), threading.Lock()

    def slow_after_reading(*args: Any, **kwargs: Any) -> Any:
        totals = real(*args, **kwargs)
        with lock:
            call = next(calls)
        time.sleep(0.4 if call == 0 else 0)
        return totals

    monkeypatch.setattr(services, "period_totals", slow_after_reading)

    def hold(result: Result, delay: float) -> None:
        try:
            time.sleep(delay)
            Result.objects.filter(pk=result.pk).update(review=Result.Review.HELD)
            result.review = Result.Review.HELD
            result_standings_refresh(result=result)
        finally:
            connection.close()

    with ThreadPoolExecutor(2) as pool:
        done = [pool.submit(hold, first, 0.0), pool.submit(hold, second, 0.15)]
        for future in done:
            future.result()
    monkeypatch.setattr(services, "period_totals", real)
    week = PeriodStanding.objects.get(player=player, kind="week")
    assert (week.games, week.wins, week.best_streak) == (4, 4, 4)
    kept = table()
    standings_rebuild()
    assert table() == kept
