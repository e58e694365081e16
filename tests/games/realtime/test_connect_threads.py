"""A connect-thread call (``games.realtime.connect_threads``) runs on a connect thread in
its caller's context and raises where it is awaited, runs once more on a new
connection when the database dropped its own, and leaves behind no connection that must
not serve the next call; a game socket makes no hop to the shared thread per message."""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time
from typing import Any

import pytest
from channels import consumer as channels_consumer
from channels.generic import websocket as channels_websocket
from django.conf import settings
from django.db import OperationalError, connection, connections

from games.models import User
from games.realtime import connect_threads
from tests.support.sockets import ask, join, run_async

from ..conftest import practice_game


def test_a_call_whose_connection_dropped_runs_once_more(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    closed: list[bool] = []
    monkeypatch.setattr(connection, "close", lambda: closed.append(True))
    monkeypatch.setattr(connect_threads, "connection_tidy", lambda: None)

    def flaky() -> str:
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return "read"

    assert connect_threads._once_more_if_dropped(flaky) == "read"
    assert len(calls) == 2 and closed == [True]


def test_a_call_that_fails_twice_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connection, "close", lambda: None)
    monkeypatch.setattr(connect_threads, "connection_tidy", lambda: None)

    def down() -> None:
        raise OperationalError("the database is down")

    with pytest.raises(OperationalError):
        connect_threads._once_more_if_dropped(down)


_ASKED: contextvars.ContextVar[str] = contextvars.ContextVar("asked", default="nobody")


def test_a_call_runs_on_a_connect_thread_in_the_callers_context_and_raises_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(connect_threads, "connection_tidy", lambda: None)
    started = threading.Event()

    def where() -> tuple[str, str]:
        return threading.current_thread().name, _ASKED.get()

    def fails() -> None:
        raise ValueError("no such row")

    def slow() -> None:
        started.set()
        time.sleep(0.05)

    async def calls() -> None:
        _ASKED.set("this socket")
        thread, asked = await connect_threads.on_connect_thread(where)
        assert thread.startswith("connects_") and asked == "this socket"
        with pytest.raises(ValueError, match="no such row"):
            await connect_threads.on_connect_thread(fails)
        # A caller that goes away (a socket closed mid-connect) leaves the threads serving.
        waiting = asyncio.ensure_future(connect_threads.on_connect_thread(slow))
        await asyncio.get_running_loop().run_in_executor(None, started.wait, 5)
        waiting.cancel()
        for _ in range(2 * settings.FT_CONNECT_THREADS):
            assert (await connect_threads.on_connect_thread(where))[1] == "this socket"

    asyncio.run(calls())


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("fault", ["errors", "expired", "atomic", "fine"])
def test_a_connection_that_must_not_serve_again_is_closed(
    fault: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    wrapper = connections["default"]  # this thread's, as connection_tidy sees it
    wrapper.ensure_connection()
    closed: list[bool] = []
    monkeypatch.setattr(wrapper, "close", lambda: closed.append(True))
    monkeypatch.setattr(wrapper, "errors_occurred", fault == "errors")
    monkeypatch.setattr(wrapper, "close_at", 0.0 if fault == "expired" else None)
    monkeypatch.setattr(wrapper, "in_atomic_block", fault == "atomic")
    connect_threads.connection_tidy()
    assert closed == ([] if fault == "fine" else [True])


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("empty_channel_layer")
@run_async
async def test_a_game_socket_makes_no_hop_to_the_shared_thread_per_message(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    hops: list[Any] = []

    async def counted() -> None:
        hops.append(1)

    monkeypatch.setattr(channels_consumer, "aclose_old_connections", counted)
    monkeypatch.setattr(channels_websocket, "aclose_old_connections", counted)
    from tests.support.sockets import db

    game = await db(practice_game)(user)
    ws, hello = await join(game.pk, user)
    assert hello["role"] == "player"
    answer = await ask(ws, {"type": "move", "id": "m1", "move": "s", "version": 0})
    assert answer["type"] == "accepted"
    await ws.disconnect()
    assert hops == []
