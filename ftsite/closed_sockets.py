"""A socket process's memory back after its sockets close (issue 37).

A closed websocket leaves its server objects behind as cyclic garbage (daphne's
``HTTPChannel``, ``WebRequest`` and protocol, twisted's ``Deferred`` chains, the consumer:
several hundred objects, about 20 KB a socket), which only a full collection frees. The
serving process makes full collections rare on purpose (``ftsite.serving``: one walks every
open socket's objects, every socket stopped meanwhile), so after a reconnect storm the
closed sockets' garbage stayed: a storm of 2,000 sockets added about 40 MB that never came
back, storm after storm (docs/benchmarks.md, "A web process's memory after storms").

:class:`ClosedSocketsCollector` counts the sockets open and those closed since the last
full collection, and once the closed outnumber the open (and are at least
``FT_GC_CLOSED_SOCKETS``) runs one, a second after the close that tipped it (a burst of
closes is collected once), checking again then (a reconnect storm's sockets are back by
then: nothing is collected during it). So the garbage kept is never more than about the
open sockets' own objects, and each collection walks at most about twice those: its pause
is bounded by the process's sockets, where the default thresholds' full collection came
after some ten million allocations whatever it then had to walk. After a collection of
this kind the C allocator is asked to give its free pages back (``ftsite.allocator``:
jemalloc's purge, or glibc's ``malloc_trim``), so the process's RSS falls too, not only
what Python holds.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from typing import Any

from django.conf import settings

from ftsite.allocator import ALLOCATOR

logger = logging.getLogger(__name__)

# A collection a second after the close that asked for it: the closes of a burst coalesce.
DELAY_SECONDS = 1.0


class ClosedSocketsCollector:
    """ASGI middleware around a process's websocket application (see the module)."""

    def __init__(self, app: Any, *, minimum: int | None = None) -> None:
        self.app = app
        self.minimum = settings.FT_GC_CLOSED_SOCKETS if minimum is None else minimum
        self.open = 0
        self.closed = 0  # since the last full collection, whoever ran it
        self.collections = 0  # this middleware's own
        self._due: asyncio.TimerHandle | None = None
        gc.callbacks.append(self._seen)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.open += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open -= 1
            self.closed += 1
            if self.minimum and self._due is None and self.garbage_dominates():
                self._due = asyncio.get_running_loop().call_later(DELAY_SECONDS, self._collect)

    def garbage_dominates(self) -> bool:
        return self.closed >= max(self.minimum, self.open)

    def _seen(self, phase: str, info: dict[str, int]) -> None:
        # Any full collection (the thresholds' own too) frees the closed sockets' garbage.
        if phase == "stop" and info["generation"] == 2:
            self.closed = 0

    def _collect(self) -> None:
        self._due = None
        if not self.garbage_dominates():  # the sockets came back meanwhile
            return
        # Wall and CPU time: on a busy machine the wall time is mostly waiting for a core.
        started, cpu, closed = time.perf_counter(), time.thread_time(), self.closed
        freed = gc.collect()
        collected, collected_cpu = time.perf_counter(), time.thread_time()
        if ALLOCATOR.release is not None:
            ALLOCATOR.release()
        self.collections += 1
        logger.info(
            "closed sockets: %d closed, %d open; a full collection freed %d objects in %.0f ms"
            " (%.0f ms of CPU; %s's release of free pages %.0f ms more)",
            closed, self.open, freed, 1000 * (collected - started), 1000 * (collected_cpu - cpu),
            ALLOCATOR.name, 1000 * (time.perf_counter() - collected),
        )  # fmt: skip
