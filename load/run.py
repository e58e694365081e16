"""The load generator's command line: start the stack, make the players, run the rows,
print the tables (and write the raw figures with ``--json``).

    python -m load.run --players 10 60 100 300 --duration 30            # open loop, 1 move/s
    python -m load.run --closed --players 300                           # the maximum
    python -m load.run --servers 2 --players 300 --watch 0.2            # two processes + watchers
    python -m load.run --players 300 --profile                          # + py-spy of server 1

Each row runs the project's game sockets, then the echo baseline with as many clients on
the same servers, one after the other (never both at once: they would share the cores).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from load import client, stack
from load.stats import spread, summary
from load.tables import print_tables

DEFAULT_PLAYERS = [10, 60, 100, 300]


def _assignment(text: str) -> tuple[str, str]:
    name, equals, value = text.partition("=")
    if not equals or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name, value


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m load.run",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add = parser.add_argument
    add("--players", type=int, nargs="+", default=DEFAULT_PLAYERS, help="one row per count")
    add("--rate", type=float, default=1.0, help="actions a second per player (open loop)")
    add("--closed", action="store_true", help="closed loop: next move as soon as answered")
    add("--cap", type=float, default=client.FLOOD_SAFE_RATE, help="closed loop: most a second")
    add("--duration", type=float, default=30.0, help="measured seconds per phase")
    add("--warmup", type=float, default=5.0, help="seconds played before measuring")
    add("--timeout", type=float, default=10.0, help="an answer later than this is lost")
    add("--servers", type=int, default=1, help="daphne processes; players spread over them")
    add("--watch", type=float, default=0.1, help="share of games watched from another server")
    add("--repeat", type=int, default=1, help="runs of every row (min/median/max reported)")
    add("--no-echo", action="store_true", help="skip the echo baseline")
    add("--client-procs", type=int, default=1, help="client processes (one loop each)")
    add("--pause", type=float, default=3.0, help="seconds of rest between phases")
    add(
        "--profile",
        nargs="?",
        const="gil",
        choices=list(stack.PROFILE_MODES),
        help="py-spy the first server in each game phase: gil (default: the Python work that"
        " holds the GIL), cpu (py-spy's default) or wall (every thread, waits included)",
    )
    add("--worker", action="store_true", help="also run a Celery worker (-Q celery)")
    add("--fresh-db", action="store_true", help="drop and re-create the load database first")
    add("--database-url", default=stack.DATABASE_URL, help="the run's own PostgreSQL database")
    add("--redis-url", default=stack.REDIS_URL, help="the run's own Redis database (flushed)")
    add("--json", type=Path, help="write the raw figures here")
    add(
        "--server-env",
        type=_assignment,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set in the servers' environment only (e.g. an allocator: docs/benchmarks.md)",
    )
    return parser.parse_args(argv)


def seats_for(players: list[Any], servers: list[Any], watch: float) -> list[client.Seat]:
    """Players round-robin over the servers; with two or more, every ``1/watch``-th game
    also gets a watcher socket on the next server (the one its player is not on)."""
    step = round(1 / watch) if watch > 0 and len(servers) > 1 else 0
    seats = []
    for i, p in enumerate(players):
        here = servers[i % len(servers)]
        there = servers[(i + 1) % len(servers)] if step and i % step == 0 else None
        address = f"127.0.0.1:{here.port}"
        watch_at = f"127.0.0.1:{there.port}" if there is not None else None
        seats.append(client.Seat(address, p.game_id, p.cookie, watch_at))
    return seats


def server_cpu_seconds(servers: list[Any]) -> float:
    """User and system CPU seconds the server processes have used so far (Linux /proc)."""
    total = 0
    for server in servers:
        fields = Path(f"/proc/{server.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15 of stat)
    return total / os.sysconf("SC_CLK_TCK")


def project_phase(
    args: argparse.Namespace, servers: list[Any], players: list[Any], phase: client.Phase, tag: str
) -> dict[str, Any]:
    """The game sockets, with the durability check (versions committed == moves accepted)
    and, with ``--profile``, py-spy on the first server for the phase."""
    from load.players import versions

    ids = [p.game_id for p in players]
    before = versions(ids)
    profilers: list[subprocess.Popen[bytes]] = []
    out = stack.RESULTS / f"profile-{tag}-{args.profile}.speedscope.json"

    def profile() -> None:  # once the sockets are open: the handshakes are not moves
        seconds = phase.warmup + phase.duration
        profilers.append(stack.start_profile(servers[0].process.pid, seconds, out, args.profile))

    seats = seats_for(players, servers, args.watch)
    on_start = profile if args.profile else None
    cpu_before = server_cpu_seconds(servers)
    tally = client.run(seats, phase, args.client_procs, on_start)
    return phase_figures(
        tally, durable=versions(ids) - before, servers=servers, cpu_before=cpu_before,
        profilers=profilers, out=out,
    )  # fmt: skip


def phase_figures(
    tally: Any,
    *,
    durable: int,
    servers: list[Any],
    cpu_before: float,
    profilers: list[subprocess.Popen[bytes]],
    out: Path,
) -> dict[str, Any]:
    """A game phase's figures once its clients are done (load.run's and load.duels'): the
    tally's summary, the durability check (``durable``: versions committed in the phase,
    against the moves accepted), the servers' CPU per action and the profiles' summaries."""
    figures = summary(tally)
    figures["durable"] = durable
    # The servers' own CPU per action (warm-up included, as acked_total): whether a second
    # process scales is a question of cores once this stays the same.
    cpu = server_cpu_seconds(servers) - cpu_before
    figures["server_cpu_ms_per_action"] = round(cpu * 1000 / max(1, tally.acked_total), 3)
    figures["durable_ok"] = figures["durable"] == tally.acked_total
    for profiler in profilers:
        from load.profile import markdown, summarise

        profiler.wait(timeout=60)
        figures["profile"] = str(out)
        # The profile spans the whole phase, warm-up included, as acked_total does.
        out.with_suffix(".md").write_text(markdown(summarise(out), tally.acked_total))
    return figures


def measure_row(
    args: argparse.Namespace, servers: list[Any], players: list[Any], repeat: int
) -> dict[str, Any]:
    """One row: the game phase, then the echo phase; each followed by a pause, after which
    the servers' logs are read for errors (disconnects are handled after the clients go)."""
    mode = "closed" if args.closed else "open"
    phase = client.Phase(
        rate=0 if args.closed else args.rate,
        duration=args.duration,
        warmup=args.warmup,
        timeout=args.timeout,
        seed=repeat * 100_000 + len(players),
        cap=args.cap,
    )
    tag = f"{len(players)}p-{mode}-{len(servers)}s-r{repeat + 1}"
    row: dict[str, Any] = {"players": len(players), "mode": mode, "repeat": repeat + 1}
    marks = stack.log_marks(servers)
    row["project"] = project_phase(args, servers, players, phase, tag)
    time.sleep(args.pause)
    row["project"]["server_log"] = stack.log_signs(servers, marks)
    if not args.no_echo:
        marks = stack.log_marks(servers)
        seats = seats_for(players, servers, 0)
        echo = client.run(seats, replace(phase, target=client.ECHO), args.client_procs)
        row["echo"] = summary(echo)
        time.sleep(args.pause)
        row["echo"]["server_log"] = stack.log_signs(servers, marks)
    return row


def aggregate(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Min/median/max across repeats of each row's headline figures."""
    out = []
    for count in dict.fromkeys(r["players"] for r in rows):
        mine = [r for r in rows if r["players"] == count]
        entry: dict[str, Any] = {"players": count, "mode": mine[0]["mode"], "runs": len(mine)}
        for side in ("project", "echo"):
            if side in mine[0]:
                entry[side] = {
                    k: spread([r[side][k] for r in mine])
                    for k in ("per_s", "p50_ms", "p99_ms", "fanout_p99_ms")
                }
        out.append(entry)
    return out


def setup(args: argparse.Namespace, env: dict[str, str]) -> None:
    """The load database and Redis, and Django in this process (to make the players)."""
    stack.stack_up(env, fresh=args.fresh_db)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    env = stack.load_env(database_url=args.database_url, redis_url=args.redis_url)
    setup(args, env)
    from load.players import make_players

    started = datetime.now(UTC).isoformat(timespec="seconds")
    servers = stack.start_servers(env | dict(args.server_env), args.servers)
    worker = stack.start_worker(env) if args.worker else None
    rows: list[dict[str, Any]] = []
    try:
        players = make_players(max(args.players))
        for repeat in range(args.repeat):
            for count in args.players:
                rows.append(measure_row(args, servers, players[:count], repeat))
                print(progress(rows[-1]), flush=True)
    finally:
        if worker is not None:
            worker.stop()
        stack.stop_all(servers)
    report = {
        "started": started,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "load_average_after": os.getloadavg(),
        "args": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
        "rows": rows,
        "aggregate": aggregate(rows),
    }
    print_tables(report)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=1))
    return report


def progress(row: dict[str, Any]) -> str:
    p = row["project"]
    text = (
        f"[{row['mode']} {row['players']}p run {row['repeat']}] project {p['per_s']}/s "
        f"p50 {p['p50_ms']} p99 {p['p99_ms']} ms, refused {p['refused']}, lost {p['lost']}, "
        f"durable {p['durable']}/{p['acked_total']}"
    )
    if "echo" in row:
        e = row["echo"]
        text += f"; echo {e['per_s']}/s p50 {e['p50_ms']} p99 {e['p99_ms']} ms"
    return text


if __name__ == "__main__":
    main()
