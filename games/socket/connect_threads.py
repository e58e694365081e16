"""The threads that open game sockets, each with its own database connection.

Opening a socket reads the session and the user, checks access, reads the game's state and
(at most every ``FT_SIGHTING_EVERY`` seconds) records a sighting: a handful of database
round trips, almost all of it waiting for PostgreSQL. On the one thread every socket's
``database_sync_to_async`` calls share, a reconnect storm (every player's socket back at
once after a deploy or a blip) waited for those round trips one after another; here
``FT_CONNECT_THREADS`` of them are in flight at once, and none waits behind a socket's
sync or a page's work on the shared thread. The reads are the same as before, on their
own connections (borrowed from the process's pool for a call, or without the pool closed
when broken or older than ``CONN_MAX_AGE``, as Channels does).

Unlike ``database_sync_to_async`` a call does not begin with Django's connection check
(``close_old_connections``): under ``CONN_HEALTH_CHECKS`` that made every connect's first
query a ``SELECT 1`` of its own, a round trip and a tenth of a connect's database work
(py-spy, docs/benchmarks.md "Session 9"). The connection is tidied after each call instead
(``ftsite.dbpool.connection_tidy``: given back to the pool; without one closed if an error
occurred on it, a transaction was left open, or it is older than ``CONN_MAX_AGE``), and a
call that finds it dead (PostgreSQL restarted, a network cut) is run again once on a new
one: a connect's reads are safe to repeat, and so is its one write (the sightings' upsert).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from channels.auth import AuthMiddleware
from django.conf import settings
from django.utils.functional import LazyObject, SimpleLazyObject

from ftsite.dbpool import connection_tidy
from ftsite.patches import lazy_fill, lazy_unread, lazy_value, lazy_wrapped
from games.runtime.move_threads import retrying_once

T = TypeVar("T")
Item = TypeVar("Item")

_lock = threading.Lock()
# The calls waiting for a connect thread: (loop, future, context, fn, args, kwargs); an
# item of a batched call has (fn_many, (item,), BATCHED) in the last three places.
_calls: queue.SimpleQueue[tuple[Any, ...]] = queue.SimpleQueue()
_started = False
BATCHED: Any = object()
# The most items of one batched call a thread takes at once: a storm's handshakes in flight
# (50 in the benchmark) fit, and one batch's reads stay a few milliseconds long.
MAX_BATCH = 64


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
    result: T = await _queued(fn, args, kwargs)
    return result


async def on_connect_thread_batched(fn_many: Callable[[list[Item]], list[Any]], item: Item) -> Any:
    """``fn_many([item, ...])[i]`` for ``item``, run on a connect thread together with the
    other items for ``fn_many`` waiting when the thread takes this one (at most
    ``MAX_BATCH``), in the first one's context, as :func:`on_connect_thread` runs a call
    (once more on a new connection if the database dropped it). ``fn_many`` returns one
    result per item, in order; an exception in an item's place is raised where that item
    is awaited, and one that ``fn_many`` raises, where every item of the batch is.

    In a reconnect storm every socket's connect crossed to a thread and back on its own:
    two wake-ups, a wait for PostgreSQL with the interpreter's lock let go and taken back,
    about 15 context switches and 0.45 ms of the process's CPU a socket beyond the reads
    themselves (docs/benchmarks.md, "Session 13"). Taken together, a batch's reads are one
    round trip (``games.prepared.PreparedRow.get_many``) and its results one wake-up."""
    return await _queued(fn_many, (item,), BATCHED)


async def _queued(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: Any) -> Any:
    if not _started:
        _threads_start()
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()
    _calls.put((loop, future, contextvars.copy_context(), fn, args, kwargs))
    return await future


def _serve() -> None:
    held: list[tuple[Any, ...]] = []  # calls taken while gathering a batch: run next
    while True:
        call = held.pop(0) if held else _calls.get()
        if call[5] is BATCHED:
            _run_batch(_gather(call, held, _calls))
        else:
            _run_one(call)
        del call  # not kept till the next


def _gather(
    call: tuple[Any, ...], held: list[tuple[Any, ...]], calls: queue.SimpleQueue[tuple[Any, ...]]
) -> list[tuple[Any, ...]]:
    """``call`` (an item of a batched call) and the items of the same batched call waiting
    in ``calls`` now, in order, at most ``MAX_BATCH``; any other call taken meanwhile goes
    to ``held``, to be run next by the same thread."""
    batch = [call]
    while len(batch) < MAX_BATCH:
        try:
            more = calls.get_nowait()
        except queue.Empty:
            break
        (batch if more[5] is BATCHED and more[3] is call[3] else held).append(more)
    return batch


def _run_one(call: tuple[Any, ...]) -> None:
    loop, future, context, fn, args, kwargs = call
    try:
        result, error = context.run(_once_more_if_dropped, fn, *args, **kwargs), None
    except BaseException as raised:  # noqa: BLE001 - the caller's, raised where it awaits
        result, error = None, raised
    # RuntimeError: the loop closed meanwhile (a process stopping): nobody waits.
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(_settle, future, result, error)


def _run_batch(batch: list[tuple[Any, ...]]) -> None:
    context, fn_many = batch[0][2], batch[0][3]
    items = [call[4][0] for call in batch]
    error: BaseException | None = None
    try:
        results = context.run(_once_more_if_dropped, fn_many, items)
        if len(results) != len(items):
            raise RuntimeError(f"{len(items)} items gave {len(results)} results")
    except BaseException as raised:  # noqa: BLE001 - the callers', raised where they await
        results, error = [None] * len(items), raised
    by_loop: dict[Any, list[tuple[Any, Any]]] = {}  # one wake-up a loop (one in a server)
    for call, result in zip(batch, results, strict=True):
        by_loop.setdefault(call[0], []).append((call[1], result))
    for loop, settled in by_loop.items():
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits
            loop.call_soon_threadsafe(_settle_many, settled, error)


def _settle_many(settled: list[tuple[Any, Any]], error: BaseException | None) -> None:
    for future, result in settled:
        if isinstance(result, BaseException):
            _settle(future, None, result)
        else:
            _settle(future, result, error)


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
    """Channels' ``get_user``, its reads compiled once (``games.socket.session_user``)."""
    from django.contrib.auth.models import AnonymousUser

    from games.socket.session_user import session_user

    return session_user(session) or AnonymousUser()


def scope_user_and_game(scope: dict[str, Any], game_pk: Any) -> tuple[Any, Any]:
    """The socket's user (as :func:`scope_user`) and the row of game ``game_pk`` as the
    access funnel reads it (``None``: no such game). While neither the user nor the session
    was read yet (a game socket's connect), both in one query
    (``games.socket.session_user.session_user_and_game``); else the two reads."""
    return scopes_users_and_games([(scope, game_pk)])[0]


def scopes_users_and_games(items: list[tuple[dict[str, Any], Any]]) -> list[tuple[Any, Any]]:
    """:func:`scope_user_and_game` for each (scope, game key) of ``items``, in order: the
    sockets whose user and session are both unread (every game socket's connect) in one
    round trip together (``session_user.sessions_users_and_games``), any other one by one."""
    from django.contrib.auth.models import AnonymousUser

    from ftsite.sessions import SessionStore
    from games.access import GAME_ROW
    from games.socket.session_user import sessions_users_and_games

    together: dict[int, tuple[Any, SessionStore, Any]] = {}  # index -> (user, store, key)
    for index, (scope, game_pk) in enumerate(items):
        user = scope.get("user")
        store = lazy_wrapped(scope.get("session"))  # Django's LazyObject (ftsite.patches)
        if lazy_unread(user) and isinstance(store, SessionStore) and not store.loaded():
            together[index] = (user, store, game_pk)
    read = sessions_users_and_games([(store, key) for _, store, key in together.values()])
    found = dict(zip(together, read, strict=True))
    out: list[tuple[Any, Any]] = []
    for index, (scope, game_pk) in enumerate(items):
        if index not in together:
            out.append((scope_user(scope), GAME_ROW.get(game_pk)))
            continue
        user, pair = together[index][0], found[index]
        if isinstance(pair, LookupError):  # no such game: the session read the usual way
            out.append((scope_user(scope), None))
            continue
        out.append((lazy_fill(user, pair[0] or AnonymousUser()), pair[1]))
    return out


def scope_user(scope: dict[str, Any]) -> Any:
    """The socket's user (a ``User`` or ``AnonymousUser``), read now if it was not yet: on
    a thread, since reading it may query the session and the user."""
    user = scope.get("user")
    if user is None:
        from django.contrib.auth.models import AnonymousUser

        return AnonymousUser()
    return lazy_value(user) if isinstance(user, LazyObject) else user
