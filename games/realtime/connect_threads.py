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
    """Channels' ``AuthMiddleware`` (the session's user in ``scope["user"]``), resolved on
    a connect thread instead of the shared database thread."""

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        scope["user"]._wrapped = await on_connect_thread(get_user.func, scope)
