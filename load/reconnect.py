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

Target (issue 22): >= 500 connects/s per process (1,000 in <= 2 s), cold and warm. Exit
status: 1 if any socket failed or got no hello, 2 if all did but a storm was slower than
``--target``, else 0. ``cpu_ms`` is the server's CPU time per socket (from ``/proc``),
``loop_ms`` the part of it on the event loop (daphne's main thread) and ``threads_ms`` the
part on its other threads (the connect threads, mostly): where a cut would have to come
from (docs/benchmarks.md, "Session 12, second round").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections import Counter
from pathlib import Path
from time import perf_counter
from typing import Any

from load import client, stack
from load.stats import min_med_max, percentile


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) process ``pid`` has used so far (Linux ``/proc``): what
    a storm cost the server whatever else the machine was doing meanwhile."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def thread_cpu_seconds(pid: int) -> tuple[float, float]:
    """The CPU time process ``pid``'s main thread (daphne's event loop) and its other
    threads together have used so far; threads that ended meanwhile are in neither."""
    main = other = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended between the listing and the read
            continue
        seconds = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        if int(task.name) == pid:
            main += seconds
        else:
            other += seconds
    return main, other


async def storm(
    address: str,
    targets: list[tuple[str, str]],
    at_once: int,
    echo: bool,
    server_pid: int | None = None,
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

    cpu_before = cpu_seconds(server_pid) if server_pid else 0.0
    split_before = thread_cpu_seconds(server_pid) if server_pid else (0.0, 0.0)
    began = perf_counter()
    await asyncio.gather(*(one(g, c) for g, c in targets))
    seconds = perf_counter() - began
    cpu = cpu_seconds(server_pid) - cpu_before if server_pid else 0.0
    split = thread_cpu_seconds(server_pid) if server_pid else (0.0, 0.0)
    opened_n = max(1, len(times))
    await asyncio.gather(*(ws.close() for ws in opened), return_exceptions=True)
    return {
        "sockets": len(targets),
        "connected": len(times),
        "failures": dict(failures),
        "seconds": round(seconds, 3),
        "per_s": round(len(times) / seconds, 1),
        "p50_ms": round(1000 * (percentile(times, 50) or 0), 1),
        "p99_ms": round(1000 * (percentile(times, 99) or 0), 1),
        # The server's CPU time per socket opened (ms): load on the machine stretches the
        # seconds, much less this.
        "cpu_ms": round(1000 * cpu / opened_n, 2),
        "loop_ms": round(1000 * (split[0] - split_before[0]) / opened_n, 2),
        "threads_ms": round(1000 * (split[1] - split_before[1]) / opened_n, 2),
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
            figures = storm(address, targets, args.at_once, echo, server.process.pid)
            row[phase] = asyncio.run(figures)
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
    add("--moves", type=int, default=0, help="stock turns in each game's log before the storms")
    add("--pause", type=float, default=2.0, help="seconds between storms")
    add("--database-url", default=stack.DATABASE_URL)
    add("--redis-url", default=stack.REDIS_URL)
    add("--profile", choices=sorted(stack.PROFILE_MODES), help="py-spy the first cold storm")
    add("--json", type=Path, default=stack.RESULTS / "reconnect.json")
    add("--target", type=float, default=500.0, help="connects/s (exit 2 below it)")
    args = parser.parse_args(argv)
    env = stack.load_env(args.database_url, args.redis_url)
    stack.stack_up(env)
    from load.players import make_players, stock_turned

    players = make_players(args.sockets)
    stock_turned([p.game_id for p in players], args.moves)
    targets = [(p.game_id, p.cookie) for p in players]
    rows = [one_repeat(args, env, targets, r) for r in range(args.repeat)]
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(rows, indent=1))
    print(
        f"| storm of {args.sockets} ({args.at_once} at once) | seconds | connects/s"
        " | time / echo's in the same run | server CPU ms a socket | of it: event loop"
        " | other threads |"
    )
    print("|---|---|---|---|---|---|---|")
    for phase in ("cold", "warm", "echo"):
        secs = min_med_max([r[phase]["seconds"] for r in rows])
        rates = min_med_max([r[phase]["per_s"] for r in rows])
        ratio = min_med_max([r[phase]["seconds"] / r["echo"]["seconds"] for r in rows], "{:.2f}")
        cpu, loop, threads = (
            min_med_max([r[phase][key] for r in rows], "{:.2f}")
            for key in ("cpu_ms", "loop_ms", "threads_ms")
        )
        print(f"| {phase} | {secs} | {rates} | {ratio} | {cpu} | {loop} | {threads} |")
    return verdict(rows, args.target)


def verdict(rows: list[dict[str, Any]], target: float) -> int:
    """The exit status: 1 when a socket failed (never got its hello, or echo's handshake),
    2 when every socket connected but a storm was slower than ``target`` connects/s, 0
    otherwise. Correctness first: a fast storm that lost sockets is a failure."""
    failed = sum(sum(r[p]["failures"].values()) for r in rows for p in ("cold", "warm", "echo"))
    missing = sum(r[p]["sockets"] - r[p]["connected"] for r in rows for p in ("cold", "warm"))
    if failed or missing:
        print(f"FAILED: {failed} sockets failed, {missing} got no hello")
        return 1
    worst = min(min(r["cold"]["per_s"], r["warm"]["per_s"]) for r in rows)
    if worst < target:
        print(f"every socket got its state; slowest storm {worst}/s, under the {target}/s target")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
