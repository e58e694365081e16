"""The first seconds after a start (issue 22): players connect to a process that has just
started and play at once, and the acks of the first second count.

Each repeat starts a fresh daphne process, makes ``--players`` new practice games, connects
every player (each hello reads its game) and plays ``--rate`` moves a second per player
for ``--duration`` seconds with no warm-up: the p99 is over everything from the first move.
``first_s_p99_ms`` is the p99 of the first ``players x rate`` answers (about the first
second). Then the echo baseline on the same process, the same way.

    .venv/bin/python -m load.coldstart --players 300 --duration 10 --repeat 3

Target (issue 22): p99 <= 50 ms at 300 players x 1 move/s counting the first second.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from load import client, stack
from load.stats import by_second, min_med_max, percentile, summary


def one_repeat(args: argparse.Namespace, env: dict[str, str], repeat: int) -> dict[str, Any]:
    from load.players import make_players

    (server,) = stack.start_servers(env, 1)
    try:
        players = make_players(args.players)  # new games: nothing of them is loaded
        seats = [client.Seat(f"127.0.0.1:{server.port}", p.game_id, p.cookie) for p in players]
        phase = client.Phase(duration=args.duration, warmup=0.0, rate=args.rate, seed=repeat)
        row: dict[str, Any] = {"repeat": repeat + 1}
        for name, target in (("project", client.PROJECT), ("echo", client.ECHO)):
            marks = stack.log_marks([server])
            profiling: list[Any] = []

            def on_start(name: str = name, profiling: list[Any] = profiling) -> None:
                if args.profile and repeat == 0 and name == "project":
                    out = stack.RESULTS / f"profile-coldstart-{args.profile}.speedscope.json"
                    pid = server.process.pid
                    profiling.append(stack.start_profile(pid, 3, out, args.profile))

            tally = client.run(seats, replace(phase, target=target), on_start=on_start)
            for profile in profiling:
                profile.wait(timeout=60)
            figures = summary(tally)
            figures["server_log"] = stack.log_signs([server], marks)
            first = tally.latencies[: int(args.players * args.rate)]
            figures["first_s_p99_ms"] = round(percentile(first, 99) or 0.0, 2)
            figures["by_second"] = by_second(tally)
            row[name] = figures
            keys = ("per_s", "p50_ms", "p99_ms", "max_ms", "first_s_p99_ms", "lost", "server_log")
            print(f"  run {repeat + 1} {name}: { ({k: figures[k] for k in keys}) }", flush=True)
            for second in figures["by_second"]:
                print(f"    {second}", flush=True)
    finally:
        stack.stop_all([server])
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m load.coldstart",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add = parser.add_argument
    add("--players", type=int, default=300)
    add("--rate", type=float, default=1.0)
    add("--duration", type=float, default=10.0)
    add("--repeat", type=int, default=3)
    add("--database-url", default=stack.DATABASE_URL)
    add("--redis-url", default=stack.REDIS_URL)
    add("--json", type=Path, default=stack.RESULTS / "coldstart.json")
    add("--profile", choices=sorted(stack.PROFILE_MODES), help="py-spy the first 3 s of play")
    args = parser.parse_args(argv)
    env = stack.load_env(args.database_url, args.redis_url)
    stack.stack_up(env)
    rows = [one_repeat(args, env, r) for r in range(args.repeat)]
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(rows, indent=1))
    print(f"| {args.players} players x {args.rate}/s from a start | p99 | first-second p99 |")
    print("|---|---|---|")
    for name in ("project", "echo"):
        p99 = min_med_max([r[name]["p99_ms"] or 0.0 for r in rows])
        first = min_med_max([r[name]["first_s_p99_ms"] for r in rows])
        print(f"| {name} | {p99} ms | {first} ms |")
    worst = max(r["project"]["p99_ms"] or 0.0 for r in rows)
    return 0 if worst <= 50 else 1


if __name__ == "__main__":
    sys.exit(main())
