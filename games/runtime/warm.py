"""The action threads' database connections, opened when a process's first game socket
connects rather than by the first moves.

A process starts its action threads (``move_threads``) on the first moves it is sent, and
each opens its database connection then: after a deploy, the first second's moves of
every reconnected player waited behind those connections being opened (the p99 of the
first second after a start is issue 22's target, docs/benchmarks.md). The first socket
that connects starts them instead, each with its connection, while the players are still
reading their hellos. A connection that fails here is only logged: the first move opens
its own, as before. On PostgreSQL each thread gives its connection back to the process's
pool at once (``ftsite.dbpool``): the pool keeps them open, idle, for the first moves.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import connection

from ftsite.dbpool import connection_tidy
from games.runtime.move_threads import move_executor

logger = logging.getLogger(__name__)

_started = False
_lock = threading.Lock()


def move_threads_warm() -> None:
    """Start every action thread, each with its database connection (once a process)."""
    global _started
    with _lock:
        if _started:
            return
        _started = True
    _warm(move_executor(), settings.FT_MOVE_THREADS)


def _warm(executor: ThreadPoolExecutor, threads: int) -> None:
    # Each job waits for the others at the barrier, so the executor starts a thread for
    # each (one job per thread), then each thread connects.
    barrier = threading.Barrier(threads)
    for _ in range(threads):
        executor.submit(_connect, barrier)


def _connect(barrier: threading.Barrier) -> None:
    try:
        barrier.wait(timeout=5)
        connection.ensure_connection()
        connection_tidy()
    except Exception as error:  # noqa: BLE001 - the first move connects instead
        logger.warning("opening an action thread's database connection failed: %r", error)
