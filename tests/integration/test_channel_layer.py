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

from load.fault_stack import OwnRedis
from tests.support.servers import free_port

pytestmark = [pytest.mark.integration, pytest.mark.timeout(60)]


@pytest.fixture
def own_redis(tmp_path) -> Iterator[OwnRedis]:
    server = OwnRedis(port=free_port(), log=tmp_path / "redis.log")
    server.start()
    yield server
    server.kill()


def layer_on(server: OwnRedis) -> RedisChannelLayer:
    """The settings' layer, pointed at ``server``."""
    config = dict(settings.CHANNEL_LAYERS["default"]["CONFIG"])
    config["hosts"] = [{**config["hosts"][0], "address": server.url}]
    return RedisChannelLayer(**config)


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
