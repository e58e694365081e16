"""ftsite.closed_sockets: a full collection once the closed sockets outnumber the open ones
(and a minimum), a moment after the close, never while a storm's sockets are back."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator
from typing import Any

import pytest

from ftsite import closed_sockets
from ftsite.closed_sockets import ClosedSocketsCollector


class Cycle:
    """What a closed socket leaves: objects that refer to each other."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def collectors(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[ClosedSocketsCollector]]:
    monkeypatch.setattr(closed_sockets, "DELAY_SECONDS", 0.05)
    made: list[ClosedSocketsCollector] = []
    yield made
    for collector in made:
        gc.callbacks.remove(collector._seen)


def make(made: list[ClosedSocketsCollector], minimum: int) -> tuple[ClosedSocketsCollector, dict]:
    """A collector around a socket that stays open until its ``release`` event is set."""
    held: dict[str, Any] = {"release": None}

    async def socket(scope: dict, receive: Any, send: Any) -> None:
        Cycle()
        await held["release"].wait()

    collector = ClosedSocketsCollector(socket, minimum=minimum)
    made.append(collector)
    return collector, held


async def sockets(collector: ClosedSocketsCollector, held: dict, n: int) -> list[asyncio.Task]:
    held["release"] = asyncio.Event()
    tasks = [asyncio.create_task(collector({"type": "websocket"}, None, None)) for _ in range(n)]
    await asyncio.sleep(0)
    return tasks


def test_it_collects_once_the_closed_outnumber_the_open(collectors: list) -> None:
    collector, held = make(collectors, minimum=10)

    async def storm() -> None:
        first = await sockets(collector, held, 30)
        assert collector.open == 30
        held["release"].set()
        await asyncio.gather(*first)
        assert collector.collections == 0  # not at once: a moment later, once for the burst
        await asyncio.sleep(0.2)

    gc.disable()  # the thresholds' own collections would reset the count first
    try:
        asyncio.run(storm())
    finally:
        gc.enable()
    assert collector.collections == 1 and collector.closed == 0 and collector.open == 0


def test_it_waits_for_the_minimum(collectors: list) -> None:
    collector, held = make(collectors, minimum=50)

    async def few() -> None:
        tasks = await sockets(collector, held, 30)
        held["release"].set()
        await asyncio.gather(*tasks)
        await asyncio.sleep(0.2)

    gc.disable()
    try:
        asyncio.run(few())
    finally:
        gc.enable()
    assert collector.collections == 0 and collector.closed == 30


def test_it_collects_nothing_when_a_storms_sockets_are_back(collectors: list) -> None:
    collector, held = make(collectors, minimum=10)

    async def reconnect() -> None:
        before = await sockets(collector, held, 20)
        held["release"].set()
        await asyncio.gather(*before)
        await sockets(collector, held, 40)  # back within the delay, and more of them
        await asyncio.sleep(0.2)
        assert collector.collections == 0 and collector.closed == 20 and collector.open == 40
        held["release"].set()
        await asyncio.sleep(0.2)

    gc.disable()
    try:
        asyncio.run(reconnect())
    finally:
        gc.enable()
    assert collector.collections == 1 and collector.open == 0


def test_any_full_collection_starts_the_count_again(collectors: list) -> None:
    collector, held = make(collectors, minimum=1000)

    async def some() -> None:
        tasks = await sockets(collector, held, 5)
        held["release"].set()
        await asyncio.gather(*tasks)

    asyncio.run(some())
    assert collector.closed == 5
    gc.collect()
    assert collector.closed == 0


def test_a_minimum_of_zero_turns_it_off(collectors: list) -> None:
    collector, held = make(collectors, minimum=0)

    async def some() -> None:
        tasks = await sockets(collector, held, 5)
        held["release"].set()
        await asyncio.gather(*tasks)
        await asyncio.sleep(0.2)

    gc.disable()
    try:
        asyncio.run(some())
    finally:
        gc.enable()
    assert collector.collections == 0


def test_the_site_and_the_echo_baseline_collect_their_sockets() -> None:
    from ftsite.asgi import application

    assert isinstance(application.application_mapping["websocket"], ClosedSocketsCollector)
