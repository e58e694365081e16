"""Solver work away from the thread that serves moves.

Every database call of a server process's sockets runs on one thread
(``database_sync_to_async``), so a second of solving a hint there held up every move of
every player on that process. A hint's search runs instead in a small pool of its own
processes (``FT_SOLVER_PROCESSES``, started on first use; ``spawn``, so nothing of the
server's threads or connections is copied), or, with ``FT_SOLVER_PROCESSES=0`` (tests, the
embedded defaults), in a worker thread that is not the database thread.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from django.conf import settings

from games.engine import GameState
from games.solver import hint

_lock = threading.Lock()
_executor: Executor | None = None


def hint_for_state(state: dict[str, Any], seconds: float) -> str | None:
    """The solver's hint for an engine dump (runs in the pool: pure, no Django)."""
    return hint(GameState.load(state), max_seconds=seconds)


def solver_executor() -> Executor:
    """The process's solver pool, made on first use."""
    global _executor
    with _lock:
        if _executor is None:
            processes = settings.FT_SOLVER_PROCESSES
            if processes > 0:
                context = multiprocessing.get_context("spawn")
                _executor = ProcessPoolExecutor(max_workers=processes, mp_context=context)
            else:
                _executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="solver")
        return _executor


async def hint_async(state: dict[str, Any], seconds: float) -> str | None:
    """Solve a hint in the pool without blocking the event loop or the database thread."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(solver_executor(), hint_for_state, state, seconds)
