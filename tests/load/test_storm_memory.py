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
    def process(base: float, held: list[float], after: list[float]) -> dict:
        return {"base": base, "held": held, "after": after, "failed": 0}

    rows = [
        {"game": process(100, [150, 152], [101, 103]), "echo": process(90, [95, 95], [90, 90])},
        {"game": process(110, [170, 171], [112, 112]), "echo": process(92, [99, 98], [93, 92])},
        {"game": process(105, [160, 160], [105, 108]), "echo": process(91, [96, 96], [91, 91])},
    ]
    table = storm_memory.report(rows, argparse.Namespace(sockets=2000, storms=2))
    assert (
        "| game, storm 1 | 100.0 / 105.0 / 110.0 | 50.0 / 55.0 / 60.0 | 0.0 / 1.0 / 2.0 |" in table
    )
    assert "| echo, storm 2 | 90.0 / 91.0 / 92.0 | 5.0 / 5.0 / 6.0 | 0.0 / 0.0 / 0.0 |" in table
