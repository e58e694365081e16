"""ftsite.allocator: which C allocator a process runs on, its call that hands free pages
back, and the closed sockets' collection making that call; the metric that says which."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import subprocess
import sys

import pytest

from ftsite import allocator, closed_sockets
from ftsite.allocator import Allocator, allocator_detect
from ftsite.closed_sockets import ClosedSocketsCollector
from ftsite.metrics import AllocatorCollector
from tests.support.servers import JEMALLOC, ROOT, WEB_ALLOCATOR_ENV, web_env

PROBE = (
    "import json; from ftsite.allocator import ALLOCATOR as a;"
    " print(json.dumps([a.name, a.objects, a.release is not None and a.release()]))"
)


def detected(extra: dict[str, str]) -> list:
    """What a fresh interpreter with ``extra`` in its environment finds (and its release's
    return value: 0 is jemalloc's success, 1 glibc's "pages returned")."""
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "PYTHONMALLOC")}
    answer = subprocess.run(
        [sys.executable, "-c", PROBE], env=env | extra, cwd=ROOT, capture_output=True, text=True
    )
    assert answer.returncode == 0, answer.stderr
    return list(json.loads(answer.stdout))


def test_a_bare_process_runs_on_glibc_with_pymalloc() -> None:
    assert detected({})[:2] == ["glibc", "pymalloc"]


@pytest.mark.skipif(not JEMALLOC.exists(), reason="Debian's libjemalloc2 is not installed")
def test_the_socket_processes_environment_runs_on_jemalloc_and_purges() -> None:
    # the environment compose.yaml and the test tiers give a daphne process
    assert detected(WEB_ALLOCATOR_ENV) == ["jemalloc", "malloc", 0]


def test_a_missing_preload_falls_back_to_glibc() -> None:
    # ld.so warns and goes on: the process must still start, on the allocator it has
    name, objects, _ = detected({"LD_PRELOAD": "libnot-there.so.9", "PYTHONMALLOC": "malloc"})
    assert (name, objects) == ("glibc", "malloc")


def test_the_harness_gives_only_daphne_the_allocator_and_lets_a_run_override_it() -> None:
    env = {"PATH": "/usr/bin"}
    if JEMALLOC.exists():
        assert web_env(env) == env | WEB_ALLOCATOR_ENV
    else:
        assert web_env(env) == env
    assert web_env(env | {"LD_PRELOAD": ""})["LD_PRELOAD"] == ""


def test_it_names_no_release_where_the_library_has_none(monkeypatch: pytest.MonkeyPatch) -> None:
    class Bare:
        pass

    monkeypatch.setattr(allocator.ctypes, "CDLL", lambda name: Bare())
    assert allocator_detect().name == "other" and allocator_detect().release is None


def test_a_collection_of_closed_sockets_hands_the_pages_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []
    monkeypatch.setattr(
        closed_sockets, "ALLOCATOR", Allocator("jemalloc", "malloc", lambda: calls.append(1))
    )
    monkeypatch.setattr(closed_sockets, "DELAY_SECONDS", 0.01)
    release = asyncio.Event()

    async def socket(scope: dict, receive: object, send: object) -> None:
        await release.wait()

    collector = ClosedSocketsCollector(socket, minimum=3)
    gc.disable()  # the thresholds' own collections would reset the count first
    try:

        async def storm() -> None:
            tasks = [asyncio.create_task(collector({}, None, None)) for _ in range(5)]
            await asyncio.sleep(0)
            release.set()
            await asyncio.gather(*tasks)
            await asyncio.sleep(0.1)

        asyncio.run(storm())
    finally:
        gc.enable()
        gc.callbacks.remove(collector._seen)
    assert collector.collections == 1 and calls == [1]


def test_the_metric_names_the_allocator(monkeypatch: pytest.MonkeyPatch) -> None:
    from ftsite import metrics

    monkeypatch.setattr(metrics, "ALLOCATOR", Allocator("jemalloc", "malloc", None))
    (family,) = AllocatorCollector().collect()
    assert family.name == "ft_allocator"
    assert [(s.labels, s.value) for s in family.samples] == [
        ({"c": "jemalloc", "objects": "malloc"}, 1)
    ]
