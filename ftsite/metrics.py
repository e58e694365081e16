"""The Prometheus endpoint of a web process (prometheus_client), on a port of its own.

Why a separate port rather than a URL of the site: the proxy forwards only the site's
port, and compose.yaml publishes none of the web processes' ports, so nothing outside the
host's container network can reach it; no token to leak or rotate; and it answers from a
thread of its own, outside Django's request path (no ALLOWED_HOSTS, throttles or session
middleware, and a scrape still gets an answer while the event loop is slow, which is when
it matters). ``FT_METRICS_PORT=0`` (the default) serves nothing.

Each daphne process is one scrape target (compose.yaml's prometheus scrapes web1 and web2
on this port): counters are per process, and Prometheus sums them. What the numbers mean:
docs/operations.md.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator

from django.conf import settings
from prometheus_client import REGISTRY, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from ftsite.allocator import ALLOCATOR

logger = logging.getLogger(__name__)

BROKER_UP = "Whether the Celery broker (Redis) answered this scrape (1) or not (0)"
QUEUE_DEPTH = "Messages waiting in a Celery queue"

_lock = threading.Lock()
_started: tuple[object, threading.Thread] | None = None


class QueueCollector(Collector):
    """``ft_celery_queue_depth``: messages waiting in each Celery queue (a Redis list under
    the queue's name on the broker), asked when Prometheus scrapes."""

    def describe(self) -> Iterator[GaugeMetricFamily]:
        """The names, without asking the broker (registering calls this)."""
        yield GaugeMetricFamily("ft_broker_up", BROKER_UP)
        yield GaugeMetricFamily("ft_celery_queue_depth", QUEUE_DEPTH, labels=["queue"])

    def collect(self) -> Iterator[GaugeMetricFamily]:
        import redis

        depth = GaugeMetricFamily("ft_celery_queue_depth", QUEUE_DEPTH, labels=["queue"])
        try:
            client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=2)
            try:
                for queue in celery_queues():
                    depth.add_metric([queue], client.llen(queue))
            finally:
                client.close()
        except redis.RedisError:
            logger.warning("metrics: the broker did not answer", exc_info=True)
            yield GaugeMetricFamily("ft_broker_up", BROKER_UP, value=0)
            return
        yield GaugeMetricFamily("ft_broker_up", BROKER_UP, value=1)
        yield depth


class PoolCollector(Collector):
    """``ft_db_pool_*``: this process's database connection pool (``ftsite.dbpool``), as
    psycopg's pool counts it when Prometheus scrapes: connections open and idle against
    the ceiling, threads waiting for one, and since the start the waits that timed out
    (each a busy 503, or a socket's ``server_error``) and the time spent waiting."""

    def describe(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        yield from self._families({})

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        from django.db import connections

        pool = getattr(connections["default"], "pool", None)
        yield from self._families(pool.get_stats() if pool is not None else {})

    def _families(self, stats: dict[str, int]) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        def gauge(name: str, text: str, key: str) -> GaugeMetricFamily:
            return GaugeMetricFamily(name, text, value=stats.get(key, 0))

        yield gauge("ft_db_pool_max", "The most connections this process may hold", "pool_max")
        yield gauge("ft_db_pool_open", "Database connections this process holds", "pool_size")
        yield gauge("ft_db_pool_idle", "Of those, idle in the pool", "pool_available")
        yield gauge("ft_db_pool_waiting", "Threads waiting for a connection", "requests_waiting")
        yield CounterMetricFamily(
            "ft_db_pool_timeouts",
            "Waits for a connection that timed out (busy 503s)",
            value=stats.get("requests_errors", 0),
        )
        yield CounterMetricFamily(
            "ft_db_pool_wait_seconds",
            "Time threads spent waiting for a connection",
            value=stats.get("requests_wait_ms", 0) / 1000,
        )


class AllocatorCollector(Collector):
    """``ft_allocator``: 1 for the C allocator this process runs on (``ftsite.allocator``:
    jemalloc as compose.yaml's socket processes run, glibc where the preload is missing)
    and where Python's objects come from (``pymalloc`` or ``malloc``)."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "ft_allocator", "The process's C allocator and Python's", labels=["c", "objects"]
        )
        family.add_metric([ALLOCATOR.name, ALLOCATOR.objects], 1)
        yield family


def celery_queues() -> list[str]:
    """Every queue a task is routed to, and the default one (``celery``)."""
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    return sorted(routed | {"celery"})


def metrics_serve() -> int | None:
    """Serve this process's metrics on ``FT_METRICS_ADDRESS:FT_METRICS_PORT`` (once per
    process; a no-op when the port is 0). Returns the port, or None when off."""
    global _started
    port = settings.FT_METRICS_PORT
    if port == 0:
        return None
    with _lock:
        if _started is None:
            from leaderboards.metrics import VerificationCollector

            if settings.CELERY_BROKER_URL.startswith("redis"):
                REGISTRY.register(QueueCollector())
            REGISTRY.register(VerificationCollector())
            REGISTRY.register(AllocatorCollector())
            if settings.DATABASES["default"]["OPTIONS"].get("pool"):
                REGISTRY.register(PoolCollector())
            _started = start_http_server(port, addr=settings.FT_METRICS_ADDRESS)
            logger.info("metrics on %s:%s", settings.FT_METRICS_ADDRESS, port)
    return port
