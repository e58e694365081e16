"""Telling a game's watchers what happened (called only after the commit).

:func:`group_send` is the one way the apps send to a channel-layer group from
synchronous code.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
from typing import TYPE_CHECKING, Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

from games.payloads import action_message

if TYPE_CHECKING:
    from games.services import ActResult


def game_group(game_id: str) -> str:
    """The channel-layer group of everyone connected to a game."""
    return f"game-{game_id}"


def game_action(result: ActResult) -> None:
    group_send(
        game_group(result.game_id), {"type": "game.action", "message": action_message(result)}
    )


logger = logging.getLogger(__name__)
_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()


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
    layer = get_channel_layer()
    if layer is None:
        return
    if getattr(SyncToAsync.threadlocal, "main_event_loop", None) is not None:
        async_to_sync(layer.group_send)(group, event)
        return
    future = asyncio.run_coroutine_threadsafe(layer.group_send(group, event), _background_loop())
    future.add_done_callback(_log_failure)


def _log_failure(future: concurrent.futures.Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.warning("group send failed: %r", future.exception())


def _background_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _loop_lock:
        if _loop is None or _loop.is_closed():
            _loop = asyncio.new_event_loop()
            threading.Thread(target=_loop.run_forever, name="group-send", daemon=True).start()
        return _loop
