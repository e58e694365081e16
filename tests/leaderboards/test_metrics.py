"""The verification pipeline's pace as Prometheus reads it (leaderboards.metrics): the lag
from a ranked finish to its rank over recent results, and the backlog of games without a
verdict and verified ranked results not yet on their board."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from prometheus_client import CollectorRegistry

from games.models import Game
from leaderboards import selectors
from leaderboards.metrics import VerificationCollector
from leaderboards.models import Result

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 11, 29, 13, 0, tzinfo=UTC)


def ranked_after(make_result, seconds: float, *, ago: timedelta) -> Result:
    """A ranked result put on its board ``ago`` before NOW, ``seconds`` after its finish."""
    ranked_at = NOW - ago
    result = make_result(finished_at=ranked_at - timedelta(seconds=seconds))
    Result.objects.filter(pk=result.pk).update(ranked_at=ranked_at)
    return result


def test_the_lag_is_taken_over_the_recently_ranked_results_only(make_result) -> None:
    for seconds in (1, 2, 3, 4, 40):
        ranked_after(make_result, seconds, ago=timedelta(minutes=5))
    ranked_after(make_result, 900, ago=timedelta(hours=2))  # outside the window
    lag = selectors.verification_lag_recent(now=NOW, window=timedelta(minutes=15))
    assert (lag.count, lag.p50, lag.max) == (5, 3.0, 40.0)
    assert lag.p95 == 40.0


def test_no_ranked_result_is_no_lag(make_result) -> None:
    make_result(status=Result.Status.PENDING)
    lag = selectors.verification_lag_recent(now=NOW, window=timedelta(minutes=15))
    assert lag == selectors.Lag(0, 0.0, 0.0, 0.0)


def test_the_backlog_counts_what_waits_and_how_long(make_result) -> None:
    waiting = make_result(status=Result.Status.PENDING)
    Game.objects.filter(pk=waiting.game_id).update(finished_at=NOW - timedelta(minutes=3))
    done = ranked_after(make_result, 5, ago=timedelta(minutes=1))  # verdict and rank: done
    Game.objects.filter(pk=done.game_id).update(finished_at=NOW - timedelta(minutes=4))
    unranked = make_result()
    Result.objects.filter(pk=unranked.pk).update(verified_at=NOW - timedelta(seconds=30))
    held = make_result(review=Result.Review.HELD)  # off the board by design: not waiting
    Result.objects.filter(pk=held.pk).update(verified_at=NOW - timedelta(minutes=9))
    backlog = selectors.verification_backlog(now=NOW, since=timedelta(days=1))
    assert (backlog.unverified, backlog.unverified_oldest) == (1, 180.0)
    assert (backlog.unranked, backlog.unranked_oldest) == (1, 30.0)


def test_the_collector_exports_the_lag_and_the_backlog_by_name(make_result) -> None:
    registry = CollectorRegistry()
    registry.register(VerificationCollector())
    ranked_after(make_result, 2, ago=timedelta(seconds=10))  # ranked just now (real clock)
    names = {metric.name for metric in registry.collect()}
    assert {
        "ft_verification_lag_seconds",
        "ft_verification_ranked_recent",
        "ft_verification_unverified",
        "ft_verification_unverified_oldest_seconds",
        "ft_verification_unranked",
        "ft_verification_unranked_oldest_seconds",
    } <= names
    assert registry.get_sample_value("ft_database_up") == 1
