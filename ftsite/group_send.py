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
