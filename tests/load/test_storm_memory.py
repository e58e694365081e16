"""load.storm_memory reads a process's RSS from /proc and tabulates each storm's memory
above the process's base, min/median/max over fresh processes."""

from __future__ import annotations

import argparse
import os

from load import storm_memory


def test_it_reads_this_processs_resident_set() -> None:
    held = bytearray(32 * 1024 * 1024)  # touched: resident
    assert storm_memory.rss(os.getpid()) > len(held)


def test_the_table_gives_each_storm_above_its_processs_base() -> None:
    def process(base: float, held: list[float], after: list[float], collections: int) -> dict:
        return {"base": base, "held": held, "after": after, "failed": 0, "collections": collections}

    def repeat(game: dict, off: dict, echo: dict) -> dict:
        return {"game": game, "game, collection off": off, "echo": echo}

    rows = [
        repeat(process(100, [150, 152], [101, 103], 2), process(100, [150, 190], [150, 190], 0),
               process(90, [95, 95], [90, 90], 1)),
        repeat(process(110, [170, 171], [112, 112], 3), process(101, [151, 191], [151, 191], 0),
               process(92, [99, 98], [93, 92], 1)),
        repeat(process(105, [160, 160], [105, 108], 2), process(102, [152, 192], [152, 192], 0),
               process(91, [96, 96], [91, 91], 2)),
    ]  # fmt: skip
    kinds = ["game", "game, collection off", "echo"]
    table = storm_memory.report(rows, argparse.Namespace(sockets=2000, storms=2, kinds=kinds))
    game = "| game, storm 1 | 100.0 / 105.0 / 110.0 | 50.0 / 55.0 / 60.0 | 0.0 / 1.0 / 2.0 |"
    assert f"{game} 2 / 2 / 3 |" in table
    assert "| game, collection off, storm 2 | 100.0 / 101.0 / 102.0 | 90.0 / 90.0 / 90.0 |" in table
    assert "| echo, storm 2 | 90.0 / 91.0 / 92.0 | 5.0 / 5.0 / 6.0 | 0.0 / 0.0 / 0.0 |" in table


def test_the_servers_collections_are_counted_from_its_log(tmp_path) -> None:
    from types import SimpleNamespace

    from load import stack

    log = tmp_path / "server.log"
    line = "closed sockets: 600 closed, 0 open; a full collection freed 90 objects in 3 ms\n"
    log.write_text("started\n" + line * 2)
    server = SimpleNamespace(log=log)
    assert stack.log_signs([server], [0]) == {"socket_collections": 2}  # type: ignore[list-item]


def test_every_default_kind_is_a_kind() -> None:
    assert set(storm_memory.DEFAULT_KINDS) <= {kind for kind, _, _ in storm_memory.KINDS}


def test_the_probe_splits_the_resident_set_and_names_the_mappings(tmp_path, monkeypatch) -> None:
    import tracemalloc

    from load import memory_probe

    monkeypatch.setenv("LOAD_MEMORY_PROBE", str(tmp_path / "probe.jsonl"))
    monkeypatch.setattr(memory_probe, "_first", [])
    tracemalloc.start()
    try:
        first = memory_probe.probe()
        kept = [bytearray(1000) for _ in range(100)]
        second = memory_probe.probe()
    finally:
        tracemalloc.stop()
    assert first["rss_kb"]["heap"] + first["rss_kb"]["anon"] > 0 and "grown" not in first
    assert second["traced_mb"] >= first["traced_mb"] and second["grown"] and kept
    assert {"arena", "uordblks", "fordblks"} <= set(second["malloc_mib"])


def test_the_probe_answers_the_harness_from_another_process(tmp_path) -> None:
    import subprocess
    import sys
    import time

    path = tmp_path / "probe.jsonl"
    code = "import load.memory_probe, time; print('ready', flush=True); time.sleep(30)"
    env = dict(os.environ, LOAD_MEMORY_PROBE=str(path))
    child = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == b"ready"
        started = time.monotonic()
        line = storm_memory.ask_probe(child.pid, path)
        assert line["gc_tracked"] > 0 and time.monotonic() - started < 10
    finally:
        child.kill()
        child.wait()
