"""A pytest plugin for the integration tier on two xdist workers (``make test-integration``
loads it with ``-p``): each worker gets its own Redis database, ``REDIS_URL``'s number plus
the worker's (``gw0`` the same, ``gw1`` the next).

Celery's queues, the channel layer's groups, the throttles' counters and the boards are
named alike in every test, and tests purge or flush them, so two workers on one database
would see each other's tasks and counts. The PostgreSQL side needs nothing: pytest-django
already names each worker's test database after it. This runs when the plugin is imported,
before pytest-django reads the settings (which read ``REDIS_URL`` once, at start-up);
xdist has set ``PYTEST_XDIST_WORKER`` by then. (``--tx popen//env:REDIS_URL=...`` cannot
say it: xdist splits its specifications at ``//``.)
"""

from __future__ import annotations

import os


def worker_redis_url(url: str, worker: str) -> str:
    """``url`` with its database number moved up by the worker's number.

    >>> worker_redis_url("redis://127.0.0.1:6379/14", "gw1")
    'redis://127.0.0.1:6379/15'
    >>> worker_redis_url("redis://127.0.0.1:6379/14", "gw0")
    'redis://127.0.0.1:6379/14'
    """
    base, _, number = url.rpartition("/")
    return f"{base}/{int(number) + int(worker.removeprefix('gw'))}"


_worker = os.environ.get("PYTEST_XDIST_WORKER")
_url = os.environ.get("REDIS_URL")
if _worker and _url:
    os.environ["REDIS_URL"] = worker_redis_url(_url, _worker)
