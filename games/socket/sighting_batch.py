"""The sightings of the sockets a process opens, recorded a batch at a time.

A socket's player is sighted as a page's is (``games.privacy``), at most once per
``FT_SIGHTING_EVERY`` per user, device and network. In a reconnect storm (every player's
socket back at once after a deploy) asking the cache and writing one socket at a time cost
more of the process's one core than the rest of the connect; here the connects of the last
``FLUSH_SECONDS`` are asked about and written together, on a connect thread, after their
hellos. A sighting is fair-play evidence kept for weeks, not an acknowledged move: the few
waiting when a process is killed are lost, as a failed write always was (logged, never the
socket's concern).
"""

from __future__ import annotations

import asyncio
import logging

from games.privacy.services import Seen, sighting_seen_lately, sightings_record_due_many
from games.socket.connect_threads import on_connect_thread

logger = logging.getLogger(__name__)

FLUSH_SECONDS = 0.5
FLUSH_AT = 500  # a batch this long goes at once

_pending: list[Seen] = []
_flush: asyncio.TimerHandle | None = None
_flush_loop: asyncio.AbstractEventLoop | None = None
_writing: set[asyncio.Task[None]] = set()  # held: the loop keeps only weak references


def sighting_queue(seen: Seen) -> bool:
    """Queue a socket's sighting (on the event loop), unless this process recorded it, or
    found it recorded, lately; the batch is written within ``FLUSH_SECONDS``. True when it
    was queued: the socket then calls :func:`sightings_flush` before its first action, so
    that no game can finish (and be screened for linked accounts) before its player's
    sighting is written."""
    global _flush, _flush_loop
    if sighting_seen_lately(
        user_id=seen.user_id,
        device_token=seen.device_token,
        address=seen.address,
        user_agent=seen.user_agent,
    ):
        return False
    _pending.append(seen)
    loop = asyncio.get_running_loop()
    if _flush_loop is not loop:  # a timer of a loop that has ended (tests) never fires
        _flush, _flush_loop = None, loop
    if len(_pending) >= FLUSH_AT:
        if _flush is not None:
            _flush.cancel()
        _flush = None
        _start(loop)
    elif _flush is None:
        _flush = loop.call_later(FLUSH_SECONDS, _flush_now, loop)
    return True


def _take() -> list[Seen]:
    batch = _pending[:]
    _pending.clear()
    return batch


def _flush_now(loop: asyncio.AbstractEventLoop) -> None:
    global _flush
    _flush = None
    _start(loop)


def _start(loop: asyncio.AbstractEventLoop) -> None:
    task = loop.create_task(_write(_take()))
    _writing.add(task)
    task.add_done_callback(_writing.discard)


async def _write(batch: list[Seen]) -> None:
    if not batch:
        return
    try:
        await on_connect_thread(sightings_record_due_many, seen=batch)
    except Exception:
        logger.exception("recording the sightings of %d sockets failed", len(batch))


async def sightings_flush() -> None:
    """Write what is queued now, and wait for the batches already being written (a socket
    before its first action, tests, a process about to stop)."""
    global _flush
    if _flush is not None:
        _flush.cancel()
        _flush = None
    await _write(_take())
    if _writing:
        await asyncio.gather(*_writing, return_exceptions=True)
