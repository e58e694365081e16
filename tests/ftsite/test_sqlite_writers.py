"""SQLite's settings for `make run` and the browser tier (ftsite.blocks.SQLITE_OPTIONS):
two threads that each read and then write in one transaction both get through.

With SQLite's default deferred transactions the second of them cannot wait for the first
(each holds a read lock the other needs to write) and is refused at once, "database is
locked": a finished game's verification, run in-process on the embedded defaults, was lost
that way while the other player's resign wrote (CI, tests/browser/test_duel.py)."""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path
from typing import Any

import pytest
from django.db import connections, transaction
from django.db.backends.sqlite3.base import DatabaseWrapper
from django.db.utils import OperationalError

from ftsite.blocks import SQLITE_OPTIONS


def _connection(path: Path, options: dict[str, Any]) -> DatabaseWrapper:
    settings = {
        "ENGINE": "django.db.backends.sqlite3", "NAME": str(path), "OPTIONS": options,
        "ATOMIC_REQUESTS": False, "AUTOCOMMIT": True, "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": False, "TIME_ZONE": None, "USER": "", "PASSWORD": "",
        "HOST": "", "PORT": "", "TEST": {},
    }  # fmt: skip
    return DatabaseWrapper(settings, alias=f"writers-{id(options)}-{threading.get_ident()}")


def _read_then_write(path: Path, options: dict[str, Any], both_read: threading.Barrier) -> str:
    """One thread's transaction as the site's are: ``atomic()``, a read, then a write."""
    connection = _connection(path, options)
    connections[connection.alias] = connection
    try:
        with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
            cursor.execute("SELECT n FROM counter")
            # Both transactions hold what they read; in immediate mode the other one is
            # still waiting for the lock, and the barrier gives up.
            with contextlib.suppress(threading.BrokenBarrierError):
                both_read.wait(timeout=1)
            cursor.execute("UPDATE counter SET n = n + 1")
        return "ok"
    except OperationalError as err:
        return str(err)
    finally:
        connection.close()
        del connections[connection.alias]


def _race(path: Path, options: dict[str, Any]) -> list[str]:
    setup = _connection(path, options)
    with setup.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS counter (n INTEGER)")
        cursor.execute("DELETE FROM counter")
        cursor.execute("INSERT INTO counter VALUES (0)")
    setup.close()
    barrier = threading.Barrier(2)
    outcomes: list[str] = []
    threads = [
        threading.Thread(target=lambda: outcomes.append(_read_then_write(path, options, barrier)))
        for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


@pytest.mark.parametrize("options", [SQLITE_OPTIONS], ids=["site"])
def test_two_writers_that_read_first_both_commit(
    tmp_path: Path, options, django_db_blocker
) -> None:
    with django_db_blocker.unblock():  # a file of its own, not the test database
        assert _race(tmp_path / "db.sqlite3", options) == ["ok", "ok"]


def test_with_deferred_transactions_one_of_them_is_refused(
    tmp_path: Path, django_db_blocker
) -> None:
    """The check can fail: SQLite's default refuses one of the two writers."""
    with django_db_blocker.unblock():
        outcomes = _race(tmp_path / "db.sqlite3", {"timeout": 5})
    assert sorted(outcomes) == ["database is locked", "ok"]
