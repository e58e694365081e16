"""The threads that open game sockets, each with its own database connection.

Opening a socket reads the session and the user, checks access, reads the game's state and
(at most every ``FT_SIGHTING_EVERY`` seconds) records a sighting: a handful of database
round trips, almost all of it waiting for PostgreSQL. On the one thread every socket's
``database_sync_to_async`` calls share, a reconnect storm (every player's socket back at
once after a deploy or a blip) waited for those round trips one after another; here
``FT_CONNECT_THREADS`` of them are in flight at once, and none waits behind a socket's
sync or a page's work on the shared thread. The reads are the same as before, on their
own connections (closed when broken or older than ``CONN_MAX_AGE``, as Channels does).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from channels.auth import AuthMiddleware, get_user
from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.utils.functional import LazyObject, SimpleLazyObject, empty

T = TypeVar("T")

_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None


def connect_executor() -> ThreadPoolExecutor:
    """The process's connect threads, made on first use."""
    global _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(
                max_workers=settings.FT_CONNECT_THREADS, thread_name_prefix="connects"
            )
        return _executor


async def on_connect_thread(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """Run ``fn`` (reads, or a write that is safe to lose) on a connect thread, its
    database connection checked before and after as ``database_sync_to_async`` does."""
    call = DatabaseSyncToAsync(fn, thread_sensitive=False, executor=connect_executor())
    return await call(*args, **kwargs)


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
            session = {"session": scope["session"]}
            scope["user"] = SimpleLazyObject(lambda: get_user.func(session))

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        """Nothing: the user is read on first use (see the class)."""


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
