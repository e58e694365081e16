"""Solver work away from the thread that serves moves.

Every database call of a server process's sockets runs on one thread
(``database_sync_to_async``), so a second of solving a hint there held up every move of
every player on that process. A hint's search runs instead in a small pool of its own
processes (``FT_SOLVER_PROCESSES``, started on first use; ``spawn``, so nothing of the
server's threads or connections is copied), or, with ``FT_SOLVER_PROCESSES=0`` (tests, the
embedded defaults), in a worker thread that is not the database thread.

The pool's processes die with the server process (issue 37: after a kill -9 of a web
process its pool lived on under PID 1). Each watches its parent from a thread of its own
and ends when the parent is gone, and takes SIGTERM's default (end) whatever it inherited.
Not ``prctl(PR_SET_PDEATHSIG)``: Linux sends that signal when the *thread* that started the
child ends, and the pool starts its processes from whichever thread submits work (a hint's
thread, the pool's own manager thread), so a pool process would be killed under a live
server when that thread ended, breaking the pool for every player.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from django.conf import settings

from games import metrics
from games.engine import GameState
from games.outcomes import DeadEndCheck
from games.solver import hint, is_dead

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_executor: Executor | None = None


def hint_for_state(state: dict[str, Any], seconds: float) -> str | None:
    """The solver's hint for an engine dump (runs in the pool: pure, no Django)."""
    return hint(GameState.load(state), max_seconds=seconds)


#: How often a pool process looks for its parent: an orphan ends within this.
PARENT_CHECK_SECONDS = 0.5


def _child_start(nice: int, parent: int) -> None:
    """Each pool process's start (the pool's initializer): die with ``parent`` (see the
    module), honour SIGTERM, and run the searches below the server's own priority (on a
    machine with few cores a storm of hints then waits for the moves, not the moves for
    the hints)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    if os.getppid() != parent:  # the server died while this process was starting
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="parent-watch", daemon=True).start()
    os.nice(nice)


def _watch_parent(parent: int) -> None:
    """End this process once ``parent`` is gone (it is then a child of another process):
    nobody is left to read its answers, and a search may run for seconds more."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)  # at once, from this thread: the search on the main thread never returns


def solver_executor() -> Executor:
    """The process's solver pool, made on first use."""
    global _executor
    with _lock:
        if _executor is None:
            processes = settings.FT_SOLVER_PROCESSES
            if processes > 0:
                context = multiprocessing.get_context("spawn")
                _executor = ProcessPoolExecutor(
                    max_workers=processes,
                    mp_context=context,
                    initializer=_child_start,
                    initargs=(settings.FT_SOLVER_NICE, os.getpid()),
                )
            else:
                _executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="solver")
        return _executor


def hint_in_pool(state: dict[str, Any], seconds: float) -> str | None:
    """Solve a hint in the pool, waiting for it (``game_hint``, on a thread of its own)."""
    with metrics.SOLVER_JOBS.labels("hint").track_inprogress():
        return solver_executor().submit(hint_for_state, state, seconds).result()


# Dead-end checks -------------------------------------------------------------------------

Verdict = bool | None


def dead_end_for_state(state: dict[str, Any], seconds: float, nodes: int) -> Verdict:
    """The solver's dead-end verdict for an engine dump (runs in the pool: pure, no Django)."""
    return is_dead(GameState.load(state), max_seconds=seconds, max_nodes=nodes or None)


class DeadEndQueue:
    """Dead-end checks for the solver pool, bounded so that no crowd can queue up work.

    One check per game at a time: a newer position of a game whose check is running waits
    in its place (replacing any older one waiting: only the latest position matters). At
    most ``running`` checks at once in all, and ``waiting`` more; past that a check is
    skipped, which costs only the courtesy of the notice (the next move asks again).
    """

    def __init__(self, *, running: int, waiting: int) -> None:
        self.running, self.waiting = running, waiting
        self._lock = threading.Lock()
        self._busy: set[str] = set()  # games with a check in the pool
        self._next: dict[str, tuple[DeadEndCheck, Callable[[DeadEndCheck, Verdict], None]]] = {}

    def submit(self, check: DeadEndCheck, then: Callable[[DeadEndCheck, Verdict], None]) -> bool:
        """Queue ``check``; ``then(check, verdict)`` is called in a pool thread when it is
        decided. Returns False when it was skipped."""
        with self._lock:
            if check.game_id in self._busy or len(self._busy) >= self.running:
                if check.game_id not in self._next and len(self._next) >= self.waiting:
                    metrics.SOLVER_SKIPPED.inc()
                    return False
                self._next[check.game_id] = (check, then)
                self._gauge()
                return True
            self._busy.add(check.game_id)
            self._gauge()
        self._start(check, then)
        return True

    def _gauge(self) -> None:
        """The pool's use, for the operator (under the lock)."""
        metrics.SOLVER_JOBS.labels("dead_end").set(len(self._busy))
        metrics.SOLVER_WAITING.set(len(self._next))

    def _start(self, check: DeadEndCheck, then: Callable[[DeadEndCheck, Verdict], None]) -> None:
        try:
            future = solver_executor().submit(
                dead_end_for_state,
                check.state,
                settings.FT_DEAD_END_MS / 1000,
                settings.FT_DEAD_END_NODES,
            )
        except RuntimeError:  # the pool is shutting down (the process is ending)
            logger.warning(
                "no dead-end check for game %s: the solver pool is closed", check.game_id
            )
            with self._lock:
                self._busy.discard(check.game_id)
                self._gauge()
            return
        future.add_done_callback(lambda done: self._finished(check, then, done))

    def _finished(
        self,
        check: DeadEndCheck,
        then: Callable[[DeadEndCheck, Verdict], None],
        done: Future[Verdict],
    ) -> None:
        try:
            then(check, None if done.exception() else done.result())
        except Exception:
            logger.exception("recording the dead-end verdict of game %s failed", check.game_id)
        with self._lock:
            self._busy.discard(check.game_id)
            waiting = self._next.pop(check.game_id, None)
            if waiting is None and self._next and len(self._busy) < self.running:
                waiting = self._next.pop(next(iter(self._next)))
            if waiting is not None:
                self._busy.add(waiting[0].game_id)
            self._gauge()
        if waiting is not None:
            self._start(*waiting)


_queue: DeadEndQueue | None = None


def dead_end_queue() -> DeadEndQueue:
    """The process's dead-end queue, made on first use."""
    global _queue
    with _lock:
        if _queue is None:
            running = max(1, settings.FT_SOLVER_PROCESSES)
            _queue = DeadEndQueue(running=running, waiting=settings.FT_DEAD_END_WAITING)
        return _queue
