"""A web process's memory after storms of sockets (issue 37: "a web process keeps the memory
of 5,000 closed sockets"). One daphne process, the whole socket stack (daphne, Channels,
channels_redis, the game consumer and its live games): ``--storms`` storms of ``--sockets``
game sockets one after another, each storm's sockets all open until the last has its
``hello``, then closed; the process's RSS (``/proc``) is read

* ``base``: after a first small storm warmed the process (imports, pools, caches);
* ``held``: each storm's sockets open, every game live;
* ``after``: ``--settle`` seconds after the storm's sockets closed, the live games' sweeper
  having dropped the idle ones (``FT_LIVE_IDLE_SECONDS`` set to ``--idle`` for the run).

Beside it, in the same run, each on a fresh process: the same storms with the closed
sockets' collection turned off (``FT_GC_CLOSED_SOCKETS=0``, the process as it was before
``ftsite.closed_sockets``: the baseline), and on the echo consumer, which keeps nothing of a
socket, so what its RSS keeps is the socket stack's own share.

    nice -n 10 .venv/bin/python -m load.storm_memory --sockets 2000 --storms 3 --repeat 3

Target (issue 37): the memory returns after the sockets close: ``after`` within a few MB
of ``base`` and not growing from storm to storm.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from load import stack
from load.reconnect import storm
from load.stats import min_med_max

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


# (row, echo consumer?, the process's environment on top of the run's)
KINDS = (
    ("game", False, {}),
    ("game, collection off", False, {"FT_GC_CLOSED_SOCKETS": "0"}),
    ("echo", True, {}),
    # Every allocation from the C library's malloc, not Python's arenas (1 MiB each, held
    # while any object in them lives): what is left of a storm's high-water mark is those.
    ("game, system malloc", False, {"PYTHONMALLOC": "malloc"}),
    # One malloc arena for all threads (glibc makes up to 8 a core, each keeping its own
    # freed pages): whether the threads' arenas hold the rest.
    ("game, one malloc arena", False, {"MALLOC_ARENA_MAX": "1"}),
)
DEFAULT_KINDS = ("game", "game, collection off", "echo")


def one_process(
    args: argparse.Namespace, env: dict[str, str], targets: list[tuple[str, str]], echo: bool
) -> dict[str, Any]:
    """A fresh process: the warm-up, then ``args.storms`` storms; RSS at each step (MB)."""
    (server,) = stack.start_servers(env, 1)
    address, pid = f"127.0.0.1:{server.port}", server.process.pid
    try:
        asyncio.run(storm(address, targets[: args.warm], args.at_once, echo))
        time.sleep(args.settle)
        row: dict[str, Any] = {"base": rss(pid) / MB, "held": [], "after": [], "failed": 0}
        for _ in range(args.storms):
            held: list[int] = []
            figures = asyncio.run(sampled(storm(address, targets, args.at_once, echo), pid, held))
            row["failed"] += len(targets) - figures["connected"]
            time.sleep(args.settle)
            row["held"].append(max(held) / MB)
            row["after"].append(rss(pid) / MB)
            print(f"  {'echo' if echo else 'game'}: {row}", flush=True)
        row["collections"] = stack.log_signs([server], [0]).get("socket_collections", 0)
        return row
    finally:
        stack.stop_all([server])


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
