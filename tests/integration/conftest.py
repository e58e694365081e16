"""The integration tier: real PostgreSQL, real Redis, real ASGI server processes.

Run by ``make test`` as its own pytest invocation with ``DATABASE_URL`` and
``REDIS_URL`` set (see the Makefile). Outside CI, missing services skip the
tier with a reason; in CI (``CI=true``) they fail it, so it never silently
skips there. Nothing here is mocked: the servers are ``daphne`` processes
sharing the test database and the Redis channel layer with this process.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests
from django.conf import settings

from tests.support.servers import Server, start_server
from tests.support.waiting import clear_of_midnight  # noqa: F401 (an autouse fixture)

ROOT = Path(__file__).resolve().parents[2]
IN_CI = os.environ.get("CI", "").lower() == "true"


def _missing_services() -> str | None:
    engine = settings.DATABASES["default"]["ENGINE"]
    if "postgresql" not in engine:
        return f"DATABASE_URL must point at PostgreSQL (the database engine is {engine})"
    if not os.environ.get("REDIS_URL"):
        return "REDIS_URL is not set"
    for host, port in (("127.0.0.1", 5432), ("127.0.0.1", 6379)):
        try:
            socket.create_connection((host, port), timeout=2).close()
        except OSError:
            return f"nothing listens on {host}:{port}"
    return None


@pytest.fixture(scope="session", autouse=True)
def real_services() -> None:
    """Runs only when an integration test is selected: skip outside CI, fail in it."""
    reason = _missing_services()
    if reason is None:
        return
    if IN_CI:
        pytest.fail(f"integration tier cannot run in CI: {reason}", pytrace=False)
    pytest.skip(f"{reason}; run `make test` with PostgreSQL and Redis up")


@pytest.fixture(scope="session", autouse=True)
def database_released_at_the_end(
    real_services: None, django_db_setup: None, django_db_blocker: Any
) -> Iterator[None]:
    """Torn down after the servers and workers (set up before them), before the test
    database is dropped: their processes are killed, and PostgreSQL may not have closed
    their sessions yet, which made the drop fail ("being accessed by other users") and
    left the database for the next run to drop. Waits a moment for those sessions to go,
    then ends any left."""
    yield
    from django.db import connection

    others = " FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
    ask, end = "SELECT count(*)" + others, "SELECT pg_terminate_backend(pid)" + others
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        for _ in range(20):
            cursor.execute(ask)
            if cursor.fetchone()[0] == 0:
                return
            time.sleep(0.1)
        cursor.execute(end)


def server_env() -> dict[str, str]:
    """The servers share this process's test database, secrets and Redis."""
    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = dict(os.environ)
    env.update(
        DATABASE_URL=url,
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=settings.SECRET_KEY,  # session cookies must validate there
        FT_DAILY_SECRET=settings.FT_DAILY_SECRET,
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SECURE_COOKIES="false",
        DJANGO_CONN_MAX_AGE="0",
        # Tests sign up from 127.0.0.1 far faster than people: tested on their own.
        FT_RATE_SIGNUPS_ADDRESS="100000/h",
        FT_RATE_SIGNUPS_DEVICE="100000/h",
        FT_RATE_GUESTS_ADDRESS="100000/h",
        # The visitors' page store is tested on its own (test_pages_proxy.py); elsewhere a
        # page fetched twice is rendered twice, as the tests were written.
        FT_PAGE_CACHE_SECONDS="0",
    )
    return env


@pytest.fixture(autouse=True)
def page_store_off(settings: Any) -> None:
    """This process's own pages (the test client) are rendered too (see ``server_env``)."""
    settings.FT_PAGE_CACHE_SECONDS = 0


@pytest.fixture(scope="session")
def static_collected(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The static files collected once a run, as a deploy does: with DEBUG off every page's
    ``{% static %}`` reads the manifest, so a server started without it answers 500.

    The tier runs on two xdist workers (the Makefile) that share ``staticfiles/``: the
    first to get here collects under a lock, the other waits and finds it done. Collecting
    again would delete and rewrite files the first worker's servers are serving."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the run's folder, above each worker's own
    with (shared / "collectstatic.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = shared / "collectstatic.done"
        if done.exists():
            return
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=server_env(),
            check=True,
        )
        done.touch()


def start_pair(
    env: dict[str, str],
    log_dir: Path,
    each: tuple[dict[str, str], dict[str, str]] = ({}, {}),
) -> tuple[Server, Server]:
    """Two daphne processes (with ``env``, and each with its own of ``each``), started
    side by side: each spends seconds loading Django before it answers, and nothing makes
    one wait for the other."""
    with ThreadPoolExecutor(2) as pool:
        futures = [
            pool.submit(start_server, env | own, log_dir, ready_path="/rules/") for own in each
        ]
    errors = [f.exception() for f in futures]
    started = [f.result() for f, error in zip(futures, errors, strict=True) if error is None]
    for error in errors:
        if error is not None:
            for server in started:
                server.stop()
            raise error
    return started[0], started[1]


@pytest.fixture(scope="session")
def servers(
    django_db_setup: None, static_collected: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Server, Server]]:
    """Two ASGI server processes, as compose.yaml runs web1 and web2, with the sockets'
    own limits (FT_RATE_SOCKET_PACE, FT_RATE_SOCKET_MESSAGES) as deployed."""
    pair = start_pair(server_env(), tmp_path_factory.mktemp("servers"))
    try:
        yield pair
    finally:
        for server in pair:
            server.stop()


#: The sockets' limits lifted: for tests that play whole games over sockets as a script
#: would, on subjects other than those limits (which tests/integration/test_socket_pace.py
#: and test_close_codes.py check on ``servers``). At the deployed pace (8 moves a second,
#: 300 a minute per player) a won game alone took 33 s of waiting.
UNPACED = {"FT_RATE_SOCKET_PACE": "100000/s", "FT_RATE_SOCKET_MESSAGES": "100000/min"}


@pytest.fixture(scope="session")
def unpaced_servers(
    django_db_setup: None, static_collected: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Server, Server]]:
    """Two ASGI server processes as ``servers``, but for the sockets' limits (UNPACED)."""
    pair = start_pair(server_env() | UNPACED, tmp_path_factory.mktemp("unpaced"))
    try:
        yield pair
    finally:
        for server in pair:
            server.stop()


# Celery workers ---------------------------------------------------------------------------------


@dataclass
class Worker:
    """A real ``celery worker`` process (prefork, one child) in its own process group."""

    name: str
    process: subprocess.Popen[bytes]
    log: Path

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for(self, needle: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if needle in self.text():
                return
            if self.process.poll() is not None:
                raise RuntimeError(f"worker {self.name} exited:\n{self.text()[-3000:]}")
            time.sleep(0.1)
        raise RuntimeError(f"worker {self.name} never logged {needle!r}:\n{self.text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL the whole process group: the main process and its pool child at once,
        so nothing gets the chance to reject, requeue or acknowledge a message."""
        with contextlib.suppress(ProcessLookupError):  # all gone already
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        """Warm shutdown (SIGTERM), then SIGKILL the group if it takes too long."""
        if self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=15)
        self.kill()  # also reaps a pool child left behind


def start_worker(
    env: dict[str, str], log_dir: Path, queue: str = "celery", **overrides: str
) -> Worker:
    """Start ``celery -A ftsite worker`` on ``queue`` (as compose.yaml's ``worker`` and
    ``worker-fairplay`` do) and wait until it is ready."""
    name = f"it-{uuid.uuid4().hex[:10]}@%h"
    log = log_dir / f"worker-{name.split('@')[0]}.log"
    command = [
        sys.executable, "-m", "celery", "-A", "ftsite", "worker",
        "--pool=prefork", "--concurrency=1", "--loglevel=info", "-Q", queue, "-n", name,
        # Nothing to sync with other workers: saves a second at start and keeps tests apart.
        "--without-mingle", "--without-gossip",
    ]  # fmt: skip
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env={**env, **overrides},
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group, so the test can kill it whole
    )
    worker = Worker(name, process, log)
    try:
        worker.wait_for(" ready.", timeout=60)
    except BaseException:
        worker.stop()
        raise
    return worker


def clear_celery_and_boards() -> None:
    """Empty the task queue (so tests never see each other's tasks) and the Redis boards."""
    from ftsite.celery import app
    from leaderboards.boards import redis_client

    app.control.purge()
    with app.connection_for_write() as connection:  # purge() knows only the default queue
        for queue in ("solver", "fairplay", "analysis"):
            connection.default_channel.queue_purge(queue)
    client = redis_client()
    for key in client.scan_iter("ft:board:*"):
        client.delete(key)
    # What kombu keeps of messages delivered but not acknowledged (a killed worker's), which
    # a later worker would restore to its queue: the broker is the same Redis database.
    client.delete("unacked", "unacked_index", "unacked_mutex")


@pytest.fixture
def workers(django_db_setup: None, tmp_path: Path) -> Iterator[Callable[..., Worker]]:
    """``workers(**env)`` starts a Celery worker sharing this test's database and Redis;
    every worker started is stopped at the end. The queue is purged before and after."""
    env = server_env()
    started: list[Worker] = []

    def start(queue: str = "celery", **overrides: str) -> Worker:
        worker = start_worker(env, tmp_path, queue, **overrides)
        started.append(worker)
        return worker

    clear_celery_and_boards()
    try:
        yield start
    finally:
        # The test has seen what it waited for: a warm shutdown (about 3 s a worker) would
        # only let tasks nobody reads finish. Killed at once instead, their messages in
        # flight cleared with the queues so no task of this test reaches the next one's.
        for worker in started:
            worker.kill()
        clear_celery_and_boards()


def post_form(
    http: requests.Session, base: str, path: str, data: dict[str, str]
) -> requests.Response:
    """Post a site form as a browser does: read the page for its CSRF token, then send
    ``data`` with it (no redirect followed: the answer's status is what tests check)."""
    page = http.get(f"{base}{path}", timeout=10)
    assert page.status_code == 200, path
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert found, f"{path} has no form"
    return http.post(
        f"{base}{path}",
        data={"csrfmiddlewaretoken": found.group(1), **data},
        allow_redirects=False,
        timeout=10,
    )
