"""The database connections of a process: on PostgreSQL a pool of its own (psycopg's, as
Django's ``OPTIONS["pool"]``), with a ceiling.

Why (issue 37): without a pool every thread that queried kept a connection of its own, and
under ASGI each request runs in a context of its own, so a request's connection was left
behind with its context (``CONN_MAX_AGE`` keeps it open) until the garbage collector found
it: a web process (1 connection at start, 14 with 30 sockets) held 67 after 30 concurrent
HTTP clients, still 68 a minute later, and two processes filled PostgreSQL's 100
(``FATAL: sorry, too many clients already``: 500s). With the pool a process never holds more than
``DJANGO_DB_POOL_MAX`` connections; a thread borrows one for a request, a task, a socket's
call or a batch of them, and gives it back when done (:func:`connection_tidy` on the
process's own threads, Django's ``close_old_connections`` at the end of a request, Channels'
around each ``database_sync_to_async`` call); past the ceiling a thread waits, for up to
``DJANGO_DB_POOL_TIMEOUT``, then a page gets 503 with ``Retry-After`` (:func:`server_error`),
never a 500. Connections above ``DJANGO_DB_POOL_MIN`` that stay unused are closed again
(``DJANGO_DB_POOL_MAX_IDLE``). Sizing: docs/operations.md, "Database connections".
"""

from __future__ import annotations

import logging
import select
import sys
import time
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.views import defaults

logger = logging.getLogger(__name__)

#: ``Retry-After`` of the 503 a request gets when no connection came within the pool's
#: timeout: the burst that used them all has most likely passed by then.
BUSY_RETRY_AFTER_S = 5


def connection_dropped(conn: Any) -> bool:
    """Whether PostgreSQL has closed ``conn``, a psycopg connection idle in the pool (a
    restart, ``pg_terminate_backend``).

    Django's own check for pooled connections (``CONN_HEALTH_CHECKS``) is a round trip
    every time a connection leaves the pool, that is for every request and every action:
    about 200 us and 70 us of the process's CPU each here. An idle connection has nothing
    to read unless the server said goodbye (its FATAL message, then the end of the
    stream), so its socket is polled first (under a microsecond) and the round trip is made
    only when there is something to read. A connection cut without a word (a network
    partition) passes; the socket's threads retry once on a new connection
    (``games.runtime.move_threads.retrying_once``)."""
    import psycopg
    from psycopg_pool import ConnectionPool

    if conn.closed:
        return True
    try:
        poller = select.poll()
        poller.register(conn.pgconn.socket, select.POLLIN)
    except (psycopg.Error, OSError, ValueError):
        return True
    if not poller.poll(0):
        return False
    try:
        ConnectionPool.check_connection(conn)
    except psycopg.Error:
        return True
    return False


def connection_tidy() -> None:
    """Give this thread's database connection back (to the pool: closed otherwise) if it
    must not stay with the thread: pooled (a pool's connection serves whichever thread asks
    next), an error occurred on it, a transaction was left open, or it is older than
    ``CONN_MAX_AGE``. Every thread of the process's own that queries (the action and
    connect threads) calls this after its work: without it each would keep a connection
    out of the pool for good. Unlike Django's ``close_old_connections`` it marks no
    health check for the next query (a ``SELECT 1``, a round trip)."""
    # The thread's wrapper looked up once: each attribute read through Django's
    # ``connection`` proxy is a context-local lookup of its own (about 2 us each).
    wrapper = connections[DEFAULT_DB_ALIAS]
    if wrapper.connection is None:
        return
    if (
        wrapper.settings_dict["OPTIONS"].get("pool")
        or wrapper.errors_occurred
        or (wrapper.close_at is not None and time.monotonic() >= wrapper.close_at)
        or wrapper.in_atomic_block
        or wrapper.get_autocommit() != wrapper.settings_dict["AUTOCOMMIT"]
    ):
        wrapper.close()


def pool_timeout_in(error: BaseException | None) -> bool:
    """Whether ``error`` is, or was caused by, a wait for a pool's connection that timed out
    (psycopg's ``PoolTimeout``, which Django raises as its own ``OperationalError``)."""
    try:
        from psycopg_pool import PoolTimeout
    except ImportError:  # no pool without the package: nothing can time out waiting
        return False
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, PoolTimeout):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def server_error(request: HttpRequest) -> HttpResponse:
    """The site's ``handler500``: a request that waited past ``DJANGO_DB_POOL_TIMEOUT`` for
    a database connection is told the site is busy (503, ``Retry-After``), any other
    failure gets Django's own 500. Django calls a handler500 while it handles the
    exception, so the exception is the one in flight here.

    The busy page is rendered without a request context: the context processors would
    read the session and the user, from the database there is no connection for."""
    if not pool_timeout_in(sys.exc_info()[1]):
        return defaults.server_error(request)
    page = render_to_string(
        "busy.html",
        {"retry_after": BUSY_RETRY_AFTER_S, "language": get_language() or settings.LANGUAGE_CODE},
    )
    response = HttpResponse(page, status=503)
    response["Retry-After"] = str(BUSY_RETRY_AFTER_S)
    # One line, not Django's traceback of the timeout: when this happens it happens to many
    # requests at once, on a process already short of time (ft_db_pool_timeouts counts them).
    logger.warning("busy: no database connection in time for %s %s", request.method, request.path)
    response._has_been_logged = True  # type: ignore[attr-defined]  # read by django.utils.log
    return response
