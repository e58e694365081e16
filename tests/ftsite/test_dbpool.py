"""The database pool's settings, the check of its connections, the tidy of a thread's
connection and the busy 503 (ftsite.dbpool, ftsite.blocks; issue 37). The pool at work,
two processes under many clients against PostgreSQL: tests/integration/test_db_pool.py."""

from __future__ import annotations

import ast
import logging
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import OperationalError, connections
from django.test import Client, RequestFactory
from django.utils import translation
from psycopg_pool import PoolTimeout

from ftsite import dbpool
from ftsite.blocks import databases, pool_options
from games import selectors
from games.runtime import move_threads
from tests.support.fresh_settings import BASE_ENV, ROOT

POSTGRES = {"DATABASE_URL": "postgres://ft@db.example:5432/ft"}
DEFAULTS: dict[str, Any] = dict(min_size=2, max_size=20, timeout=10.0, max_idle=3.0, name=None)


def options(**changed: Any) -> dict[str, Any]:
    return pool_options(**(DEFAULTS | changed))


# Settings -------------------------------------------------------------------------------


def test_the_pool_options_are_what_psycopg_pool_takes() -> None:
    assert options() == {"min_size": 2, "max_size": 20, "timeout": 10.0, "max_idle": 3.0}
    assert options(name="web1")["name"] == "web1"


@pytest.mark.parametrize(
    ("changed", "variable"),
    [
        ({"max_size": 0}, "DJANGO_DB_POOL_MAX"),
        ({"min_size": 21}, "DJANGO_DB_POOL_MIN"),
        ({"min_size": -1}, "DJANGO_DB_POOL_MIN"),
        ({"timeout": 0.0}, "DJANGO_DB_POOL_TIMEOUT"),
        ({"max_idle": 0.5}, "DJANGO_DB_POOL_MAX_IDLE"),
    ],
)
def test_it_refuses_pool_options_that_cannot_hold(changed: dict[str, Any], variable: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=variable):
        options(**changed)


def test_postgresql_with_the_pool_uses_the_pooled_backend_without_a_round_trip_check() -> None:
    db = databases(
        POSTGRES["DATABASE_URL"],
        sqlite_path=Path("x.sqlite3"),
        conn_max_age=0,
        lock_timeout_ms=500,
        pool=options(),
        application_name="web1",
    )["default"]
    assert db["ENGINE"] == "ftsite.postgresql"
    assert (db["CONN_MAX_AGE"], db["CONN_HEALTH_CHECKS"]) == (0, False)
    assert db["OPTIONS"] == {
        "options": "-c lock_timeout=500",
        "application_name": "web1",
        "pool": options(),
    }


def test_it_refuses_persistent_connections_beside_the_pool() -> None:
    with pytest.raises(ImproperlyConfigured, match="DJANGO_CONN_MAX_AGE=60"):
        databases(
            POSTGRES["DATABASE_URL"],
            sqlite_path=Path("x"),
            conn_max_age=60,
            lock_timeout_ms=0,
            pool=options(),
        )


def test_without_the_pool_each_thread_keeps_its_connection_as_before() -> None:
    db = databases(
        POSTGRES["DATABASE_URL"], sqlite_path=Path("x"), conn_max_age=60, lock_timeout_ms=0
    )["default"]
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["CONN_MAX_AGE"], db["CONN_HEALTH_CHECKS"]) == (60, True)
    assert "pool" not in db["OPTIONS"]


def fresh_databases(**env: str) -> subprocess.CompletedProcess[str]:
    """``settings.DATABASES`` as a new process sees it under ``env`` (or its error)."""
    code = (
        "import django; django.setup(); from django.conf import settings;"
        " print(repr(settings.DATABASES['default']))"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**BASE_ENV, **env}, capture_output=True,
        text=True,
    )  # fmt: skip


def test_a_process_on_postgresql_pools_its_connections_by_default() -> None:
    done = fresh_databases(**POSTGRES)
    assert done.returncode == 0, done.stderr[-2000:]
    db = ast.literal_eval(done.stdout.strip())
    assert db["ENGINE"] == "ftsite.postgresql" and db["CONN_MAX_AGE"] == 0
    assert db["OPTIONS"]["pool"] == options()


def test_the_environment_sizes_and_names_the_pool() -> None:
    done = fresh_databases(
        **POSTGRES,
        DJANGO_DB_POOL_MIN="1",
        DJANGO_DB_POOL_MAX="8",
        DJANGO_DB_POOL_TIMEOUT="2.5",
        DJANGO_DB_POOL_MAX_IDLE="30",
        DJANGO_DB_APPLICATION_NAME="web2",
    )
    assert done.returncode == 0, done.stderr[-2000:]
    db = ast.literal_eval(done.stdout.strip())
    assert db["OPTIONS"]["pool"] == options(
        min_size=1, max_size=8, timeout=2.5, max_idle=30.0, name="web2"
    )
    assert db["OPTIONS"]["application_name"] == "web2"


def test_the_pool_can_be_turned_off_for_the_old_connections() -> None:
    done = fresh_databases(**POSTGRES, DJANGO_DB_POOL="false")
    assert done.returncode == 0, done.stderr[-2000:]
    db = ast.literal_eval(done.stdout.strip())
    assert db["ENGINE"] == "django.db.backends.postgresql" and db["CONN_MAX_AGE"] == 60


def test_sqlite_has_no_pool() -> None:
    done = fresh_databases(DJANGO_DEBUG="true")
    assert done.returncode == 0, done.stderr[-2000:]
    db = ast.literal_eval(done.stdout.strip())
    assert db["ENGINE"] == "django.db.backends.sqlite3" and "pool" not in db["OPTIONS"]
    assert db["OPTIONS"]["transaction_mode"] == "IMMEDIATE"  # tests/ftsite/test_sqlite_writers.py


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"DJANGO_DB_POOL_MAX": "lots"}, "DJANGO_DB_POOL_MAX='lots' is not an integer"),
        ({"DJANGO_DB_POOL_MAX": "4", "DJANGO_DB_POOL_MIN": "5"}, "DJANGO_DB_POOL_MIN=5"),
        ({"DJANGO_DB_POOL_TIMEOUT": "soon"}, "DJANGO_DB_POOL_TIMEOUT='soon'"),
        ({"DJANGO_DB_POOL": "maybe"}, "DJANGO_DB_POOL='maybe' is not a boolean"),
        ({"DJANGO_CONN_MAX_AGE": "60"}, "DJANGO_CONN_MAX_AGE=60 keeps a connection"),
    ],
)
def test_a_process_refuses_to_start_on_pool_settings_it_cannot_use(
    env: dict[str, str], named: str
) -> None:
    done = fresh_databases(**POSTGRES, **env)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr and named in done.stderr, done.stderr[-2000:]


# The check of a pooled connection and the tidy of a thread's -----------------------------


class FakeConnection:
    """What ``connection_dropped`` reads of a psycopg connection: ``closed``, the socket,
    and (for the round trip) ``autocommit`` and ``execute``."""

    def __init__(self, sock: socket.socket, *, answers: bool = True) -> None:
        self.closed = False
        self.autocommit = True
        self.pgconn = type("PGconn", (), {"socket": sock.fileno()})()
        self.answers, self.asked = answers, 0

    def execute(self, query: str) -> None:
        self.asked += 1
        if not self.answers:
            raise psycopg.OperationalError("server closed the connection unexpectedly")


def test_an_idle_connection_with_nothing_to_read_passes_without_a_round_trip() -> None:
    ours, server = socket.socketpair()
    with ours, server:
        conn = FakeConnection(ours)
        assert dbpool.connection_dropped(conn) is False
        assert conn.asked == 0


def test_a_connection_the_server_said_goodbye_on_is_dropped_after_one_round_trip() -> None:
    ours, server = socket.socketpair()
    with ours:
        server.sendall(b"E...FATAL terminating connection due to administrator command")
        server.close()
        conn = FakeConnection(ours, answers=False)
        assert dbpool.connection_dropped(conn) is True
        assert conn.asked == 1


def test_something_to_read_on_a_working_connection_keeps_it() -> None:
    ours, server = socket.socketpair()
    with ours, server:
        server.sendall(b"a notice")
        conn = FakeConnection(ours)
        assert dbpool.connection_dropped(conn) is False
        assert conn.asked == 1


def test_a_closed_connection_is_dropped() -> None:
    ours, server = socket.socketpair()
    with ours, server:
        conn = FakeConnection(ours)
        conn.closed = True
        assert dbpool.connection_dropped(conn) is True


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("pooled", [True, False])
def test_a_pooled_connection_goes_back_after_each_call(
    pooled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    wrapper = connections["default"]
    wrapper.ensure_connection()
    closed: list[bool] = []
    monkeypatch.setattr(wrapper, "close", lambda: closed.append(True))
    monkeypatch.setattr(wrapper, "close_at", None)
    monkeypatch.setitem(wrapper.settings_dict, "OPTIONS", {"pool": options()} if pooled else {})
    dbpool.connection_tidy()
    assert closed == ([True] if pooled else [])


def timed_out() -> OperationalError:
    """What Django raises when the pool had no connection in time."""
    try:
        try:
            raise PoolTimeout("couldn't get a connection after 10.00 sec")
        except PoolTimeout as cause:
            raise OperationalError(str(cause)) from cause
    except OperationalError as error:
        return error


def test_a_wait_for_the_pool_is_told_apart_from_other_database_errors() -> None:
    assert dbpool.pool_timeout_in(timed_out())
    assert dbpool.pool_timeout_in(PoolTimeout("x"))
    assert not dbpool.pool_timeout_in(OperationalError("server closed the connection"))
    assert not dbpool.pool_timeout_in(None)


def test_an_action_that_waited_too_long_for_a_connection_is_not_tried_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []

    def act() -> None:
        calls.append(1)
        raise timed_out()

    monkeypatch.setattr(move_threads.connection, "close", lambda: None)
    with pytest.raises(OperationalError):
        move_threads.retrying_once(act)
    assert calls == [1]


# The busy 503 -------------------------------------------------------------------------


def test_the_handler_answers_a_wait_past_the_timeout_503_with_retry_after() -> None:
    request = RequestFactory().get("/")
    try:
        raise timed_out()
    except OperationalError:
        # In English whatever language an earlier test of this thread left active.
        with translation.override("en"):
            response = dbpool.server_error(request)
    assert response.status_code == 503
    assert response["Retry-After"] == str(dbpool.BUSY_RETRY_AFTER_S)
    assert "The site is busy" in response.content.decode()


def test_the_handler_leaves_any_other_failure_a_500() -> None:
    request = RequestFactory().get("/")
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        response = dbpool.server_error(request)
    assert response.status_code == 500


def no_connection(**_: object) -> None:
    raise timed_out()


@pytest.mark.django_db
def test_a_page_without_a_connection_in_time_says_busy_in_the_visitors_language(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(selectors, "daily_summary", no_connection)
    browser = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="it")
    with caplog.at_level(logging.WARNING):
        response = browser.get("/")
    # One line for the operator, not a traceback per request of a crowd.
    assert [(r.name, r.levelname) for r in caplog.records] == [("ftsite.dbpool", "WARNING")]
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    page = response.content.decode()
    with translation.override("it"):
        assert translation.gettext("The site is busy") in page
    assert "Il sito è occupato" in page and 'lang="it"' in page


@pytest.mark.django_db
def test_the_api_says_busy_as_json_with_retry_after(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(selectors, "game_state", no_connection)
    api = Client(raise_request_exception=False)
    response = api.get("/api/v1/games/00000000-0000-0000-0000-000000000000")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.json() == {"code": "busy", "reason": "the server is busy; try again in 5 s"}


# What the operator sees ---------------------------------------------------------------


def test_the_metrics_show_the_pool_against_its_ceiling(monkeypatch: pytest.MonkeyPatch) -> None:
    from ftsite.metrics import PoolCollector

    class Pool:
        def get_stats(self) -> dict[str, int]:
            return {
                "pool_max": 20, "pool_size": 7, "pool_available": 3, "requests_waiting": 2,
                "requests_errors": 4, "requests_wait_ms": 1500,
            }  # fmt: skip

    monkeypatch.setattr(connections["default"], "pool", Pool(), raising=False)
    values = {family.name: family.samples[0].value for family in PoolCollector().collect()}
    assert values == {
        "ft_db_pool_max": 20,
        "ft_db_pool_open": 7,
        "ft_db_pool_idle": 3,
        "ft_db_pool_waiting": 2,
        "ft_db_pool_timeouts": 4,
        "ft_db_pool_wait_seconds": 1.5,
    }
