"""Sending to a channel-layer group from synchronous code: the one low-level way of both apps.

:func:`group_send` (every message) and :func:`group_nudge` (only the latest "look
again", at most a few a second). What is sent is each app's: a game's watchers hear from
``games.runtime.broadcast``, a board's pages from ``leaderboards.broadcast``; this module
knows neither, so both may import it (leaderboards never reaches into games' runtime).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import weakref
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The server's event loop when this thread runs for it (a socket's action thread, a
    request's thread under ASGI: asgiref marks them), else ``None``."""
    return getattr(SyncToAsync.threadlocal, "main_event_loop", None)


logger = logging.getLogger(__name__)
_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()
_slots: asyncio.Semaphore | None = None
# The background loop sends at most this many at once: the channel layer's Redis pool
# refuses new connections past its limit (MaxConnectionsError), so a burst (a day's close
# ending thousands of games) would otherwise lose most of its messages; now it queues.
SEND_SLOTS = 32
# A board nudge says only "look again": from one process, at most one per group this often.
NUDGE_GAP = 0.25
_nudging: set[str] = set()  # groups with a nudge in flight or resting (touched on the loop only)
_next_nudge: dict[str, dict[str, Any]] = {}


def group_send(group: str, event: dict[str, Any]) -> None:
    """Send ``event`` to ``group`` from synchronous code.

    Inside a request or a consumer (a thread of the server's event loop) the send
    runs on that loop and is waited for, so an in-memory layer's queues stay on
    their own loop. In a Celery worker or a command there is no such loop: a fresh
    one per call would open a new Redis connection every time (milliseconds each),
    so one background loop per process serves them all, keeps its connections,
    and sends without holding up the task (a broadcast is a nudge; pages that miss
    one catch up when they reconnect).
    """
    layer = _layer_unless_sent_here(group, event)
    if layer is None:
        return
    future = asyncio.run_coroutine_threadsafe(_send(layer, group, event), _background_loop())
    future.add_done_callback(_log_failure)


def group_send_soon(group: str, event: dict[str, Any]) -> None:
    """Like :func:`group_send`, without waiting for the send: for an event the clients
    order by a version of their own (a duel's counts), sent after a commit whose answer
    should not wait for it.

    On a thread of the server's event loop (a socket's action thread) the event joins that
    loop's outbox and the thread goes on at once: a duel move's ``accepted`` waited for its
    progress's round trips to Redis through a busy loop (87 of 113 ms of a move under load,
    docs/benchmarks.md "Duels under load"). The outbox sends one event at a time, in the
    order given, so one process's events reach a group in order. Elsewhere (a worker) this
    is :func:`group_send`, which does not wait there either.
    """
    loop = server_loop()
    layer = get_channel_layer()
    # asgiref leaves a thread's loop in its threadlocal after the loop has gone (a test's
    # communicator, a request's loop that ended): only a loop that runs takes the event.
    if loop is None or layer is None or not loop.is_running():
        group_send(group, event)
        return
    try:
        loop.call_soon_threadsafe(_post, loop, layer, group, event)
    except RuntimeError:  # it closed meanwhile (a server stopping): the waited-for way
        group_send(group, event)


# Each server loop's outbox (group_send_soon), made on the loop on first use, drained by
# one task of that loop.
_outboxes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Queue[Any]] = (
    weakref.WeakKeyDictionary()
)


def _post(loop: asyncio.AbstractEventLoop, layer: Any, group: str, event: dict[str, Any]) -> None:
    outbox = _outboxes.get(loop)
    if outbox is None:
        outbox = _outboxes[loop] = asyncio.Queue()
        loop.create_task(_drain(layer, outbox))
    outbox.put_nowait((group, event))


#: At most this many of an outbox's waiting events go to the layer in one batch.
OUTBOX_BATCH = 200


async def _drain(layer: Any, outbox: asyncio.Queue[Any]) -> None:
    # Everything waiting goes in one batch when the layer takes batches
    # (ftsite.channel_layer: two Redis round trips for the lot, in order): one send at a
    # time, each waiting for its round trips through a busy loop, fell seconds behind the
    # duels' progress at 150 duels (docs/benchmarks.md, "Duels under load").
    send_many = getattr(layer, "group_send_many", None)
    while True:
        sends = [await outbox.get()]
        while not outbox.empty() and len(sends) < OUTBOX_BATCH:
            sends.append(outbox.get_nowait())
        try:
            if send_many is not None:
                await send_many(sends)
            else:
                for group, event in sends:
                    await layer.group_send(group, event)
        except Exception as error:  # a lost event is logged; the clients resync by version
            logger.warning("group send failed: %r", error)


def group_nudge(group: str, event: dict[str, Any]) -> None:
    """Like :func:`group_send`, for an event that only tells pages to fetch again.

    From a worker the first nudge to a group goes at once; more within
    :data:`NUDGE_GAP` seconds are folded into one, the latest, sent when the gap
    ends. A busy day verifies hundreds of results a second: one message each would
    cost the worker a Redis round trip apiece and send every open board page a
    refetch it would fold anyway.
    """
    layer = _layer_unless_sent_here(group, event)
    if layer is None:
        return
    loop = _background_loop()
    loop.call_soon_threadsafe(_nudge, loop, layer, group, event)


def _layer_unless_sent_here(group: str, event: dict[str, Any]) -> Any:
    """The channel layer for the background loop to send with; ``None`` when there is no
    layer, or when this thread belongs to the server's event loop and the send just ran
    there (waited for, so an in-memory layer's queues stay on their own loop)."""
    layer = get_channel_layer()
    if layer is None:
        return None
    if getattr(SyncToAsync.threadlocal, "main_event_loop", None) is not None:
        async_to_sync(layer.group_send)(group, event)
        return None
    return layer


def _nudge(loop: asyncio.AbstractEventLoop, layer: Any, group: str, event: dict[str, Any]) -> None:
    if group in _nudging:
        _next_nudge[group] = event  # the one resting sends it (or this) after its gap
        return
    _nudging.add(group)
    loop.create_task(_nudge_then_rest(layer, group, event))


async def _nudge_then_rest(layer: Any, group: str, event: dict[str, Any] | None) -> None:
    try:
        while event is not None:
            try:
                await _send(layer, group, event)
            except Exception as error:  # a nudge that fails is logged, never raised
                logger.warning("group nudge failed: %r", error)
            await asyncio.sleep(NUDGE_GAP)
            event = _next_nudge.pop(group, None)
    finally:
        _nudging.discard(group)


async def _send(layer: Any, group: str, event: dict[str, Any]) -> None:
    assert _slots is not None  # made with the loop
    async with _slots:
        await layer.group_send(group, event)


def _log_failure(future: concurrent.futures.Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.warning("group send failed: %r", future.exception())


def _background_loop() -> asyncio.AbstractEventLoop:
    global _loop, _slots
    with _loop_lock:
        if _loop is None or _loop.is_closed():
            _loop = asyncio.new_event_loop()
            _slots = asyncio.Semaphore(SEND_SLOTS)
            _nudging.clear()
            _next_nudge.clear()
            threading.Thread(target=_loop.run_forever, name="group-send", daemon=True).start()
        return _loop
