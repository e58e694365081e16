"""Game sockets joining and leaving their game's channel-layer group: in one Redis
round trip for all the sockets of a moment, and a join learning in the same step whether
anyone else is there.

A socket tells the others of its game that it joined (``peer.joined``, see
``games.socket.consumers``) so they broadcast their moves to it. Almost every socket is
alone in its game: the player's one tab. For it that notice was four Redis round trips on
the event loop (channels_redis's ``group_send``: expire the group, read it, expire the
channel's queue, the send script) and then a message delivered back to the socket itself,
and the join two more (``ZADD``, ``EXPIRE``). Here a join and a count of the members are
one atomic script: a socket alone says nothing. Two sockets joining at once cannot both
find themselves alone, since each adds before it counts and Redis runs one script at a
time: the second sees the first and tells it.

In a storm (a deploy, a network blip: every socket of a process opening or closing at
once) one round trip per socket meant as many Redis connections as sockets in flight:
a thousand closing at once made redis-py open hundreds of new connections, each a
handshake of its own, most of what a close cost the event loop (py-spy, docs/benchmarks.md
"Session 9"). So the joins and leaves asked for during one turn of the event loop go
together, one pipeline on one connection (``games.socket.turn_batch``); each socket
still waits for its own.

That writes channels_redis's own sorted set of a group (its key, shard and expiry:
``ftsite.patches.apply_channels_redis_group_key``); outside the versions that was checked
on, joins and leaves take the layer's ``group_add`` and ``group_discard``.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable
from dataclasses import dataclass
from functools import partial
from typing import Any

from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer

from ftsite.patches import channel_layer_batched, channel_layer_group_key
from games.socket.turn_batch import TurnBatch


@dataclass(frozen=True)
class _Op:
    join: bool  # a join (add, count) or a leave (remove)
    group: str
    channel: str


# One batch per (layer, shard): the joins and leaves of one turn, one pipeline each.
_batches: dict[tuple[int, int], TurnBatch[_Op, int]] = {}


async def group_join(layer: Any, group: str, channel: str) -> bool:
    """Add ``channel`` to ``group`` (as ``group_add`` does) and say whether another member
    is in it, one that may need to hear of this one. A member that died without leaving
    (a killed process) counts until the group's expiry drops it: it only costs a notice."""
    if channel_layer_batched(layer):
        return await _queue(layer, _Op(join=True, group=group, channel=channel)) > 1
    await layer.group_add(group, channel)
    if isinstance(layer, InMemoryChannelLayer):
        return len(layer.groups.get(group, {})) > 1
    return True  # a layer this cannot count: every joiner announces itself, as before


async def group_leave(layer: Any, group: str, channel: str) -> None:
    """Remove ``channel`` from ``group`` (``group_discard``)."""
    if channel_layer_batched(layer):
        await _queue(layer, _Op(join=False, group=group, channel=channel))
    else:
        await layer.group_discard(group, channel)


def _queue(layer: RedisChannelLayer, op: _Op) -> Awaitable[int]:
    shard = layer.consistent_hash(op.group)
    batch = _batches.get((id(layer), shard))
    if batch is None:
        batch = _batches[id(layer), shard] = TurnBatch(partial(_round_trip, layer, shard))
    return batch.call(op)


# A join, atomic in Redis: as group_send does before it reads a group, members past the
# expiry go; then the add (as group_add), the group's expiry, and its size after.
_JOIN = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[3])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return redis.call('ZCARD', KEYS[1])
"""


async def _round_trip(layer: RedisChannelLayer, shard: int, ops: list[_Op]) -> list[int]:
    """``ops`` in order, in one round trip (each join one script, atomic); for each op the
    group's size after it (a join) or 0 (a leave)."""
    now = time.time()
    expired = int(now) - layer.group_expiry
    async with layer.connection(shard).pipeline(transaction=False) as pipe:
        for op in ops:
            key = channel_layer_group_key(layer, op.group)
            if op.join:
                pipe.eval(_JOIN, 1, key, op.channel, now, expired, layer.group_expiry)
            else:
                pipe.zrem(key, op.channel)
        replies = await pipe.execute()
    return [int(reply) if op.join else 0 for op, reply in zip(ops, replies, strict=True)]
