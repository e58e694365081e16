"""The threads that apply the sockets' actions, each with its own database connection.

An action's one write waits for its commit to reach the disk (a couple of milliseconds
here). On the one thread that ``database_sync_to_async`` shares, every socket's actions
waited for each other's flushes in line: a process could never apply more actions a second
than flushes fit in one. Here several writes are in flight at once and PostgreSQL flushes
the log records of concurrent commits together, so the flushes are shared. The game's
live entry (``games.runtime.live``) keeps the actions of one game in order.

SQLite (the embedded default) has one writer at a time: one thread there
(``FT_MOVE_THREADS``).

On PostgreSQL the connection is the process's pool's (``ftsite.dbpool``): a thread borrows
it for an action and gives it back after (:func:`connection_tidy`), so idle threads hold
none and the pool's ceiling counts every thread of the process.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar, cast

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import InterfaceError, OperationalError, connection

from ftsite.dbpool import connection_tidy, pool_timeout_in

logger = logging.getLogger(__name__)
T = TypeVar("T")

_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None


def move_executor() -> ThreadPoolExecutor:
    """The process's action threads, made on first use."""
    global _executor
    if _executor is not None:  # every action asks: no lock once it is made
        return _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(
                max_workers=settings.FT_MOVE_THREADS, thread_name_prefix="moves"
            )
        return _executor


async def on_move_thread(fn: Callable[..., T], /, *args: object, **kwargs: object) -> T:
    """Run ``fn`` (a service call that writes) on an action thread."""
    # Through asgiref, so the thread knows the server's event loop (what follows the action,
    # games.services.play.game_act_follow_up, sends on that loop, as a request's thread
    # does) and the caller's context (its language). One wrapper for every action: made
    # anew per call, with the executor's lock, it was ~3 % of a duel server's event loop
    # (py-spy, 500 duels; docs/benchmarks.md "Duels under load").
    runner = _runner or _runner_make()
    return cast(T, await runner(fn, *args, **kwargs))


_runner: SyncToAsync[..., Any] | None = None


def _runner_make() -> SyncToAsync[..., Any]:
    global _runner
    _runner = SyncToAsync(_tidied, thread_sensitive=False, executor=move_executor())
    return _runner


def _tidied(fn: Callable[..., T], /, *args: object, **kwargs: object) -> T:
    try:
        return retrying_once(fn, *args, **kwargs)
    finally:
        connection_tidy()  # back to the pool (see the module)


#: How long an action waits out SQLite's lock of a table another thread is using, in
#: short naps (PostgreSQL waits on row locks itself and never raises this).
SQLITE_LOCKED_WAIT_S = 2.0
SQLITE_LOCKED_NAP_S = 0.02


def retrying_once(fn: Callable[..., T], /, *args: object, **kwargs: object) -> T:
    """``fn``, tried again once on a fresh connection if the database dropped this one
    (a restart, ``pg_terminate_backend``, a network cut).

    Safe for the socket's actions, which always carry a client message id: if the lost
    statement had committed, the second try finds the id in the log and answers it as the
    duplicate it is; if not, it applies the action once. Safe for a connect's work too
    (``connect_threads``): reads, and the sightings' idempotent upsert.

    SQLite's "database (table) is locked" is no lost connection but another thread's
    statement on the same table: a shared-cache database (the test tiers' in-memory one)
    refuses at once instead of waiting, so the call is tried again on the same connection
    for up to :data:`SQLITE_LOCKED_WAIT_S` (a unit-tier run on a loaded machine lost a
    move so: the connect of a second socket was reading the games table).

    A wait for the pool's connection that timed out is no lost connection either: it is
    raised at once (trying again would wait as long once more, with the pool as busy).
    """
    give_up = time.monotonic() + SQLITE_LOCKED_WAIT_S
    while True:
        try:
            return fn(*args, **kwargs)
        except OperationalError as error:
            if pool_timeout_in(error):
                raise
            if "is locked" in str(error) and time.monotonic() < give_up:
                time.sleep(SQLITE_LOCKED_NAP_S)
                continue
            failure: Exception = error
        except InterfaceError as error:
            failure = error
        break
    logger.warning("the database connection failed (%s); reconnecting once", failure)
    connection.close()
    return fn(*args, **kwargs)
