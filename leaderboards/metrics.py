"""The verification pipeline's pace for the operator, read from the database when
Prometheus scrapes (not counted in the workers: a Celery worker's pool children would each
hold their own counts, and a scrape target per child is no way to watch a queue).

Every web process exports the same numbers (each asks the database); query them with
``max without (instance)``. See docs/operations.md for what they mean and when to worry.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import timedelta

from django.db import close_old_connections, connection
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from leaderboards import selectors

logger = logging.getLogger(__name__)

DATABASE_UP = "Whether the database answered this scrape's questions (1) or not (0)"
LAG_WINDOW = timedelta(minutes=15)
BACKLOG_SINCE = timedelta(days=1)


class VerificationCollector(Collector):
    """``ft_verification_lag_seconds`` (a ranked finish to its rank, recent results) and
    the pipeline's backlog. A database that does not answer costs these numbers only
    (``ft_database_up 0``), never the rest of the scrape."""

    def describe(self) -> Iterator[GaugeMetricFamily]:
        """The names, without asking the database (registering calls this)."""
        yield GaugeMetricFamily("ft_database_up", "")
        yield from _lag_families(selectors.Lag(0, 0.0, 0.0, 0.0))
        yield from _backlog_families(selectors.Backlog(0, 0.0, 0, 0.0))

    def collect(self) -> Iterator[GaugeMetricFamily]:
        try:
            close_old_connections()
            now = timezone.now()
            lag = selectors.verification_lag_recent(now=now, window=LAG_WINDOW)
            backlog = selectors.verification_backlog(now=now, since=BACKLOG_SINCE)
        except Exception:
            logger.warning("metrics: the database did not answer", exc_info=True)
            yield GaugeMetricFamily("ft_database_up", DATABASE_UP, value=0)
            return
        finally:
            connection.close()  # the scrape thread's own; nothing keeps it between scrapes
        yield GaugeMetricFamily("ft_database_up", DATABASE_UP, value=1)
        yield from _lag_families(lag)
        yield from _backlog_families(backlog)


def _lag_families(lag: selectors.Lag) -> Iterator[GaugeMetricFamily]:
    family = GaugeMetricFamily(
        "ft_verification_lag_seconds",
        "From a ranked finish to its result on the board, over results ranked in the last"
        " 15 minutes (quantile 1 is the slowest)",
        labels=["quantile"],
    )
    for quantile, value in (("0.5", lag.p50), ("0.95", lag.p95), ("1", lag.max)):
        family.add_metric([quantile], value)
    yield family
    yield GaugeMetricFamily(
        "ft_verification_ranked_recent",
        "Ranked results put on a board in the last 15 minutes",
        value=lag.count,
    )


def _backlog_families(backlog: selectors.Backlog) -> Iterator[GaugeMetricFamily]:
    yield GaugeMetricFamily(
        "ft_verification_unverified",
        "Games finished in the last day without a verdict (verified or rejected) yet",
        value=backlog.unverified,
    )
    yield GaugeMetricFamily(
        "ft_verification_unverified_oldest_seconds",
        "Age of the oldest finished game waiting for its verdict (0: none waits)",
        value=backlog.unverified_oldest,
    )
    yield GaugeMetricFamily(
        "ft_verification_unranked",
        "Verified ranked results (not held) not yet on their board",
        value=backlog.unranked,
    )
    yield GaugeMetricFamily(
        "ft_verification_unranked_oldest_seconds",
        "Age of the oldest verified ranked result waiting for its board (0: none waits)",
        value=backlog.unranked_oldest,
    )
