"""The solver pool's processes die with their server process (issue 37: after a kill -9
of a web process its pool processes lived on under PID 1). A real process makes the pool
(``spawn``, as deployed) and prints its processes' ids; the test kills it with SIGKILL and
waits (bounded, not timed) for them to be gone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from games.runtime import solver_pool

ROOT = Path(__file__).resolve().parents[3]

# Run with -c (no main module: ``spawn`` would import a script's file again in each child).
MAKE_POOL = """
import os, sys, time
import django
django.setup()
from django.conf import settings
settings.FT_SOLVER_PROCESSES = 2
from games.runtime import solver_pool
pool = solver_pool.solver_executor()
for done in [pool.submit(time.sleep, 0.3) for _ in range(2)]:
    done.result()
print(" ".join(map(str, pool._processes)), flush=True)
time.sleep(300)
"""


def alive(pid: int) -> bool:
    """Running (a zombie nobody reaped yet is dead: PID 1 here may not reap)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    state = next(line for line in status.splitlines() if line.startswith("State:"))
    return "Z" not in state.split()[1]


def gone_within(pids: list[int], seconds: float) -> list[int]:
    """The processes of ``pids`` still running after waiting up to ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.1)
    return [p for p in pids if alive(p)]


@pytest.fixture
def pool_owner() -> Iterator[tuple[subprocess.Popen[str], list[int]]]:
    """A process with a solver pool of two processes, and their ids."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "ftsite.settings"}
    owner = subprocess.Popen(
        [sys.executable, "-c", MAKE_POOL], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    assert owner.stdout is not None
    line = owner.stdout.readline()
    children = [int(pid) for pid in line.split()]
    try:
        assert len(children) == 2, f"the pool did not start: {line!r}"
        yield owner, children
    finally:
        owner.kill()
        owner.wait(timeout=10)
        for pid in children:  # never leave one behind, whatever the test found
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_the_pool_s_processes_end_when_their_server_is_killed_with_sigkill(
    pool_owner: tuple[subprocess.Popen[str], list[int]],
) -> None:
    owner, children = pool_owner
    assert all(alive(pid) for pid in children)
    owner.kill()  # kill -9: no exit handler, no shutdown of the pool
    owner.wait(timeout=10)
    assert gone_within(children, 10 * solver_pool.PARENT_CHECK_SECONDS + 5) == []


def test_a_pool_process_ends_on_sigterm(
    pool_owner: tuple[subprocess.Popen[str], list[int]],
) -> None:
    _, children = pool_owner
    os.kill(children[0], signal.SIGTERM)
    assert gone_within(children[:1], 10) == []


def test_a_pool_process_started_after_its_server_died_ends_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The race the watch cannot see: the parent gone before the process's start ran."""
    ended: list[int] = []

    def exit_instead(code: int) -> None:
        ended.append(code)
        raise SystemExit(code)

    monkeypatch.setattr(solver_pool.os, "_exit", exit_instead)
    monkeypatch.setattr(solver_pool.os, "nice", lambda nice: 0)
    monkeypatch.setattr(solver_pool.signal, "signal", lambda *args: None)  # not pytest's own
    monkeypatch.setattr(solver_pool.signal, "pthread_sigmask", lambda *args: set())
    with pytest.raises(SystemExit):
        solver_pool._child_start(5, os.getppid() + 10**6)  # not this process's parent
    assert ended == [1]
