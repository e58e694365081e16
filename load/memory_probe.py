"""What a benchmark's server process holds, on request (``load.storm_memory --probe``):
``SIGUSR1`` appends one JSON line to the file named by ``LOAD_MEMORY_PROBE``.

Each line: the resident set split by kind of mapping (``/proc/self/smaps``: the main heap,
anonymous mappings, files), the objects the collector tracks, Python's own allocator
(``sys._debugmallocstats`` would print; here pymalloc's arenas as counted by
``sys.getallocatedblocks``), and, when the process was started with tracemalloc
(``PYTHONTRACEMALLOC=1``), the traced bytes and the source lines that hold most more than
at the first probe. What the process keeps after a storm is then either Python's (traced,
and where) or below it (untraced: C libraries, the allocator's fragmentation).

Never loaded by the site: only ``load.asgi`` installs it, and only when the variable is set.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import json
import os
import signal
import sys
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any

_first: list[tracemalloc.Snapshot] = []

# a mapping of /proc/self/smaps: start, end, permissions, name ("" if anonymous), Rss kB
Mapping = tuple[int, int, str, str, int]


def _mappings() -> list[Mapping]:
    """``/proc/self/smaps`` once: each mapping's start, end, permissions, name ("" for an
    anonymous one) and resident kB."""
    out: list[Mapping] = []
    head: list[str] = []
    for line in Path("/proc/self/smaps").read_text().splitlines():
        first = line.split(maxsplit=1)[0]
        if "-" in first and not first.endswith(":"):
            head = line.split()
        elif first == "Rss:" and head:
            start, end = (int(x, 16) for x in head[0].split("-"))
            name = head[5] if len(head) > 5 else ""
            out.append((start, end, head[1], name, int(line.split()[1])))
    return out


def _kind(name: str) -> str:
    if name == "[heap]":
        return "heap"
    if name.startswith("[stack"):
        return "stack"
    return "file" if name.startswith("/") else "anon"


def _smaps(maps: list[Mapping]) -> tuple[dict[str, int], dict[str, list[int]]]:
    """Resident kB by kind of mapping: ``heap`` (brk), ``anon`` (anonymous mmaps: malloc's
    other arenas, its large blocks, pymalloc's arenas, thread stacks), ``file``; and the
    anonymous mappings by size (a pymalloc arena is 1 MiB, a thread's malloc heap up to
    64 MiB, a thread's stack 8 MiB): size in MiB -> [mappings, resident kB]."""
    kinds = {"heap": 0, "anon": 0, "file": 0, "stack": 0}
    sizes: dict[str, list[int]] = {}
    for start, end, _, name, kb in maps:
        kind = _kind(name)
        kinds[kind] += kb
        if kind == "anon" and kb:
            entry = sizes.setdefault(f"{(end - start) / 2**20:.0f}", [0, 0])
            entry[0] += 1
            entry[1] += kb
    return kinds, sizes


def _big_anonymous(maps: list[Mapping], least_kb: int = 2048) -> list[str]:
    """The anonymous mappings holding ``least_kb`` or more: address, size, permissions and
    the next mapping's (a thread's malloc heap is followed by its reserved, inaccessible
    rest, ``---p``; pymalloc's adjacent 1 MiB arenas merge into one mapping)."""
    out = []
    for n, (start, end, perms, name, rss) in enumerate(maps):
        if name or rss < least_kb:  # named: a file, the heap, a stack
            continue
        nxt = ""
        if n + 1 < len(maps):
            a, b, after, _, _ = maps[n + 1]
            nxt = f"{after} {(b - a) / 2**20:.1f}MiB{' adjacent' if a == end else ''}"
        size = (end - start) / 2**20
        out.append(f"{start:x}-{end:x} {size:.1f}MiB {perms} rss {rss}kB; next {nxt}")
    return out


class _Mallinfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd",
            "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost",
        )
    ]  # fmt: skip


def _malloc() -> dict[str, Any]:
    """glibc's own account of every malloc arena (``mallinfo2``): bytes in use and free in
    its heaps, in its large blocks; and ``malloc_info``'s per-arena lines, written to a
    file beside the probes."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    if not hasattr(libc, "mallinfo2"):
        return {}
    libc.mallinfo2.restype = _Mallinfo2
    info = libc.mallinfo2()
    names = ("arena", "uordblks", "fordblks", "keepcost", "hblkhd")
    figures: dict[str, Any] = {f: round(getattr(info, f) / 2**20, 2) for f in names}
    path = os.environ["LOAD_MEMORY_PROBE"] + f".malloc-{time.time_ns()}.xml"
    libc.fopen.restype = ctypes.c_void_p
    libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
    libc.fclose.argtypes = [ctypes.c_void_p]
    handle = libc.fopen(path.encode(), b"w")
    if handle:
        libc.malloc_info(0, handle)
        libc.fclose(handle)
        figures["info"] = path
    return figures


def probe() -> dict[str, Any]:
    """One line of figures (see the module's docstring)."""
    maps = _mappings()
    kinds, sizes = _smaps(maps)
    line: dict[str, Any] = {
        "at": time.time(),
        "rss_kb": kinds,
        "anon_by_mib": sizes,
        "big_anon": _big_anonymous(maps),
        "malloc_mib": _malloc(),
        "threads": threading.active_count(),
        "gc_tracked": len(gc.get_objects()),
        "allocated_blocks": sys.getallocatedblocks(),
    }
    if tracemalloc.is_tracing():
        current, peak = tracemalloc.get_traced_memory()
        line["traced_mb"] = round(current / 2**20, 2)
        line["traced_peak_mb"] = round(peak / 2**20, 2)
        snapshot = tracemalloc.take_snapshot()
        if not _first:
            _first.append(snapshot)
        else:
            growth = snapshot.compare_to(_first[0], "lineno")
            line["grown"] = [
                [str(stat.traceback), round(stat.size_diff / 1024), stat.count_diff]
                for stat in growth[:15]
            ]
    return line


def install(path: str) -> None:
    """Append a :func:`probe` to ``path`` on every ``SIGUSR1``."""

    def answer(signum: int, frame: Any) -> None:
        with open(path, "a") as out:
            out.write(json.dumps(probe()) + "\n")

    signal.signal(signal.SIGUSR1, answer)


if os.environ.get("LOAD_MEMORY_PROBE"):
    install(os.environ["LOAD_MEMORY_PROBE"])
