"""The action threads' retry: a dropped connection is tried again once on a fresh one;
SQLite's "table is locked" (another thread's statement) is waited out on the same one."""

from __future__ import annotations

import pytest
from django.db import InterfaceError, OperationalError

from games.runtime import move_threads
from games.runtime.move_threads import retrying_once


class Flaky:
    """Raises the given errors in turn, then answers "done"; counts its calls."""

    def __init__(self, *errors: Exception) -> None:
        self.errors = list(errors)
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return "done"


@pytest.fixture
def closes(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    closed: list[bool] = []
    monkeypatch.setattr(move_threads.connection, "close", lambda: closed.append(True))
    monkeypatch.setattr(move_threads, "SQLITE_LOCKED_NAP_S", 0.0)
    return closed


def test_it_waits_out_a_locked_table_on_the_same_connection(closes: list[bool]) -> None:
    locked = [OperationalError("database table is locked: games_game") for _ in range(5)]
    fn = Flaky(*locked)
    assert retrying_once(fn) == "done" and fn.calls == 6
    assert closes == []  # a lock is no lost connection


def test_it_gives_up_on_a_lock_that_outlasts_the_wait(
    closes: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(move_threads, "SQLITE_LOCKED_WAIT_S", 0.0)
    fn = Flaky(*[OperationalError("database is locked") for _ in range(3)])
    with pytest.raises(OperationalError):
        retrying_once(fn)
    assert fn.calls == 2 and closes == [True]  # then the one reconnect, which fails too


@pytest.mark.parametrize("error", [OperationalError("server closed"), InterfaceError("gone")])
def test_it_reconnects_once_when_the_connection_drops(closes: list[bool], error: Exception) -> None:
    fn = Flaky(error)
    assert retrying_once(fn) == "done" and fn.calls == 2 and closes == [True]
    fn = Flaky(error, error)
    with pytest.raises(type(error)):
        retrying_once(fn)
    assert fn.calls == 2  # once, not again and again


def test_an_action_runs_on_an_action_thread_that_knows_the_loop_and_the_language() -> None:
    """What follows an action sends on the server's loop (group_send_soon finds it), and
    what the action words is in the socket's language, as on asgiref's threads."""
    import asyncio
    import threading

    from django.utils import translation

    from ftsite.group_send import server_loop

    def action() -> tuple[str, bool, str]:
        loop = server_loop()
        return threading.current_thread().name, loop is running, translation.get_language()

    async def scenario() -> tuple[str, bool, str]:
        nonlocal running
        running = asyncio.get_running_loop()
        with translation.override("fi"):
            return await move_threads.on_move_thread(action)

    running: asyncio.AbstractEventLoop | None = None
    name, knows_loop, language = asyncio.run(scenario())
    assert name.startswith("moves")
    assert knows_loop
    assert language == "fi"
