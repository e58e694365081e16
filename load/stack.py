"""The real stack for a load run: its environment, its own database, ``daphne`` processes
serving :mod:`load.asgi`, optionally a Celery worker, and py-spy attached to a server.

The load database (``fortythieves_load``) and Redis /13 are the benchmark's own, so a run
never touches the development database or the test tiers' (``fortythieves``, Redis /14).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from tests.support.servers import Server, start_server

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "test-results" / "load"
APP = "load.asgi:application"
DATABASE_URL = "postgres://postgres@127.0.0.1:5432/fortythieves_load"
REDIS_URL = "redis://127.0.0.1:6379/13"

# The throttles are per user and the benchmark's users are real sessions: at 1 move/s the
# default 300 messages a minute would hold, but the closed loop and repeated runs within a
# minute would not. The per-socket pace (FT_RATE_SOCKET_PACE, 40 at once then 8 a second)
# stays as deployed; the client paces each socket under it instead (see load.client).
RAISED_LIMITS = {
    "FT_RATE_SOCKET_MESSAGES": "1000000/20s",
    "FT_RATE_PRACTICE_STARTS": "1000000/min",
    "FT_RATE_API_USER": "1000000/min",
    "FT_RATE_API_ANONYMOUS": "1000000/min",
    "FT_RATE_HINTS": "1000000/min",
    # Each practice start of an unrated deal would queue a solver rating on Redis /13 for a
    # worker that is not running (and that a later --worker run would then chew through).
    "FT_RATE_PRACTICE_ON_START": "false",
}


def load_env(
    database_url: str = DATABASE_URL, redis_url: str = REDIS_URL, **overrides: str
) -> dict[str, str]:
    """The environment of every process of a run (servers, worker, this process): the
    integration tier's settings on the load database, with the rate limits raised."""
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY="load-only",  # sessions made here must validate in the servers
        FT_DAILY_SECRET="load-only",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SECURE_COOKIES="false",
        DJANGO_SETTINGS_MODULE="ftsite.settings",
        # The pages as rendered: the benchmarks of the database and the sockets measure
        # what a page costs (load.pages turns the visitors' page store on for its layout).
        FT_PAGE_CACHE_SECONDS="0",
        **RAISED_LIMITS,
    )
    env.update(overrides)
    return env


def _admin(database_url: str, sql: str) -> None:
    import psycopg

    parts = urlsplit(database_url)
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        conn.execute(sql)  # type: ignore[arg-type]  # the name is ours, never user input


def prepare_database(env: dict[str, str], *, fresh: bool = False) -> None:
    """Create the load database if it is missing (or anew when ``fresh``), then migrate it."""
    import psycopg

    url = env["DATABASE_URL"]
    name = urlsplit(url).path.lstrip("/")
    if fresh:
        _admin(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    with contextlib.suppress(psycopg.errors.DuplicateDatabase):
        _admin(url, f'CREATE DATABASE "{name}"')
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


def flush_redis(redis_url: str) -> None:
    """Empty the run's Redis database: channel-layer leftovers and throttle counters."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        client.flushdb()
    finally:
        client.close()


def stack_up(env: dict[str, str], *, fresh: bool = False) -> dict[str, str]:
    """Ready a run: its database (migrated; anew when ``fresh``), an empty Redis database, and
    Django in this process on the same environment (the runs make their players here)."""
    prepare_database(env, fresh=fresh)
    flush_redis(env["REDIS_URL"])
    os.environ.update(env)
    import django

    django.setup()
    return env


def start_servers(env: dict[str, str], count: int, log_dir: Path = RESULTS) -> list[Server]:
    """``count`` daphne processes serving :data:`APP`, each on a free port."""
    log_dir.mkdir(parents=True, exist_ok=True)
    started: list[Server] = []
    try:
        for _ in range(count):
            started.append(start_server(env, log_dir, app=APP))
    except BaseException:
        stop_all(started)
        raise
    return started


# Lines in a server's log that say the server itself went wrong during a phase: a run with
# any of them is suspect whatever its latencies.
LOG_SIGNS = {
    "tracebacks": "Traceback (most recent call last)",
    "over_capacity": "over capacity in group",  # channels_redis dropped a group message
    "too_many_connections": "Too many connections",  # the Redis pool ran out
    "gc_pauses": "gc pause:",  # a collection of 10 ms or more (load.asgi)
    # a full collection of the closed sockets' garbage (ftsite.closed_sockets)
    "socket_collections": "a full collection freed",
}


def log_marks(servers: list[Server]) -> list[int]:
    """Where the servers' logs end now (see :func:`log_signs`)."""
    return [server.log.stat().st_size for server in servers]


def log_signs(servers: list[Server], marks: list[int]) -> dict[str, int]:
    """How often each of :data:`LOG_SIGNS` appeared in the servers' logs since ``marks``."""
    counts: Counter[str] = Counter()
    for server, mark in zip(servers, marks, strict=True):
        with server.log.open("rb") as log:
            log.seek(mark)
            text = log.read().decode(errors="replace")
        for name, needle in LOG_SIGNS.items():
            counts[name] += text.count(needle)
    return {name: n for name, n in counts.items() if n}


def stop_all(servers: list[Server]) -> None:
    for server in servers:
        server.stop()


@dataclass
class Worker:
    """A ``celery worker`` process in its own process group."""

    process: subprocess.Popen[bytes]
    log: Path

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=15)
        with contextlib.suppress(ProcessLookupError):  # its pool children too
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)


def start_worker(
    env: dict[str, str], log_dir: Path = RESULTS, queue: str = "celery", concurrency: int = 1
) -> Worker:
    """``celery -A ftsite worker -Q queue`` (as compose.yaml runs it), once it is ready.
    Practice moves need none (only ranked games are verified); other benchmarks may."""
    log_dir.mkdir(parents=True, exist_ok=True)
    name = f"load-{uuid.uuid4().hex[:8]}"
    log = log_dir / f"worker-{name}.log"
    command = [
        sys.executable, "-m", "celery", "-A", "ftsite", "worker", "-Q", queue,
        f"--concurrency={concurrency}", "--loglevel=info", "-n", f"{name}@%h",
        "--without-mingle", "--without-gossip",
    ]  # fmt: skip
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,  # a process group, so stop() ends the pool with it
    )
    worker = Worker(process, log)
    deadline = time.monotonic() + 60
    while " ready." not in log.read_text(errors="replace"):
        if process.poll() is not None or time.monotonic() > deadline:
            worker.stop()
            raise RuntimeError(f"celery worker did not start:\n{log.read_text()[-3000:]}")
        time.sleep(0.2)
    return worker


def py_spy() -> str:
    """The py-spy executable (``.venv/bin/pip install py-spy``; not a project dependency)."""
    found = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(found).exists():
        raise RuntimeError("--profile needs py-spy: .venv/bin/pip install py-spy")
    return found


# daphne runs Python on one core at a time (the GIL), so "gil" shows what bounds its
# moves/s. py-spy's own idle detection ("cpu") still counts many blocking socket reads
# (psycopg, redis) as running; "wall" samples every thread all the time, waits included.
PROFILE_MODES = {"gil": ["--gil"], "cpu": [], "wall": ["--idle"]}


def start_profile(
    pid: int, seconds: float, out: Path, mode: str = "gil", rate: int = 100
) -> subprocess.Popen[bytes]:
    """py-spy sampling process ``pid`` for ``seconds`` into a speedscope file ``out`` (each
    thread a profile of its own: the event loop and the database thread apart)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    command = [
        py_spy(), "record", "--pid", str(pid), "--duration", str(max(1, round(seconds))),
        "--rate", str(rate), "--format", "speedscope", "--output", str(out), "--threads",
        *PROFILE_MODES[mode],
    ]  # fmt: skip
    return subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=out.with_suffix(".log").open("wb")
    )


def main(argv: list[str] | None = None) -> None:
    """Only the stack, until Ctrl-C: for trying a client or a profiler by hand."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m load.stack", description=main.__doc__)
    parser.add_argument("--servers", type=int, default=1)
    parser.add_argument("--worker", action="store_true", help="also a Celery worker (-Q celery)")
    parser.add_argument("--fresh-db", action="store_true", help="re-create the load database")
    args = parser.parse_args(argv)
    env = load_env()
    prepare_database(env, fresh=args.fresh_db)
    flush_redis(env["REDIS_URL"])
    servers = start_servers(env, args.servers)
    worker = start_worker(env) if args.worker else None
    for server in servers:
        print(f"daphne pid {server.process.pid}: {server.ws}/ws/echo/ (log {server.log})")
    # Stopped by a signal too (a background job ignores Ctrl-C's SIGINT): clean up either way.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        while all(s.process.poll() is None for s in servers):
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:  # SystemExit from the handler above runs this too
        if worker is not None:
            worker.stop()
        stop_all(servers)


if __name__ == "__main__":
    main()
