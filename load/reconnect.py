"""A reconnect storm (issue 22): after a deploy, a restart or a network blip every player's
socket comes back at once. ``--sockets`` players (real sessions, a practice game each)
open their game's socket ``--at-once`` at a time against one daphne process, each counted
when its ``hello`` (the game's full state) has arrived; beside it the same number of
sockets to the echo consumer on the same process (counted at the handshake: echo says
nothing first).

Each repeat starts a fresh process and measures, in order:

* ``cold``: the first storm on the new process (a deploy: nothing loaded, nothing cached);
* ``warm``: the same sockets again once they have all closed (a network blip);
* ``echo``: the echo baseline.

    .venv/bin/python -m load.reconnect --sockets 1000 --at-once 50 --repeat 3
    .venv/bin/python -m load.reconnect --profile gil   # py-spy on the server's cold storm

Target (issue 22): >= 500 connects/s per process (1,000 in <= 2 s), cold and warm.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections import Counter
from pathlib import Path
from time import perf_counter
from typing import Any

from load import client, stack
from load.stats import min_med_max, percentile


async def storm(
    address: str, targets: list[tuple[str, str]], at_once: int, echo: bool
) -> dict[str, Any]:
    """Open one socket per (game id, cookie), ``at_once`` in flight; all are held open
    until the last has said hello, then closed. Returns the figures of the storm."""
    slots = asyncio.Semaphore(at_once)
    opened: list[Any] = []
    times: list[float] = []
    failures: Counter[str] = Counter()

    async def one(game_id: str, cookie: str) -> None:
        async with slots:
            started = perf_counter()
            try:
                path = client.ECHO_PATH if echo else f"/ws/games/{game_id}/"
                ws = await client.open_socket(address, path, cookie)
                opened.append(ws)
                if not echo:
                    hello = await client.hello_of(ws, 60)
                    assert "stock" in hello["game"] or "version" in hello["game"]
                times.append(perf_counter() - started)
            except Exception as err:  # noqa: BLE001 - counted, never raised
                failures[client.failure(err)] += 1

    began = perf_counter()
    await asyncio.gather(*(one(g, c) for g, c in targets))
    seconds = perf_counter() - began
    await asyncio.gather(*(ws.close() for ws in opened), return_exceptions=True)
    return {
        "sockets": len(targets),
        "connected": len(times),
        "failures": dict(failures),
        "seconds": round(seconds, 3),
        "per_s": round(len(times) / seconds, 1),
        "p50_ms": round(1000 * (percentile(times, 50) or 0), 1),
        "p99_ms": round(1000 * (percentile(times, 99) or 0), 1),
    }


def one_repeat(
    args: argparse.Namespace, env: dict[str, str], targets: list[tuple[str, str]], repeat: int
) -> dict[str, Any]:
    (server,) = stack.start_servers(env, 1)
    address = f"127.0.0.1:{server.port}"
    row: dict[str, Any] = {"repeat": repeat + 1}
    profile = None
    try:
        if args.profile and repeat == 0:
            out = stack.RESULTS / f"profile-reconnect-{args.profile}.speedscope.json"
            profile = stack.start_profile(server.process.pid, 20, out, args.profile)
            asyncio.run(asyncio.sleep(1.0))  # py-spy attaches
        for phase, echo in (("cold", False), ("warm", False), ("echo", True)):
            row[phase] = asyncio.run(storm(address, targets, args.at_once, echo))
            print(f"  run {repeat + 1} {phase}: {row[phase]}", flush=True)
            asyncio.run(asyncio.sleep(args.pause))  # the closes drain
    finally:
        if profile is not None:
            profile.wait(timeout=60)
        stack.stop_all([server])
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m load.reconnect",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add = parser.add_argument
    add("--sockets", type=int, default=1000)
    add("--at-once", type=int, default=50, help="handshakes in flight")
    add("--repeat", type=int, default=3)
    add("--pause", type=float, default=2.0, help="seconds between storms")
    add("--database-url", default=stack.DATABASE_URL)
    add("--redis-url", default=stack.REDIS_URL)
    add("--profile", choices=sorted(stack.PROFILE_MODES), help="py-spy the first cold storm")
    add("--json", type=Path, default=stack.RESULTS / "reconnect.json")
    args = parser.parse_args(argv)
    env = stack.load_env(args.database_url, args.redis_url)
    stack.stack_up(env)
    from load.players import make_players

    targets = [(p.game_id, p.cookie) for p in make_players(args.sockets)]
    rows = [one_repeat(args, env, targets, r) for r in range(args.repeat)]
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(rows, indent=1))
    print(f"| storm of {args.sockets} ({args.at_once} at once) | seconds | connects/s |")
    print("|---|---|---|")
    for phase in ("cold", "warm", "echo"):
        secs = min_med_max([r[phase]["seconds"] for r in rows])
        rates = min_med_max([r[phase]["per_s"] for r in rows])
        print(f"| {phase} | {secs} | {rates} |")
    worst = min(min(r["cold"]["per_s"], r["warm"]["per_s"]) for r in rows)
    failed = sum(sum(r[p]["failures"].values()) for r in rows for p in ("cold", "warm", "echo"))
    return 0 if worst >= 500 and not failed else 1


if __name__ == "__main__":
    sys.exit(main())
