"""Database connections stay within each process's pool (issue 37: a web process that starts
with a handful of connections held 67 after 30 concurrent HTTP clients, still 68 after a
minute idle, and two of them filled PostgreSQL's 100 and answered 500s).

Two daphne processes with a small pool (ceiling 6, floor 1, an unused connection closed
every second), each naming its connections in ``pg_stat_activity``; 60 HTTP clients asking
for pages as fast as they are answered and 10 players playing over game sockets, for
``FT_POOL_TEST_SECONDS`` (10 s; ``load.pool`` is the full 200 clients x 60 s), the
connections counted every 0.1 s throughout. No process ever holds more than its ceiling; no
answer is a server error but the documented busy 503 (with ``Retry-After``); every move is
answered and none is refused; and once the clients stop each process is back to its floor.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import requests
from django.conf import settings

from load import client
from load.http_load import HttpTally, drive
from load.players import make_players
from load.pool import Counts
from load.stats import summary
from tests.support.servers import start_server

from .conftest import UNPACED, server_env, start_pair

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]

CEILING, FLOOR = 6, 1
SECONDS = float(os.environ.get("FT_POOL_TEST_SECONDS", "10"))
HTTP_CLIENTS, PLAYERS = 60, 10
POOL = {
    "DJANGO_DB_POOL": "true",
    "DJANGO_DB_POOL_MAX": str(CEILING),
    "DJANGO_DB_POOL_MIN": str(FLOOR),
    "DJANGO_DB_POOL_MAX_IDLE": "1",
}


def database_url() -> str:
    db = settings.DATABASES["default"]
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def back_to_floor(counts: Counts, names: list[str], within: float) -> dict[str, int]:
    """The connections per process once every one is at the floor, or at ``within``."""
    deadline = time.monotonic() + within
    while True:
        now = counts.now()
        if all(now.get(name, 0) <= FLOOR for name in names) or time.monotonic() > deadline:
            return now
        time.sleep(0.25)


def test_two_processes_under_many_clients_hold_no_more_than_their_pools_and_give_back(
    static_collected: None, tmp_path: Path
) -> None:
    prefix = f"ftpool-{uuid.uuid4().hex[:8]}-"
    names = [f"{prefix}web1", f"{prefix}web2"]
    env = server_env() | UNPACED | POOL
    each = ({"DJANGO_DB_APPLICATION_NAME": names[0]}, {"DJANGO_DB_APPLICATION_NAME": names[1]})
    servers = start_pair(env, tmp_path, each)
    counts = Counts(database_url(), prefix)
    played: dict[str, Any] = {}
    try:
        players = make_players(PLAYERS)
        seats = [
            client.Seat(f"127.0.0.1:{servers[n % 2].port}", p.game_id, p.cookie)
            for n, p in enumerate(players)
        ]

        def play() -> None:
            played.update(summary(client.run(seats, client.Phase(duration=SECONDS, warmup=1))))

        with counts.sampling():
            sockets = threading.Thread(target=play, name="players")
            sockets.start()
            tally: HttpTally = drive(
                [s.port for s in servers], clients=HTTP_CLIENTS, seconds=SECONDS
            )
            sockets.join(timeout=SECONDS + 60)
        peak = counts.peak()
        idle = back_to_floor(counts, names, within=(CEILING - FLOOR) * 1.0 + 15)
    finally:
        for server in servers:
            server.stop()
    pages = tally.summary()

    assert set(peak) == set(names), peak  # both processes were counted, by their names
    assert all(n <= CEILING for n in peak.values()), peak
    assert max(peak.values()) > FLOOR, peak  # the clients made the pools grow
    assert pages["server_errors"] == 0, pages
    assert set(pages["statuses"]) <= {200, 503}, pages  # 503 only the busy one, counted apart
    assert pages["client_errors"] == {}, pages
    assert pages["requests"] >= HTTP_CLIENTS, pages
    assert played["connected"] == PLAYERS, played
    assert (played["lost"], played["dropped"], played["errors"]) == (0, {}, {}), played
    assert played["refused"] == {}, played  # no server_error: every move had a connection
    assert played["acked"] > 0, played
    assert all(idle.get(name, 0) <= FLOOR for name in names), idle


def test_a_process_out_of_connections_answers_busy_503s_with_retry_after_never_500s(
    static_collected: None, tmp_path: Path
) -> None:
    """One connection, a tenth of a second's wait for it, 40 clients on the home page: most
    wait too long, and each of those is told the site is busy (503, Retry-After), in a
    page of its own; every other answer is the page."""
    env = server_env() | {
        "DJANGO_DB_POOL": "true",
        "DJANGO_DB_POOL_MAX": "1",
        "DJANGO_DB_POOL_MIN": "1",
        "DJANGO_DB_POOL_TIMEOUT": "0.1",
    }
    server = start_server(env, tmp_path, ready_path="/rules/")
    try:
        tally = drive([server.port], clients=40, seconds=5, pages=("/",))
        quiet = requests.get(f"{server.http}/", timeout=10)  # the load gone: the page again
    finally:
        server.stop()
    pages = tally.summary()
    assert pages["server_errors"] == 0, pages  # no 500, no 503 without Retry-After
    assert pages["busy"] > 0, pages
    assert set(pages["statuses"]) == {200, 503}, pages
    assert quiet.status_code == 200
    assert "Too many people at once" not in quiet.text
