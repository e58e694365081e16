"""The calls of one turn of the event loop, sent together.

In a storm (a deploy, a network blip) hundreds of sockets ask Redis for the same kind of
small thing within a few milliseconds: join a group, leave it, take a message allowance.
One round trip each meant a Redis connection for each call in flight, so redis-py opened
hundreds of new connections, each a handshake of its own (docs/benchmarks.md, "Session 9").
A :class:`TurnBatch` gathers the calls made during one turn of the event loop and hands
them, in order, to one ``send`` (one pipeline on one connection) at the start of the next
turn; each caller awaits its own result, or the error of the batch, as its own call would
have raised it. Used by ``games.socket.groups`` and ``games.socket.loop_throttle``.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

_Calls = list[tuple[T, "asyncio.Future[R]"]]

# Held here: the loop keeps only weak references to its tasks.
_running: set[asyncio.Task[None]] = set()


class TurnBatch(Generic[T, R]):
    """``await batch.call(item)``: ``item`` goes with the other calls of this turn of the
    running loop to ``send(items)``, which returns one result per item, in order."""

    def __init__(self, send: Callable[[list[T]], Awaitable[Sequence[R]]]) -> None:
        self._send = send
        self._waiting: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Calls[T, R]] = (
            weakref.WeakKeyDictionary()
        )

    async def call(self, item: T) -> R:
        loop = asyncio.get_running_loop()
        waiting = self._waiting.get(loop)
        if waiting is None:
            waiting = self._waiting[loop] = []
            loop.call_soon(self._flush, loop)
        done: asyncio.Future[R] = loop.create_future()
        waiting.append((item, done))
        return await done

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        calls = self._waiting.pop(loop, [])
        if calls:
            task = loop.create_task(self._run(calls))
            _running.add(task)
            task.add_done_callback(_running.discard)

    async def _run(self, calls: _Calls[T, R]) -> None:
        try:
            results = await self._send([item for item, _ in calls])
            answered = list(zip(calls, results, strict=True))
        except asyncio.CancelledError:  # the loop is closing
            for _, done in calls:
                done.cancel()
            raise
        except Exception as error:  # each caller's own await raises it
            for _, done in calls:
                if not done.done():
                    done.set_exception(error)
            return
        for (_, done), result in answered:
            if not done.done():  # a caller cancelled meanwhile
                done.set_result(result)
