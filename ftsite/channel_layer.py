"""The sockets' channel layer: channels_redis's, with a process's inbox drained in batches.

channels_redis keeps one inbox a server process (a sorted set in Redis that every message
for any of the process's sockets goes to) and takes one message from it per receive: the
socket whose turn it is restores the inbox's backup (a script), blocks in ``BZPOPMIN``,
copies what it got into the backup and, in a task of its own, pops the backup again: three
to four round trips and four asyncio tasks for every message, with every waiting socket
racing for one lock. A busy process then drains fewer messages a second than its sockets
are sent (``docs/benchmarks.md``, "Duels under load": the opponents' progress lagged by
seconds at 50 duels while the movers' acknowledgements did not, and at 100 the inboxes
overflowed).

:class:`PumpedRedisChannelLayer` drains the inbox with one task a process (the *pump*):
``BZMPOP`` of up to ``batch`` messages a round trip (blocking, as the original's
``BZPOPMIN``, when there are none; Redis 7.0 or newer), each message handed to the local
queue of the sockets it names. A socket's ``receive`` is then a wait on its own queue.
The backup the original keeps is for a receiver cancelled between the pop and the
hand-over (every socket that closes cancels its receive, and with it, in the original,
whichever message it was fetching for the others); the pump is never cancelled by a
socket, only when its process's layer closes, and an inbox's messages are for that
process's sockets alone, so nothing it takes is lost to anyone who could still read it.

Two more differences, both for a process's memory: a socket's queue is dropped when its
receive is cancelled (the consumer has gone), and messages for a channel whose consumer
has gone are dropped rather than queued for nobody (the original keeps a queue for each
such channel for the process's life). A failure of Redis reaches every waiting socket's
``receive`` as the original's does (the consumer stops, the socket closes, the client
reconnects), and the next ``receive`` starts a new pump.

``group_send`` is the original's in two round trips instead of four: one script that drops
the group's expired members and reads its members, then one script a shard that drops each
inbox's expired messages, checks its capacity and adds the message (both by their digests,
``EVALSHA``).

Everything else (sends, groups, capacity, expiry, the keys in Redis) is channels_redis's
own, so processes on this layer and on the original share one Redis."""

from __future__ import annotations

import asyncio
import collections
import logging
import time
from typing import Any

from channels_redis.core import RedisChannelLayer
from redis.commands.core import AsyncScript
from redis.exceptions import ResponseError

logger = logging.getLogger(__name__)

#: Channels whose consumers have gone, remembered so that messages still sent to them
#: (a group that has not been told yet) are dropped; the oldest forgotten past this many.
CLOSED_REMEMBERED = 50_000

# Messages added to inboxes in the order given (KEYS may repeat: several messages for one
# process), each inbox's expired messages dropped and its capacity checked first, as
# channels_redis's group script does with the expiry its separate pipeline did. KEYS the
# inboxes; ARGV a message, its inbox's capacity and its score for each key, then the
# expiry and the oldest score kept. Returns the indexes (1-based) of the keys over capacity.
_SEND_MANY = """
local over = {}
local n = #KEYS
local expiry = ARGV[3 * n + 1]
local oldest = ARGV[3 * n + 2]
for i = 1, n do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, oldest)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[3 * i - 1]) then
        redis.call('ZADD', KEYS[i], ARGV[3 * i], ARGV[3 * i - 2])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over[#over + 1] = i
    end
end
return over
"""


# Each group's expired members dropped, then its members read: KEYS the groups' keys, ARGV
# the oldest score kept. One command for a batch's groups where a pipeline of two commands
# a group cost redis-py's client 6 % of a busy server's event loop at 500 duels (py-spy).
_MEMBERS = """
local found = {}
for i = 1, #KEYS do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, ARGV[1])
    found[i] = redis.call('ZRANGE', KEYS[i], 0, -1)
end
return found
"""


class _Failure:
    """Put in a waiting socket's queue when the pump failed: its ``receive`` raises it."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


class PumpedRedisChannelLayer(RedisChannelLayer):
    """channels_redis's layer with one task a process draining its inbox in batches."""

    def __init__(self, *args: Any, batch: int = 200, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if batch < 1:
            raise ValueError(f"batch must be at least 1, not {batch}")
        self.batch = batch
        self._pumps: dict[str, asyncio.Task[None]] = {}
        self._waiting: set[str] = set()
        self._closed: collections.OrderedDict[str, None] = collections.OrderedDict()
        self._last_score = 0.0
        self._scripts: dict[str, AsyncScript] = {}
        #: Messages taken from the inbox and dropped (their channel's consumer had gone).
        self.dropped = 0

    # -- receiving -----------------------------------------------------------------------

    async def receive(self, channel: str) -> dict[str, Any]:
        if "!" not in channel:
            return await super().receive(channel)  # a normal channel: no inbox of ours
        assert self.require_valid_channel_name(channel)
        inbox = self.non_local_name(channel)
        assert inbox.endswith(self.client_prefix + "!"), "Wrong client prefix"
        self._closed.pop(channel, None)
        queue = self.receive_buffer[channel]
        if queue.empty():
            self._pump_ensure(inbox)
        self._waiting.add(channel)
        try:
            item = await queue.get()
        except asyncio.CancelledError:
            self._channel_gone(channel)
            raise
        finally:
            self._waiting.discard(channel)
        if queue.empty():
            # Nobody waits on it until this consumer's next receive, which finds the queue
            # the pump makes for a message in between (as the original drops its own).
            self.receive_buffer.pop(channel, None)
        if isinstance(item, _Failure):
            raise item.error
        return item

    def _channel_gone(self, channel: str) -> None:
        """A consumer stopped receiving: its queue goes, later messages to it are dropped."""
        self.receive_buffer.pop(channel, None)
        self._closed[channel] = None
        self._closed.move_to_end(channel)
        while len(self._closed) > CLOSED_REMEMBERED:
            self._closed.popitem(last=False)

    def _pump_ensure(self, inbox: str) -> None:
        """A pump for ``inbox`` (one a channel prefix: consumers use "specific"'s)."""
        loop = asyncio.get_running_loop()
        pump = self._pumps.get(inbox)
        if pump is not None and not pump.done():
            if pump.get_loop() is loop:
                return
            if not pump.get_loop().is_closed():
                raise RuntimeError(
                    "Two event loops are trying to receive() on one channel layer at once!"
                )
        self._pumps[inbox] = loop.create_task(self._pump_run(inbox), name=f"pump {inbox}")

    async def _pump_run(self, inbox: str) -> None:
        connection = self.connection(self.consistent_hash(inbox))
        key = self.prefix + inbox
        try:
            while True:
                # One round trip a wake-up: up to a batch at once, blocking when there is
                # none (ZPOPMIN, then BZPOPMIN when it found nothing, took two a message
                # at a duel's pace: ~2 of a duel move's 6 round trips).
                popped = await connection.bzmpop(
                    self.brpop_timeout, 1, [key], min=True, count=self.batch
                )
                if popped is None:
                    continue
                for member, _score in popped[1]:
                    self._hand_on(member)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            # As the original's receive: every socket waiting hears of it and stops.
            if isinstance(error, ResponseError) and "unknown command" in str(error).lower():
                logger.error(
                    "channel layer: this Redis has no BZMPOP (%s): the site's layer needs"
                    " Redis 7.0 or newer; FT_CHANNEL_LAYER_BATCH=0 runs channels_redis's own",
                    error,
                )
            else:
                logger.warning("channel layer: the inbox's pump failed: %r", error)
            for channel in list(self._waiting):
                self.receive_buffer[channel].put_nowait(_Failure(error))

    def _hand_on(self, member: bytes) -> None:
        message = self.deserialize(member)
        names = message.pop("__asgi_channel__", None)
        if names is None:
            return  # not addressed to a channel of this process: nobody to give it to
        for name in [names] if isinstance(names, str) else names:
            if name in self._closed:
                self.dropped += 1
                continue
            self.receive_buffer[name].put_nowait(message)

    async def _pump_stop(self) -> None:
        """Cancel the pumps and wait for them to end. A cancellation can be lost: on Python
        3.11 with redis-py 8.1, a task cancelled at some points of a command's response
        read goes on reading (seen one cancel in three at the first steps of a ZPOPMIN),
        so the cancel is repeated until the pump has ended."""
        pumps, self._pumps = list(self._pumps.values()), {}
        loop = asyncio.get_running_loop()
        for pump in pumps:
            if pump.get_loop() is not loop:
                pump.cancel()  # its loop has ended or will cancel it when it does
                continue
            while not pump.done():
                pump.cancel()
                await asyncio.wait([pump], timeout=0.05)

    async def close_pools(self) -> None:
        await self._pump_stop()
        await super().close_pools()

    async def flush(self) -> None:
        await self._pump_stop()
        self.receive_buffer.clear()
        await super().flush()

    # -- sending to a group -------------------------------------------------------------

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self.group_send_many([(group, message)])

    async def group_send_many(self, sends: list[tuple[str, dict[str, Any]]]) -> None:
        """Each ``(group, message)`` of ``sends`` sent as :meth:`group_send` would, in that
        order, in two round trips a shard for all of them: the groups' members read by one
        script, then one script that adds every message to its inboxes. For an outbox
        that has many waiting (``ftsite.group_send``: one send at a time through a busy
        loop fell seconds behind the duels' progress)."""
        members = await self._members_of({group for group, _ in sends})
        # Per shard, in order: (inbox key, message, capacity, group) for every delivery.
        deliveries: dict[int, list[tuple[str, bytes, int, str]]] = collections.defaultdict(list)
        for group, message in sends:
            assert self.require_valid_group_name(group), "Group name not valid"
            names = members[group]
            if not names:
                continue
            by_shard, messages, capacities = self._map_channel_keys_to_connection(names, message)
            for index, keys in by_shard.items():
                for key in keys:
                    deliveries[index].append((key, messages[key], capacities[key], group))
        now = time.time()
        for index, batch in deliveries.items():
            args: list[Any] = []
            for _key, body, capacity, _group in batch:
                # Strictly rising scores: the inbox is a sorted set, and messages of one
                # score would be taken in the order of their (random-prefixed) bytes.
                self._last_score = max(now, self._last_score + 1e-6)
                args += [body, capacity, self._last_score]
            args += [self.expiry, int(now) - int(self.expiry)]
            keys = [key for key, *_ in batch]
            over = await self._script(_SEND_MANY)(keys, args, client=self.connection(index))
            for group, count in collections.Counter(batch[i - 1][3] for i in over).items():
                # The words load.stack counts (LOG_SIGNS "over_capacity"), as the original's.
                logger.info(
                    "%s of %s channels over capacity in group %s",
                    count, len(members[group]), group,
                )  # fmt: skip

    def _script(self, body: str) -> AsyncScript:
        """``body`` as redis-py's script: sent by its digest (``EVALSHA``), loaded again
        where Redis has forgotten it (a restart, ``SCRIPT FLUSH``). Made once a layer; the
        client it is made with only encodes it, each call names its shard's own."""
        script = self._scripts.get(body)
        if script is None:
            script = self._scripts[body] = self.connection(0).register_script(body)
        return script

    async def _members_of(self, groups: set[str]) -> dict[str, list[str]]:
        """Each group's channels, its expired members dropped first (one script a shard)."""
        by_shard: dict[int, list[str]] = collections.defaultdict(list)
        for group in groups:
            by_shard[self.consistent_hash(group)].append(group)
        members: dict[str, list[str]] = {}
        oldest = int(time.time()) - self.group_expiry
        for index, mine in by_shard.items():
            keys = [self._group_key(group) for group in mine]
            found = await self._script(_MEMBERS)(keys, [oldest], client=self.connection(index))
            for group, names in zip(mine, found, strict=True):
                members[group] = [name.decode("utf8") for name in names]
        return members


__all__ = ["CLOSED_REMEMBERED", "PumpedRedisChannelLayer"]
