"""The channel layer as the settings build it, against a real redis-server that is killed
and restarted: the pool's connections from before the restart must not fail the first
commands after it (they did, for up to ~10 s: the fault suite's redis fault saw fresh
sockets closed 4500 long after Redis was back)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from channels_redis.core import RedisChannelLayer
from django.conf import settings
from django.utils.module_loading import import_string

from ftsite.channel_layer import PumpedRedisChannelLayer
from load.fault_stack import OwnRedis
from tests.support.servers import free_port

pytestmark = [pytest.mark.integration, pytest.mark.timeout(60)]


@pytest.fixture
def own_redis(tmp_path) -> Iterator[OwnRedis]:
    server = OwnRedis(port=free_port(), log=tmp_path / "redis.log")
    server.start()
    yield server
    server.kill()


def layer_on(server: OwnRedis, *, original: bool = False) -> RedisChannelLayer:
    """The settings' layer (``ftsite.channel_layer``'s), or channels_redis's own, pointed at
    ``server``."""
    config = dict(settings.CHANNEL_LAYERS["default"]["CONFIG"])
    config["hosts"] = [{**config["hosts"][0], "address": server.url}]
    if original:
        config.pop("batch", None)
        return RedisChannelLayer(**config)
    backend = import_string(settings.CHANNEL_LAYERS["default"]["BACKEND"])
    assert issubclass(backend, PumpedRedisChannelLayer)
    return backend(**config)


def test_the_first_commands_after_a_redis_restart_succeed(own_redis: OwnRedis) -> None:
    async def scenario() -> None:
        layer = layer_on(own_redis)
        channel = await layer.new_channel()
        # Several connections in the pool, as a busy process has.
        await asyncio.gather(*(layer.group_add(f"g{i}", channel) for i in range(8)))
        own_redis.kill()
        own_redis.start()
        # Each of these takes a pooled connection that Redis closed when it died.
        await asyncio.gather(*(layer.group_add(f"g{i}", channel) for i in range(8)))
        await layer.group_send("g0", {"type": "game.action", "n": 1})
        async with asyncio.timeout(10):
            assert (await layer.receive(channel))["n"] == 1
        await layer.flush()
        await layer.close_pools()

    asyncio.run(scenario())


def test_a_layer_with_redis_down_fails_within_a_second(own_redis: OwnRedis) -> None:
    """The retries are for stale connections, not a wait for Redis: a socket whose layer is
    down is closed 4500 ("try again") quickly, and the client backs off."""

    async def scenario() -> float:
        layer = layer_on(own_redis)
        await layer.group_add("g", await layer.new_channel())
        own_redis.kill()
        loop = asyncio.get_running_loop()
        began = loop.time()
        with pytest.raises(Exception, match="(?i)connect|closed"):
            await layer.group_add("g", "x")
        return loop.time() - began

    assert asyncio.run(scenario()) < 1.5


def test_joins_at_once_go_together_and_only_a_later_joiner_finds_company(
    own_redis: OwnRedis,
) -> None:
    """``games.socket.groups`` on the real layer: sockets of different games joining in
    one turn each find themselves alone; two of one game, one of them finds the other;
    leaving takes a socket out of the group (``group_send`` no longer reaches it)."""
    from games.socket.groups import group_join, group_leave

    layer = layer_on(own_redis)

    async def scenario() -> None:
        a, b, c, d = [await layer.new_channel() for _ in range(4)]
        alone = await asyncio.gather(group_join(layer, "game-1", a), group_join(layer, "game-2", b))
        assert alone == [False, False]
        pair = await asyncio.gather(group_join(layer, "game-3", c), group_join(layer, "game-3", d))
        assert sorted(pair) == [False, True]  # never both alone, never both in company
        assert await group_join(layer, "game-1", d) is True
        await asyncio.gather(group_leave(layer, "game-1", a), group_leave(layer, "game-3", c))
        await layer.group_send("game-1", {"type": "hello.there"})
        assert (await asyncio.wait_for(layer.receive(d), 5))["type"] == "hello.there"
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(layer.receive(a), 0.5)
        assert await group_join(layer, "game-3", c) is True  # d is still there
        await layer.flush()

    asyncio.run(scenario())


def test_many_sockets_of_a_process_each_get_their_messages_in_order(own_redis: OwnRedis) -> None:
    """300 sockets of one process, 10 messages each, sent direct and to groups at once
    from another process's layer: every one arrives, each socket's in the order sent."""
    receiving, sending = layer_on(own_redis), layer_on(own_redis)

    async def scenario() -> None:
        channels = [await receiving.new_channel() for _ in range(300)]
        for i, channel in enumerate(channels):
            await receiving.group_add(f"pair-{i // 2}", channel)

        async def sent(i: int, channel: str) -> None:
            for n in range(5):
                await sending.send(channel, {"type": "direct", "n": n})
            if i % 2 == 0:
                for n in range(5):
                    await sending.group_send(f"pair-{i // 2}", {"type": "group", "n": n})

        async def received(channel: str) -> list[tuple[str, int]]:
            return [((m := await receiving.receive(channel))["type"], m["n"]) for _ in range(10)]

        async with asyncio.timeout(30):
            got = await asyncio.gather(
                *(received(c) for c in channels), *(sent(i, c) for i, c in enumerate(channels))
            )
        for messages in got[: len(channels)]:
            assert [n for kind, n in messages if kind == "direct"] == list(range(5))
            assert [n for kind, n in messages if kind == "group"] == list(range(5))
        await receiving.flush()
        await sending.close_pools()

    asyncio.run(scenario())


def test_processes_on_channels_redis_s_own_layer_and_on_this_one_share_a_redis(
    own_redis: OwnRedis,
) -> None:
    """A deploy that replaces processes one at a time runs both layers at once."""
    pumped, original = layer_on(own_redis), layer_on(own_redis, original=True)

    async def scenario() -> None:
        mine, theirs = await pumped.new_channel(), await original.new_channel()
        await pumped.group_add("both", mine)
        await original.group_add("both", theirs)
        await original.group_send("both", {"type": "from.original"})
        await pumped.group_send("both", {"type": "from.pumped"})
        async with asyncio.timeout(10):
            assert [(await pumped.receive(mine))["type"] for _ in range(2)] == [
                "from.original",
                "from.pumped",
            ]
            assert [(await original.receive(theirs))["type"] for _ in range(2)] == [
                "from.original",
                "from.pumped",
            ]
        await pumped.flush()
        await original.close_pools()

    asyncio.run(scenario())


def test_a_group_past_a_socket_s_capacity_drops_what_is_over_as_the_original(
    own_redis: OwnRedis, caplog: pytest.LogCaptureFixture
) -> None:
    layer = layer_on(own_redis)
    layer.capacity = 3

    async def scenario() -> int:
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        for n in range(5):
            await layer.group_send("g", {"type": "t", "n": n})
        got = []
        async with asyncio.timeout(10):
            got = [(await layer.receive(channel))["n"] for _ in range(3)]
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.5):
                await layer.receive(channel)
        await layer.flush()
        return got[-1]

    with caplog.at_level("INFO"):
        assert asyncio.run(scenario()) == 2  # the first three kept, the two after dropped
    assert "1 of 1 channels over capacity in group g" in caplog.text


def test_many_group_sends_at_once_arrive_in_the_order_given(own_redis: OwnRedis) -> None:
    """``group_send_many``: 200 messages to 20 groups of two sockets (one of each in two
    processes) in one call; every socket gets its group's in the order they were given,
    though they share one score's worth of time."""
    first, second = layer_on(own_redis), layer_on(own_redis)

    async def scenario() -> None:
        sockets = {}
        for g in range(20):
            sockets[g] = (await first.new_channel(), await second.new_channel())
            await first.group_add(f"d{g}", sockets[g][0])
            await second.group_add(f"d{g}", sockets[g][1])
        sends = [(f"d{n % 20}", {"type": "duel.event", "n": n}) for n in range(200)]
        await first.group_send_many(sends)
        async with asyncio.timeout(20):
            for g, (a, b) in sockets.items():
                expected = [n for n in range(200) if n % 20 == g]
                assert [(await first.receive(a))["n"] for _ in expected] == expected
                assert [(await second.receive(b))["n"] for _ in expected] == expected
        await first.flush()
        await second.close_pools()

    asyncio.run(scenario())


def test_a_group_send_after_redis_forgot_its_scripts_still_arrives(own_redis: OwnRedis) -> None:
    """The scripts go by digest (EVALSHA): a Redis that no longer knows them (a restart,
    SCRIPT FLUSH) is sent them whole, and the message arrives all the same."""
    layer = layer_on(own_redis)

    async def scenario() -> None:
        a = await layer.new_channel()
        await layer.group_add("g", a)
        await layer.group_send("g", {"type": "t", "n": 1})
        await layer.connection(0).script_flush()
        await layer.group_send("g", {"type": "t", "n": 2})
        async with asyncio.timeout(10):
            assert [(await layer.receive(a))["n"] for _ in range(2)] == [1, 2]
        await layer.flush()

    asyncio.run(scenario())
