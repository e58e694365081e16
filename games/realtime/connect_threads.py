"""The threads that open game sockets, each with its own database connection.

Opening a socket reads the session and the user, checks access, reads the game's state and
(at most every ``FT_SIGHTING_EVERY`` seconds) records a sighting: a handful of database
round trips, almost all of it waiting for PostgreSQL. On the one thread every socket's
``database_sync_to_async`` calls share, a reconnect storm (every player's socket back at
once after a deploy or a blip) waited for those round trips one after another; here
``FT_CONNECT_THREADS`` of them are in flight at once, and none waits behind a socket's
sync or a page's work on the shared thread. The reads are the same as before, on their
own connections (closed when broken or older than ``CONN_MAX_AGE``, as Channels does).

Unlike ``database_sync_to_async`` a call does not begin with Django's connection check
(``close_old_connections``): under ``CONN_HEALTH_CHECKS`` that made every connect's first
query a ``SELECT 1`` of its own, a round trip and a tenth of a connect's database work
(py-spy, docs/benchmarks.md "Session 9"). The connection is tidied after each call instead
(closed if an error occurred on it, a transaction was left open, or it is older than
``CONN_MAX_AGE``), and a call that finds it dead (PostgreSQL restarted, a network cut) is
run again once on a new one: a connect's reads are safe to repeat, and so is its one write
(the sightings' upsert).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from channels.auth import AuthMiddleware
from django.conf import settings
from django.db import connection
from django.utils.functional import LazyObject, SimpleLazyObject, empty

from .move_threads import retrying_once

T = TypeVar("T")

_lock = threading.Lock()
# The calls waiting for a connect thread: (loop, future, context, fn, args, kwargs).
_calls: queue.SimpleQueue[tuple[Any, ...]] = queue.SimpleQueue()
_started = False


def _threads_start() -> None:
    """The process's ``FT_CONNECT_THREADS`` connect threads, started on first use."""
    global _started
    with _lock:
        if _started:
            return
        _started = True
        for n in range(settings.FT_CONNECT_THREADS):
            # Daemons: a process stopping does not wait for a storm's reads.
            threading.Thread(target=_serve, name=f"connects_{n}", daemon=True).start()


async def on_connect_thread(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """Run ``fn`` (reads, or a write that is safe to repeat or lose) on a connect thread:
    once more on a new connection if the database dropped this one, the connection tidied
    after (see the module)."""
    # A hand-off of its own, in a copy of the caller's context: a queue the threads take
    # calls from, and the result set on the caller's future from the loop. asgiref's
    # SyncToAsync (thread-sensitivity checks, a shield, the context copied back) was a
    # tenth of a connect's time on the event loop (docs/benchmarks.md "Session 9"), and
    # the executor's (a concurrent future with its condition, two locks, the two futures
    # chained) cost 53-65 us of the process's CPU a hop against 18-45 here ("Session
    # 12"); nothing a connect runs needs either (no async code called back from the
    # thread: the sockets' broadcasts go from the action threads).
    if not _started:
        _threads_start()
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()
    _calls.put((loop, future, contextvars.copy_context(), fn, args, kwargs))
    return await future


def _serve() -> None:
    while True:
        loop, future, context, fn, args, kwargs = _calls.get()
        try:
            result, error = context.run(_once_more_if_dropped, fn, *args, **kwargs), None
        except BaseException as raised:  # noqa: BLE001 - the caller's, raised where it awaits
            result, error = None, raised
        # RuntimeError: the loop closed meanwhile (a process stopping): nobody waits.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(_settle, future, result, error)
        del loop, future, context, fn, args, kwargs, result, error  # not kept till the next


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # cancelled: the socket went away while its reads ran
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def _once_more_if_dropped(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    try:
        return retrying_once(fn, *args, **kwargs)
    finally:
        connection_tidy()


def connection_tidy() -> None:
    """Close this thread's database connection if it must not serve the next call: an
    error occurred on it, a transaction was left open, or it is older than
    ``CONN_MAX_AGE``. Django's own check (``close_old_connections``) would also mark it
    for a ``SELECT 1`` before its next query."""
    if connection.connection is None:
        return
    expired = connection.close_at is not None and time.monotonic() >= connection.close_at
    left_open = connection.in_atomic_block or (
        connection.get_autocommit() != connection.settings_dict["AUTOCOMMIT"]
    )
    if expired or connection.errors_occurred or left_open:
        connection.close()


class ConnectAuthMiddleware(AuthMiddleware):
    """Channels' ``AuthMiddleware`` (the session's user in ``scope["user"]``), but read
    when first used, on the thread that uses it, instead of in a thread hop of its own
    before the consumer starts: a game socket reads it on its one connect-thread call
    together with the access check and the state, a board socket (which needs no user)
    never reads it. Read from the event loop it fails (Django refuses a query there):
    never an anonymous or a wrong user by mistake."""

    def populate_scope(self, scope: dict[str, Any]) -> None:
        if "session" not in scope:
            raise ValueError("ConnectAuthMiddleware needs SessionMiddleware above it")
        if "user" not in scope:
            # Given the session alone, not the scope that will hold it: no reference cycle
            # for the collector to find once the socket is gone.
            session = scope["session"]
            scope["user"] = SimpleLazyObject(lambda: _user_of(session))

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        """Nothing: the user is read on first use (see the class)."""


def _user_of(session: Any) -> Any:
    """Channels' ``get_user``, its reads compiled once (``games.realtime.session_user``)."""
    from django.contrib.auth.models import AnonymousUser

    from games.realtime.session_user import session_user

    return session_user(session) or AnonymousUser()


def scope_user_and_game(scope: dict[str, Any], game_pk: Any) -> tuple[Any, Any]:
    """The socket's user (as :func:`scope_user`) and the row of game ``game_pk`` as the
    access funnel reads it (``None``: no such game). While neither the user nor the session
    was read yet (a game socket's connect), both in one query
    (``games.realtime.session_user.session_user_and_game``); else the two reads."""
    from django.contrib.auth.models import AnonymousUser

    from ftsite.sessions import SessionStore
    from games.access import GAME_ROW
    from games.realtime.session_user import session_user_and_game

    user = scope.get("user")
    store = getattr(scope.get("session"), "_wrapped", None)
    if (
        isinstance(user, LazyObject)
        and user._wrapped is empty
        and isinstance(store, SessionStore)
        and not store.loaded()
    ):
        try:
            found, game = session_user_and_game(store, game_pk)
        except LookupError:
            return scope_user(scope), None
        user._wrapped = found or AnonymousUser()
        return user._wrapped, game
    return scope_user(scope), GAME_ROW.get(game_pk)


def scope_user(scope: dict[str, Any]) -> Any:
    """The socket's user (a ``User`` or ``AnonymousUser``), read now if it was not yet: on
    a thread, since reading it may query the session and the user."""
    user = scope.get("user")
    if user is None:
        from django.contrib.auth.models import AnonymousUser

        return AnonymousUser()
    if isinstance(user, LazyObject):
        if user._wrapped is empty:
            user._setup()
        return user._wrapped
    return user
