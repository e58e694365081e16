"""Sending to channel-layer groups from a worker (no server event loop in the thread).

A fake layer stands in for channels_redis: it records what arrives, and can be made slow
or limited to a number of concurrent sends, as the real Redis pool is.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from ftsite import group_send as broadcast


class FakeLayer:
    def __init__(self, *, delay: float = 0.0, limit: int | None = None) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.delay, self.limit = delay, limit
        self.active = self.most_active = 0
        self.lock = threading.Lock()

    async def group_send(self, group: str, event: dict[str, Any]) -> None:
        with self.lock:
            self.active += 1
            self.most_active = max(self.most_active, self.active)
            over = self.limit is not None and self.active > self.limit
        try:
            if over:
                raise ConnectionError("too many connections")
            await asyncio.sleep(self.delay)
            with self.lock:
                self.sent.append((group, event))
        finally:
            with self.lock:
                self.active -= 1


@pytest.fixture
def layer(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLayer]:
    fake = FakeLayer(delay=0.005, limit=broadcast.SEND_SLOTS)
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: fake)
    monkeypatch.setattr(broadcast, "NUDGE_GAP", 0.2)
    yield fake


def from_a_worker_thread(calls) -> None:  # noqa: ANN001 - a callable of no arguments
    """Run ``calls`` in a plain thread: no server event loop, as in a Celery task."""
    thread = threading.Thread(target=calls)
    thread.start()
    thread.join()


def wait_until(condition, timeout: float = 5.0) -> None:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_a_burst_of_sends_queues_instead_of_failing(layer: FakeLayer) -> None:
    def burst() -> None:
        for n in range(500):
            broadcast.group_send(f"game-{n % 7}", {"type": "game.action", "n": n})

    from_a_worker_thread(burst)
    wait_until(lambda: len(layer.sent) == 500)
    assert layer.most_active <= broadcast.SEND_SLOTS
    assert sorted(event["n"] for _group, event in layer.sent) == list(range(500))


def test_nudges_to_one_group_fold_into_the_first_and_the_latest(layer: FakeLayer) -> None:
    def nudges() -> None:
        for n in range(50):
            broadcast.group_nudge("board-x", {"type": "board.changed", "n": n})

    from_a_worker_thread(nudges)
    wait_until(lambda: len(layer.sent) == 2)
    time.sleep(0.5)  # two gaps: nothing else comes
    assert [event["n"] for _group, event in layer.sent] == [0, 49]


def test_nudges_to_different_groups_do_not_wait_for_each_other(layer: FakeLayer) -> None:
    def nudges() -> None:
        for group in ("board-a", "board-b", "board-c"):
            broadcast.group_nudge(group, {"type": "board.changed"})

    started = time.monotonic()
    from_a_worker_thread(nudges)
    wait_until(lambda: len(layer.sent) == 3)
    assert time.monotonic() - started < broadcast.NUDGE_GAP
    assert sorted(group for group, _event in layer.sent) == ["board-a", "board-b", "board-c"]


def test_a_nudge_after_the_gap_goes_at_once(layer: FakeLayer) -> None:
    from_a_worker_thread(lambda: broadcast.group_nudge("board-y", {"n": 1}))
    wait_until(lambda: len(layer.sent) == 1)
    time.sleep(broadcast.NUDGE_GAP + 0.1)
    from_a_worker_thread(lambda: broadcast.group_nudge("board-y", {"n": 2}))
    wait_until(lambda: len(layer.sent) == 2)
    assert [event["n"] for _group, event in layer.sent] == [1, 2]


def on_a_server_thread(
    monkeypatch: pytest.MonkeyPatch,
    layer: FakeLayer,
    calls,  # noqa: ANN001 - a callable of no arguments
    *,
    until,  # noqa: ANN001 - a condition of no arguments
) -> None:
    """Run ``calls`` in a thread that belongs to a running server loop (as a socket's action
    thread does), with ``layer`` as the channel layer, until ``until()`` holds."""
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()

    def server_thread() -> None:
        monkeypatch.setattr(broadcast, "server_loop", lambda: loop)
        calls()

    try:
        from_a_worker_thread(server_thread)
        wait_until(until)
    finally:
        loop.call_soon_threadsafe(loop.stop)


def test_a_send_soon_from_a_server_thread_does_not_wait_and_keeps_the_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A duel move's answer waited for its progress's send on the server's busy loop; now
    # the action thread hands it over and goes on, and the loop sends in the given order.
    slow = FakeLayer(delay=0.05)
    handed: list[float] = []

    def action_thread() -> None:
        started = time.monotonic()
        for n in range(5):
            broadcast.group_send_soon("duel-x", {"type": "duel.event", "n": n})
        handed.append(time.monotonic() - started)

    on_a_server_thread(monkeypatch, slow, action_thread, until=lambda: len(slow.sent) == 5)
    assert handed[0] < 0.05  # five sends of 50 ms each: none waited for
    assert [event["n"] for _group, event in slow.sent] == [0, 1, 2, 3, 4]
    assert slow.most_active == 1  # one at a time: a group hears one process in order


class BatchingLayer(FakeLayer):
    """A layer that takes many sends at once, as ftsite.channel_layer's does."""

    def __init__(self, *, delay: float) -> None:
        super().__init__(delay=delay)
        self.batches: list[int] = []

    async def group_send_many(self, sends: list[tuple[str, dict[str, Any]]]) -> None:
        await asyncio.sleep(self.delay)
        with self.lock:
            self.batches.append(len(sends))
            self.sent.extend(sends)


def test_an_outbox_with_many_waiting_hands_them_to_the_layer_in_one_batch_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One send at a time, each waiting for its round trips through a busy loop, fell
    # seconds behind at 150 duels: what waits goes together.
    batching = BatchingLayer(delay=0.05)

    def action_thread() -> None:
        for n in range(30):
            broadcast.group_send_soon(f"duel-{n % 3}", {"type": "duel.event", "n": n})

    on_a_server_thread(monkeypatch, batching, action_thread, until=lambda: len(batching.sent) == 30)
    assert [event["n"] for _group, event in batching.sent] == list(range(30))
    assert len(batching.batches) <= 3  # the first alone at most, then the rest together
