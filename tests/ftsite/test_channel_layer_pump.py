"""The pumped channel layer's receiving, on a fake inbox (the real Redis is the integration
tier's, tests/integration/test_channel_layer.py): batches, order, channels whose consumer
has gone, and a failure reaching every waiting socket."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from ftsite.channel_layer import PumpedRedisChannelLayer


class FakeInbox:
    """The commands the pump sends, on one process's inbox kept in memory."""

    def __init__(self) -> None:
        self.members: list[tuple[bytes, float]] = []
        self.arrived = asyncio.Event()
        self.pops: list[int] = []  # how many each BZMPOP returned
        self.failure: Exception | None = None

    def push(self, member: bytes) -> None:
        self.members.append((member, float(len(self.members))))
        self.arrived.set()

    async def bzmpop(
        self, timeout: float, numkeys: int, keys: list[str], *, min: bool, count: int
    ) -> list[Any] | None:
        assert numkeys == len(keys) == 1 and min
        while not self.members:
            if self.failure is not None:
                raise self.failure
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), timeout)
            except TimeoutError:
                return None
        if self.failure is not None:
            raise self.failure
        taken, self.members = self.members[:count], self.members[count:]
        self.pops.append(len(taken))
        return [keys[0].encode(), [[member, str(score).encode()] for member, score in taken]]


def layer_on(inbox: FakeInbox, batch: int = 200) -> PumpedRedisChannelLayer:
    layer = PumpedRedisChannelLayer(hosts=["redis://127.0.0.1:1"], batch=batch)
    layer.connection = lambda index: inbox  # type: ignore[method-assign,assignment,return-value]
    return layer


def to(
    layer: PumpedRedisChannelLayer, inbox: FakeInbox, names: str | list[str], **body: Any
) -> None:
    """A message as channels_redis's own send and group_send put it in the inbox."""
    inbox.push(layer.serialize({"type": "t", **body, "__asgi_channel__": names}))


def test_it_takes_what_waits_in_the_inbox_in_one_round_trip_each_batch() -> None:
    async def scenario() -> list[int]:
        inbox = FakeInbox()
        layer = layer_on(inbox, batch=10)
        a = await layer.new_channel()
        for n in range(25):
            to(layer, inbox, a, n=n)
        got = [(await layer.receive(a))["n"] for _ in range(25)]
        assert got == list(range(25))  # in the order they were sent
        await layer._pump_stop()
        return inbox.pops

    pops = asyncio.run(scenario())
    assert pops[:3] == [10, 10, 5]


def test_a_message_that_arrives_alone_costs_one_round_trip() -> None:
    """At a duel's pace the inbox is mostly empty: each wake-up is one blocking pop that
    returns what arrived, never a pop that finds nothing before the blocking one."""

    async def scenario() -> list[int]:
        inbox = FakeInbox()
        layer = layer_on(inbox)
        a = await layer.new_channel()
        for n in range(3):
            receiving = asyncio.ensure_future(layer.receive(a))
            await asyncio.sleep(0.01)  # the pump waits in its blocking pop
            to(layer, inbox, a, n=n)
            assert (await asyncio.wait_for(receiving, 2))["n"] == n
        await layer._pump_stop()
        return inbox.pops

    assert asyncio.run(scenario()) == [1, 1, 1]


def test_a_group_message_reaches_each_of_the_process_s_channels_it_names() -> None:
    async def scenario() -> None:
        inbox = FakeInbox()
        layer = layer_on(inbox)
        a, b, c = [await layer.new_channel() for _ in range(3)]
        to(layer, inbox, [a, c], n=1)
        to(layer, inbox, b, n=2)
        assert (await layer.receive(c))["n"] == 1
        assert (await layer.receive(b))["n"] == 2
        message = await layer.receive(a)
        assert message == {"type": "t", "n": 1}  # the addressing is the layer's, not theirs
        await layer._pump_stop()

    asyncio.run(scenario())


def test_a_socket_that_closes_costs_the_others_none_of_their_messages() -> None:
    """The original's receiver cancelled mid-fetch needed a backup not to lose a message for
    another socket; here the fetch is the pump's, which no socket cancels."""

    async def scenario() -> None:
        inbox = FakeInbox()
        layer = layer_on(inbox)
        leaving, staying = await layer.new_channel(), await layer.new_channel()
        waiting = asyncio.ensure_future(layer.receive(leaving))
        other = asyncio.ensure_future(layer.receive(staying))
        await asyncio.sleep(0.01)
        waiting.cancel()
        to(layer, inbox, staying, n=7)
        assert (await asyncio.wait_for(other, 2))["n"] == 7
        await layer._pump_stop()

    asyncio.run(scenario())


def test_messages_for_a_channel_whose_consumer_has_gone_are_dropped_not_kept() -> None:
    async def scenario() -> PumpedRedisChannelLayer:
        inbox = FakeInbox()
        layer = layer_on(inbox)
        gone, here = await layer.new_channel(), await layer.new_channel()
        receiving = asyncio.ensure_future(layer.receive(gone))
        await asyncio.sleep(0.01)
        receiving.cancel()
        await asyncio.sleep(0)
        for n in range(5):
            to(layer, inbox, [gone, here], n=n)
        assert [(await layer.receive(here))["n"] for _ in range(5)] == list(range(5))
        await layer._pump_stop()
        return layer

    layer = asyncio.run(scenario())
    assert layer.dropped == 5
    assert len(layer.receive_buffer) == 0  # neither queue is left behind


def test_a_failure_of_redis_reaches_every_waiting_socket_and_a_new_pump_follows() -> None:
    async def scenario() -> None:
        inbox = FakeInbox()
        layer = layer_on(inbox)
        a, b = await layer.new_channel(), await layer.new_channel()
        receives = [asyncio.ensure_future(layer.receive(name)) for name in (a, b)]
        await asyncio.sleep(0.01)
        inbox.failure = ConnectionError("Connection closed by server.")
        inbox.arrived.set()
        for receive in receives:
            with pytest.raises(ConnectionError, match="closed by server"):
                await asyncio.wait_for(receive, 2)
        inbox.failure = None
        to(layer, inbox, a, n=3)
        assert (await asyncio.wait_for(layer.receive(a), 2))["n"] == 3
        await layer._pump_stop()

    asyncio.run(scenario())


def test_a_redis_older_than_7_is_named_in_the_log_as_the_cause(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from redis.exceptions import ResponseError

    async def scenario() -> None:
        inbox = FakeInbox()
        inbox.failure = ResponseError("unknown command 'BZMPOP', with args beginning with: ")
        layer = layer_on(inbox)
        a = await layer.new_channel()
        with pytest.raises(ResponseError):
            await asyncio.wait_for(layer.receive(a), 2)
        await layer._pump_stop()

    with caplog.at_level("ERROR", logger="ftsite.channel_layer"):
        asyncio.run(scenario())
    assert "needs Redis 7.0 or newer" in caplog.text


def test_it_refuses_a_batch_below_one() -> None:
    with pytest.raises(ValueError, match="batch must be at least 1, not 0"):
        PumpedRedisChannelLayer(hosts=["redis://127.0.0.1:1"], batch=0)


def test_the_settings_run_it_with_redis_and_channels_redis_s_own_at_a_batch_of_zero() -> None:
    from ftsite.blocks import channel_layers

    pumped = channel_layers("redis://127.0.0.1:6379/0")["default"]
    assert pumped["BACKEND"] == "ftsite.channel_layer.PumpedRedisChannelLayer"
    assert pumped["CONFIG"]["batch"] == 200
    original = channel_layers("redis://127.0.0.1:6379/0", batch=0)["default"]
    assert original["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert "batch" not in original["CONFIG"]


def test_outside_the_checked_channels_redis_versions_its_own_layer_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ftsite import blocks, patches

    monkeypatch.setattr(patches, "CHANNELS_REDIS", patches.Guard("channels-redis", "9", "10"))
    with pytest.warns(UserWarning, match="FT_CHANNEL_LAYER_BATCH ignored"):
        layer = blocks.channel_layers("redis://127.0.0.1:6379/0")["default"]
    assert layer["BACKEND"] == "channels_redis.core.RedisChannelLayer"
