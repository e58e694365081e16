"""The fault suite's stack: its own Redis server, its own database, two ``daphne`` processes
serving :mod:`load.asgi` (through :mod:`load.stack`), a Celery worker when a fault needs
one, and the players (users with real sessions, their games).

Every fault runs against a ``redis-server`` this suite starts on a free port (the Redis
fault kills and restarts it; the machine's Redis is never touched, nor flushed) and the
database ``fortythieves_faults`` (the DB fault terminates every connection to it but its
own; no other database is touched).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from load import stack
from load.fault_client import FaultSeat
from tests.support.proxy import Proxy, start_proxy
from tests.support.servers import Server, free_port, start_server

DATABASE_URL = "postgres://postgres@127.0.0.1:5432/fortythieves_faults"
LOGS = stack.ROOT / "test-results" / "faults"

# What the stack needs on top of load.stack's environment for these runs.
FAULT_ENV = {
    # The ranked fault opens today's deal in this database: no solver certification (a
    # certified deal is no different to play, and certifying costs minutes of CPU).
    "FT_DAILY_CERTIFY_SECONDS": "0",
    # A ranked win would queue a foresight analysis on a queue no worker here serves.
    "FT_FORESIGHT_SECONDS": "0",
}


@dataclass
class OwnRedis:
    """A throw-away ``redis-server`` (no persistence) on a port of its own."""

    port: int
    log: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = [
            "redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
            "--save", "", "--appendonly", "no",
        ]  # fmt: skip
        self.process = subprocess.Popen(
            command, stdout=self.log.open("ab"), stderr=subprocess.STDOUT, start_new_session=True
        )
        self.wait_ready()

    def wait_ready(self, timeout: float = 15) -> None:
        import redis

        deadline = time.monotonic() + timeout
        while True:
            try:
                redis.Redis(port=self.port, socket_timeout=1).ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server on {self.port} never answered") from None
                time.sleep(0.05)

    def kill(self) -> None:
        """kill -9: whatever it held (queues, groups, counters) is gone with it."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def unacked(self) -> int:
        """Messages delivered to a worker and not acknowledged yet (kombu keeps them in
        the hash ``unacked`` until the task ends: ``acks_late``)."""
        import redis

        return int(redis.Redis(port=self.port).hlen("unacked"))

    def queued(self, queue: str = "celery") -> int:
        """Messages waiting in a Celery queue (a Redis list under the queue's name)."""
        import redis

        return int(redis.Redis(port=self.port).llen(queue))


@dataclass
class Suite:
    """The stack the faults share; :meth:`heal` replaces what a fault left dead."""

    env: dict[str, str]
    redis: OwnRedis
    log_dir: Path
    servers: list[Server] = field(default_factory=list)
    workers: list[stack.Worker] = field(default_factory=list)
    proxy: Proxy | None = None  # nginx in front of the servers (--proxy)

    def start_servers(self, count: int, ports: list[int] | None = None) -> list[Server]:
        """``count`` daphne processes (on ``ports`` if given), started side by side."""
        chosen: list[int | None] = list(ports) if ports else [None] * count

        def one(port: int | None) -> Server:
            return start_server(self.env, self.log_dir, app=stack.APP, port=port)

        with ThreadPoolExecutor(count) as pool:
            started = list(pool.map(one, chosen))
        self.servers.extend(started)
        return started

    def replace(self, dead: list[Server]) -> None:
        """New servers for ``dead`` ones: on the same ports behind the proxy (its list of
        web processes stays true, as a restarted container keeps its address)."""
        for server in dead:
            if server in self.servers:
                self.servers.remove(server)
        ports = [s.port for s in dead] if self.proxy is not None else None
        self.start_servers(len(dead), ports)

    def heal(self) -> list[str]:
        """Replace dead servers; returns what was found dead (a fault's victim, or a crash)."""
        dead = [s for s in self.servers if s.process.poll() is not None]
        if dead:
            self.replace(dead)
        return [f"daphne :{s.port} exit {s.process.returncode}" for s in dead]

    def start_worker(self) -> stack.Worker:
        worker = stack.start_worker(self.env, self.log_dir)
        self.workers.append(worker)
        return worker

    def stop(self) -> None:
        for worker in self.workers:
            worker.stop()
        if self.proxy is not None:
            self.proxy.stop()
        stack.stop_all(self.servers)
        self.redis.kill()

    def seats(self, players: list[tuple[str, str]]) -> list[FaultSeat]:
        """The players' seats: over the first two servers, or all through the proxy."""
        if self.proxy is not None:
            tls = self.proxy.ssl_context()
            return [FaultSeat(game, cookie, (self.proxy.address,), tls) for game, cookie in players]
        return seats_for(players, self.servers[:2])


def kill_worker(worker: stack.Worker) -> None:
    """kill -9 the worker's whole process group (the main process and its pool child at
    once), so nothing acknowledges, rejects or requeues the message it was running."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(worker.process.pid, signal.SIGKILL)
    worker.process.wait(timeout=10)


@contextlib.contextmanager
def suite(
    database_url: str, log_dir: Path, servers: int = 2, *, proxy: bool = False
) -> Iterator[Suite]:
    """Start the stack (with ``proxy``, nginx from ftsite/deploy in front of the servers),
    set Django up in this process on it, and stop it all at the end."""
    log_dir.mkdir(parents=True, exist_ok=True)
    redis = OwnRedis(free_port(), log_dir / "redis.log")
    redis.start()
    behind = {"FT_TRUSTED_PROXIES": "1"} if proxy else {}
    env = stack.load_env(database_url, redis.url, **FAULT_ENV, **behind)
    running = Suite(env, redis, log_dir)
    try:
        stack.prepare_database(env)
        os.environ.update(env)
        import django

        django.setup()
        running.start_servers(servers)
        if proxy:
            ports = [s.port for s in running.servers]
            running.proxy = start_proxy(ports, stack.ROOT / "staticfiles", log_dir)
        yield running
    finally:
        running.stop()


def cut_connections(database_url: str) -> int:
    """``pg_terminate_backend`` every other connection to the run's database (the servers'
    and this process's own Django connection alike); returns how many were cut."""
    import psycopg

    name = urlsplit(database_url).path.lstrip("/")
    with psycopg.connect(database_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        ).fetchall()
    return sum(bool(ok) for (ok,) in rows)


def seats_for(players: list[tuple[str, str]], servers: list[Server]) -> list[FaultSeat]:
    """Players (game id, cookie) round-robin over the servers, each knowing them all (its
    own first), so a player whose server dies reconnects to the next."""
    addresses = [f"127.0.0.1:{s.port}" for s in servers]
    seats = []
    for i, (game_id, cookie) in enumerate(players):
        k = i % len(addresses)
        seats.append(FaultSeat(game_id, cookie, tuple(addresses[k:] + addresses[:k])))
    return seats


def practice_players(count: int) -> list[tuple[str, str]]:
    """``count`` players (load's users), each on a new practice game."""
    from load.players import make_players

    return [(p.game_id, p.cookie) for p in make_players(count)]


def ranked_players(count: int) -> list[tuple[str, str]]:
    """``count`` new users, each on today's ranked game. New users every run: a user has
    one ranked game per daily deal, and a finished one cannot be played again."""
    from django.utils import timezone

    from games import services
    from games.daily import utc_today
    from games.models import User
    from games.services.deals import deal_open_daily
    from load.players import session_cookie

    deal_open_daily(day=utc_today(timezone.now()), seconds=0)
    tag = uuid.uuid4().hex[:6]
    users = User.objects.bulk_create(
        [User(username=f"fault-{tag}-{n:04d}") for n in range(1, count + 1)]
    )
    return [(str(services.game_start_daily(user=u).pk), session_cookie(u)) for u in users]
