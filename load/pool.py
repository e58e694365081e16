"""Database connections under many HTTP clients (issue 37): two daphne processes, 200
concurrent clients for 60 s, the connections each process holds counted in
``pg_stat_activity`` all along (by the ``application_name`` each process is given), then a
minute of idleness, counted too.

Each repeat runs two configurations on the same machine one after the other: **before**,
the settings as they were (``DJANGO_DB_POOL=false``: a connection per thread, kept
``DJANGO_CONN_MAX_AGE=60`` seconds), and **after**, the pool as deployed (the defaults:
``DJANGO_DB_POOL_MIN`` 2, ``DJANGO_DB_POOL_MAX`` 20 a process). By default against a
throw-away PostgreSQL cluster with ``max_connections=100`` (``load.private_pg``), since the
"before" run fills it; ``--database-url`` runs against another one.

    .venv/bin/python -m load.pool                         # 200 clients x 60 s, idle 60 s, 3 repeats
    .venv/bin/python -m load.pool --clients 50 --duration 10 --idle 15 --repeat 1
    .venv/bin/python -m load.pool --modes after --json test-results/load/pool.json

Exits 1 if an "after" run broke its promise: more connections than its ceiling, a server
error other than the documented busy 503 (with ``Retry-After``), or more than the pool's
minimum still open per process at the end of the idle minute.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from load import stack
from load.http_load import drive
from load.private_pg import PrivatePostgres
from tests.support.servers import Server, start_server

MODES: dict[str, dict[str, str]] = {
    "before": {"DJANGO_DB_POOL": "false", "DJANGO_CONN_MAX_AGE": "60"},
    "after": {},
}
#: The pool's defaults (ftsite/settings.py): the ceiling and the floor each process keeps.
AFTER_MAX, AFTER_MIN = 20, 2

COUNT_SQL = """
    SELECT application_name, count(*) FROM pg_stat_activity
    WHERE datname = current_database() AND application_name LIKE %s GROUP BY 1
"""


@dataclass
class Counts:
    """Connections per process name, sampled every ``every`` seconds by a thread of its own
    (one connection of its own, not counted: another application name)."""

    database_url: str
    prefix: str
    every: float = 0.1
    samples: list[tuple[float, dict[str, int]]] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)

    def now(self) -> dict[str, int]:
        import psycopg

        with psycopg.connect(self.database_url, autocommit=True) as conn:
            rows = conn.execute(COUNT_SQL, [self.prefix + "%"]).fetchall()
        return {name: n for name, n in rows}

    @contextmanager
    def sampling(self) -> Iterator[Counts]:
        import psycopg

        conn = psycopg.connect(self.database_url, autocommit=True)

        def sample() -> None:
            while not self._stop.wait(self.every):
                rows = conn.execute(COUNT_SQL, [self.prefix + "%"]).fetchall()
                self.samples.append((time.monotonic(), {name: n for name, n in rows}))

        thread = threading.Thread(target=sample, name="pg-counts", daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self._stop.set()
            thread.join(timeout=5)
            conn.close()

    def peak(self) -> dict[str, int]:
        most: dict[str, int] = defaultdict(int)
        for _, counts in self.samples:
            for name, n in counts.items():
                most[name] = max(most[name], n)
        return dict(most)

    def peak_total(self) -> int:
        return max((sum(c.values()) for _, c in self.samples), default=0)


def servers_up(env: dict[str, str], prefix: str, log_dir: Path) -> list[Server]:
    """Two daphne processes, each naming its connections ``<prefix>web1`` and ``web2``."""
    log_dir.mkdir(parents=True, exist_ok=True)
    started: list[Server] = []
    try:
        for n in (1, 2):
            own = env | {"DJANGO_DB_APPLICATION_NAME": f"{prefix}web{n}"}
            started.append(start_server(own, log_dir, app=stack.APP))
    except BaseException:
        stack.stop_all(started)
        raise
    return started


def one_run(args: argparse.Namespace, database_url: str, mode: str, repeat: int) -> dict[str, Any]:
    """One configuration: servers up, the clients' phase counted, the idle phase counted."""
    env = stack.load_env(database_url, args.redis_url, **MODES[mode])
    prefix = f"ftpool-{mode}-{repeat}-"
    servers = servers_up(env, prefix, stack.RESULTS)
    counts = Counts(database_url, prefix)
    try:
        at_rest = counts.now()
        marks = stack.log_marks(servers)
        with counts.sampling():
            tally = drive([s.port for s in servers], clients=args.clients, seconds=args.duration)
        busy = counts.peak()
        signs = stack.log_signs(servers, marks)
        refused = sum(s.log.read_text(errors="replace").count("too many clients") for s in servers)
        time.sleep(args.idle)
        after_idle = counts.now()
    finally:
        stack.stop_all(servers)
    return {
        "mode": mode,
        "repeat": repeat,
        "http": tally.summary(),
        "connections_at_start": at_rest,
        "connections_peak": busy,
        "connections_peak_total": counts.peak_total(),
        "connections_after_idle": after_idle,
        "too_many_clients_in_logs": refused,
        "log_signs": signs,
    }


def broken_promises(run: dict[str, Any]) -> list[str]:
    """What an "after" run must hold (see the module)."""
    found = []
    http = run["http"]
    if any(n > AFTER_MAX for n in run["connections_peak"].values()):
        found.append(f"over the ceiling of {AFTER_MAX}: {run['connections_peak']}")
    if http["server_errors"]:
        found.append(f"server errors other than the busy 503: {http['statuses']}")
    if any(n > AFTER_MIN for n in run["connections_after_idle"].values()):
        found.append(f"still open after the idle minute: {run['connections_after_idle']}")
    return found


def spread(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{min(values):g} / {statistics.median(values):g} / {max(values):g}"


def report(runs: list[dict[str, Any]]) -> None:
    """min / median / max over the repeats, per configuration."""
    rows = {
        "requests/s": lambda r: r["http"]["per_second"],
        "5xx but the busy 503": lambda r: r["http"]["server_errors"],
        "busy 503 (Retry-After)": lambda r: r["http"]["busy"],
        "client errors": lambda r: sum(r["http"]["client_errors"].values()),
        "p50 ms": lambda r: r["http"]["p50_ms"],
        "p99 ms": lambda r: r["http"]["p99_ms"],
        "peak connections, one process": lambda r: max(r["connections_peak"].values(), default=0),
        "peak connections, both": lambda r: r["connections_peak_total"],
        "after the idle minute, both": lambda r: sum(r["connections_after_idle"].values()),
        "'too many clients' in logs": lambda r: r["too_many_clients_in_logs"],
    }
    modes = sorted({r["mode"] for r in runs}, key=list(MODES).index)
    print("| figure | " + " | ".join(f"{m} min / median / max" for m in modes) + " |")
    print("|---|" + "---|" * len(modes))
    for name, value in rows.items():
        cells = [spread([value(r) for r in runs if r["mode"] == m]) for m in modes]
        print(f"| {name} | " + " | ".join(cells) + " |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m load.pool", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of clients")
    parser.add_argument("--idle", type=float, default=60.0, help="seconds idle, then counted")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--modes", nargs="+", choices=list(MODES), default=list(MODES))
    parser.add_argument("--database-url", help="instead of a throw-away cluster")
    parser.add_argument("--redis-url", default=stack.REDIS_URL)
    parser.add_argument("--max-connections", type=int, default=100)
    parser.add_argument("--json", type=Path, help="write every run's figures here")
    args = parser.parse_args(argv)

    private = None if args.database_url else PrivatePostgres(args.max_connections)
    if private is not None:
        private.start()
    database_url = args.database_url or private.url("fortythieves_pool")  # type: ignore[union-attr]
    try:
        env = stack.stack_up(stack.load_env(database_url, args.redis_url))
        # The pages' {% static %} read the manifest (DEBUG is off, as deployed).
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=stack.ROOT,
            env=env,
            check=True,
        )
        runs = []
        for repeat in range(1, args.repeat + 1):
            for mode in args.modes:
                stack.flush_redis(args.redis_url)
                run = one_run(args, database_url, mode, repeat)
                print(json.dumps(run), flush=True)
                runs.append(run)
    finally:
        if private is not None:
            private.stop()
    report(runs)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(runs, indent=2))
    broken = [(r["repeat"], p) for r in runs if r["mode"] == "after" for p in broken_promises(r)]
    for repeat, promise in broken:
        print(f"after, repeat {repeat}: {promise}", file=sys.stderr)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
