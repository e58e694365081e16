"""A web process's memory after storms of sockets (issue 37: "a web process keeps the memory
of 5,000 closed sockets"). One daphne process, the whole socket stack (daphne, Channels,
channels_redis, the game consumer and its live games): ``--storms`` storms of ``--sockets``
game sockets one after another, each storm's sockets all open until the last has its
``hello``, then closed; the process's RSS (``/proc``) is read

* ``base``: after a first small storm warmed the process (imports, pools, caches);
* ``held``: each storm's sockets open, every game live;
* ``after``: ``--settle`` seconds after the storm's sockets closed, the live games' sweeper
  having dropped the idle ones (``FT_LIVE_IDLE_SECONDS`` set to ``--idle`` for the run).

Beside it, in the same run, each on a fresh process (``--kinds``, :data:`KINDS`): the
process on Python's and glibc's allocators (``game, pymalloc``: before the socket
processes ran on jemalloc), and that with the closed sockets' collection turned off too
(``FT_GC_CLOSED_SOCKETS=0``: the process before ``ftsite.closed_sockets``), and the echo
consumer, which keeps nothing of a socket, so what its RSS keeps is the socket stack's own
share. ``--probe`` asks each process what it holds (``load.memory_probe``).

    nice -n 10 .venv/bin/python -m load.storm_memory --sockets 2000 --storms 3 --repeat 3

Target (issue 37): the memory returns after the sockets close: ``after`` within a few MB
of ``base`` and not growing from storm to storm.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from load import stack
from load.reconnect import storm
from load.stats import min_med_max
from tests.support.servers import WEB_ALLOCATOR_ENV

MB = 1024 * 1024


def rss(pid: int) -> int:
    """Process ``pid``'s resident set (bytes), from ``/proc/<pid>/status``."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for {pid}")


async def sampled(work: Any, pid: int, into: list[int]) -> Any:
    """Await ``work`` while reading ``pid``'s RSS into ``into`` every 50 ms: every socket of
    a storm is open at its peak, before :func:`storm` closes them and returns."""

    async def sample() -> None:
        while True:
            into.append(rss(pid))
            await asyncio.sleep(0.05)

    sampler = asyncio.create_task(sample())
    try:
        return await work
    finally:
        sampler.cancel()


# Python's and glibc's allocators, as a process runs without the socket processes' preload;
# and jemalloc as the socket processes preload it, but on its own defaults.
BEFORE = dict.fromkeys(WEB_ALLOCATOR_ENV, "")
JEMALLOC = WEB_ALLOCATOR_ENV | {"MALLOC_CONF": ""}
LEAN = ",narenas:1,tcache:false"  # one arena, no thread caches

# (row, echo consumer?, the process's environment on top of the run's). "game" is the
# process as compose.yaml runs it: on jemalloc (tests.support.servers.web_env) where
# Debian's libjemalloc2 is installed, as it is wherever redis-server is.
KINDS = (
    ("game", False, {}),
    # the allocators before issue 37's last change: pymalloc's arenas, glibc's malloc
    ("game, pymalloc", False, BEFORE),
    ("game, collection off", False, {"FT_GC_CLOSED_SOCKETS": "0", **BEFORE}),
    ("echo", True, {}),
    # Every allocation from glibc's malloc, not Python's arenas (1 MiB each, held while any
    # object in them lives): the pages of the storm's high-water mark that still hold one.
    ("game, system malloc", False, BEFORE | {"PYTHONMALLOC": "malloc"}),
    # One malloc arena for all threads (glibc makes up to 8 a core, each keeping its own
    # freed pages): whether the threads' arenas hold the rest.
    ("game, one malloc arena", False, {"MALLOC_ARENA_MAX": "1", **BEFORE}),
    # jemalloc on its defaults: dirty pages returned over 10 s, and only while it is
    # called, so what the live games free after the collection's purge stays meanwhile
    ("game, jemalloc, defaults", False, JEMALLOC),
    # jemalloc without thread caches and with one arena: a little less kept, more CPU a move
    (
        "game, jemalloc, lean",
        False,
        WEB_ALLOCATOR_ENV | {"MALLOC_CONF": WEB_ALLOCATOR_ENV["MALLOC_CONF"] + LEAN},
    ),
    # Debian's libmimalloc2.0 (not installed with redis-server: apt-get install it)
    ("game, mimalloc", False, JEMALLOC | {"LD_PRELOAD": "libmimalloc.so.2"}),
    # Every Python allocation traced (one frame each): with --probe, how much of what stays
    # after a storm is Python's, and which source lines hold it.
    ("game, traced", False, {"PYTHONTRACEMALLOC": "1", **BEFORE}),
)
DEFAULT_KINDS = ("game", "game, pymalloc", "game, collection off", "echo")


def one_process(
    args: argparse.Namespace, env: dict[str, str], targets: list[tuple[str, str]], echo: bool
) -> dict[str, Any]:
    """A fresh process: the warm-up, then ``args.storms`` storms; RSS at each step (MB)."""
    probes = stack.RESULTS / f"memory-probe-{time.time_ns()}.jsonl"
    if args.probe:
        env = env | {"LOAD_MEMORY_PROBE": str(probes)}
    (server,) = stack.start_servers(env, 1)
    address, pid = f"127.0.0.1:{server.port}", server.process.pid
    try:
        asyncio.run(storm(address, targets[: args.warm], args.at_once, echo))
        time.sleep(args.settle)
        row: dict[str, Any] = {"base": rss(pid) / MB, "held": [], "after": [], "failed": 0}
        if args.probe:
            row["probes"] = [ask_probe(pid, probes)]
        for _ in range(args.storms):
            held: list[int] = []
            figures = asyncio.run(sampled(storm(address, targets, args.at_once, echo), pid, held))
            row["failed"] += len(targets) - figures["connected"]
            time.sleep(args.settle)
            row["held"].append(max(held) / MB)
            row["after"].append(rss(pid) / MB)
            if args.probe:
                row["probes"].append(ask_probe(pid, probes))
            print(f"  {'echo' if echo else 'game'}: {row}", flush=True)
        row["collections"] = stack.log_signs([server], [0]).get("socket_collections", 0)
        return row
    finally:
        stack.stop_all([server])


def ask_probe(pid: int, path: Path) -> dict[str, Any]:
    """``load.memory_probe``'s figures from process ``pid`` (its next line in ``path``)."""
    seen = path.read_text().count("\n") if path.exists() else 0
    os.kill(pid, signal.SIGUSR1)
    deadline = time.monotonic() + 60  # a traced snapshot of a big heap takes seconds
    while time.monotonic() < deadline:
        lines = path.read_text().splitlines() if path.exists() else []
        if len(lines) > seen:
            try:
                return dict(json.loads(lines[seen]))
            except json.JSONDecodeError:  # still being written
                pass
        time.sleep(0.2)
    raise RuntimeError(f"process {pid} did not answer its memory probe within 60 s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m load.storm_memory",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add = parser.add_argument
    add("--sockets", type=int, default=2000)
    add("--storms", type=int, default=3, help="storms on each process")
    add("--repeat", type=int, default=3, help="fresh processes of each kind")
    add("--at-once", type=int, default=50, help="handshakes in flight")
    add("--warm", type=int, default=100, help="sockets of the warm-up storm")
    add("--idle", type=float, default=4.0, help="FT_LIVE_IDLE_SECONDS for the run")
    add("--settle", type=float, default=10.0, help="seconds after a storm before reading")
    add("--database-url", default=stack.DATABASE_URL)
    add("--redis-url", default=stack.REDIS_URL)
    add("--json", type=Path, default=stack.RESULTS / "storm-memory.json")
    add("--probe", action="store_true", help="each process's own figures (load.memory_probe)")
    add("--kinds", nargs="+", choices=[k for k, _, _ in KINDS], default=list(DEFAULT_KINDS))
    args = parser.parse_args(argv)
    if args.settle <= args.idle * 1.25 + 1:
        parser.error("--settle must outlast --idle and the sweeper's wake-up (idle / 4)")
    env = stack.load_env(args.database_url, args.redis_url, FT_LIVE_IDLE_SECONDS=f"{args.idle:g}")
    stack.stack_up(env)
    from load.players import make_players

    targets = [(p.game_id, p.cookie) for p in make_players(args.sockets)]
    rows = [
        {
            kind: one_process(args, env | extra, targets, echo)
            for kind, echo, extra in KINDS
            if kind in args.kinds
        }
        for _ in range(args.repeat)
    ]
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(rows, indent=1))
    print(report(rows, args))
    failed = sum(r[k]["failed"] for r in rows for k in r)
    print(f"load average after: {os.getloadavg()[0]:.1f}; sockets that failed: {failed}")
    return 1 if failed else 0


def report(rows: list[dict[str, Any]], args: argparse.Namespace) -> str:
    """A row a consumer and storm: MB above the process's base, min / median / max over the
    repeats (each repeat a fresh process)."""
    lines = [
        f"| {args.sockets:,} sockets a storm | base RSS MB | held, above base"
        " | after, above base | full collections of closed sockets, whole run |",
        "|---|---|---|---|---|",
    ]
    for kind in args.kinds:
        base = min_med_max([r[kind]["base"] for r in rows], "{:.1f}")
        collections = min_med_max([r[kind].get("collections", 0) for r in rows])
        for n in range(args.storms):
            held, after = (
                min_med_max([r[kind][key][n] - r[kind]["base"] for r in rows], "{:.1f}")
                for key in ("held", "after")
            )
            lines.append(f"| {kind}, storm {n + 1} | {base} | {held} | {after} | {collections} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
