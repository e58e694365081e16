"""A connect-thread call (``games.socket.connect_threads``) runs on a connect thread in
its caller's context and raises where it is awaited, runs once more on a new
connection when the database dropped its own, and leaves behind no connection that must
not serve the next call; a game socket makes no hop to the shared thread per message."""

from __future__ import annotations

import asyncio
import contextvars
import queue
import threading
import time
from typing import Any

import pytest
from channels import consumer as channels_consumer
from channels.generic import websocket as channels_websocket
from django.conf import settings
from django.db import OperationalError, connection, connections

from games.models import User
from games.socket import connect_threads
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


# Batched calls: a storm's connects taken together ------------------------------------------


def _item_call(fn_many: Any, item: Any) -> tuple[Any, ...]:
    return (None, None, contextvars.copy_context(), fn_many, (item,), connect_threads.BATCHED)


def test_a_thread_takes_the_items_of_the_same_batched_call_waiting_behind_the_first() -> None:
    def many(items: list[int]) -> list[int]:
        return items

    def other(items: list[int]) -> list[int]:
        return items

    plain = (None, None, contextvars.copy_context(), print, (), {})
    waiting: Any = queue.SimpleQueue()
    for call in (_item_call(many, 2), plain, _item_call(other, 9), _item_call(many, 3)):
        waiting.put(call)
    held: list[Any] = []
    batch = connect_threads._gather(_item_call(many, 1), held, waiting)
    assert [call[4][0] for call in batch] == [1, 2, 3]
    # What the thread took meanwhile is run next, in order, by the same thread.
    assert held[0] is plain and held[1][3] is other and waiting.empty()


def test_a_batch_stops_at_its_limit_and_leaves_the_rest_waiting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(connect_threads, "MAX_BATCH", 3)

    def many(items: list[int]) -> list[int]:
        return items

    waiting: Any = queue.SimpleQueue()
    for n in range(2, 6):
        waiting.put(_item_call(many, n))
    batch = connect_threads._gather(_item_call(many, 1), [], waiting)
    assert [call[4][0] for call in batch] == [1, 2, 3]
    assert waiting.qsize() == 2  # 4 and 5


def test_items_read_together_each_get_their_own_result_or_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(connect_threads, "connection_tidy", lambda: None)
    batches: list[list[int]] = []
    release = threading.Event()

    def blocked() -> None:
        release.wait(5)

    def many(items: list[int]) -> list[Any]:
        batches.append(list(items))
        return [ValueError(f"item {n} is bad") if n == 2 else n * 10 for n in items]

    async def calls() -> None:
        # Every thread busy, so the items wait in line and one thread takes them together.
        busy = [
            asyncio.ensure_future(connect_threads.on_connect_thread(blocked))
            for _ in range(settings.FT_CONNECT_THREADS)
        ]
        await asyncio.sleep(0.05)
        items = [
            asyncio.ensure_future(connect_threads.on_connect_thread_batched(many, n))
            for n in (1, 2, 3)
        ]
        await asyncio.sleep(0.05)
        release.set()
        await asyncio.gather(*busy)
        results = await asyncio.gather(*items, return_exceptions=True)
        assert results[0] == 10 and results[2] == 30
        assert isinstance(results[1], ValueError) and str(results[1]) == "item 2 is bad"

    asyncio.run(calls())
    assert sorted(n for batch in batches for n in batch) == [1, 2, 3]
    assert all(batch == sorted(batch) for batch in batches)  # each batch in queue order
    assert len(batches) < 3 or settings.FT_CONNECT_THREADS >= 3


def test_a_batch_that_fails_fails_every_item_in_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connect_threads, "connection_tidy", lambda: None)

    def many(items: list[int]) -> list[int]:
        raise RuntimeError("the reads failed")

    def short(items: list[int]) -> list[int]:
        return items[:-1]

    async def calls() -> None:
        for fn_many in (many, short):
            results = await asyncio.gather(
                *(connect_threads.on_connect_thread_batched(fn_many, n) for n in (1, 2)),
                return_exceptions=True,
            )
            assert all(isinstance(r, RuntimeError) for r in results), results

    asyncio.run(calls())
