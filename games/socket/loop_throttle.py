"""The sockets' shared message limit (``games.throttles.Allowance``), taken from the event
loop itself.

Every socket takes its first units of the user's shared limit on its first message, and
more every ten. That was a hop to a thread and a Redis round trip from there (Django's
cache is synchronous): in the first second after a process starts, 300 players' first
moves each waited for one, queued on the loop's few default threads, 9 ms on average
(docs/benchmarks.md "Session 9"). Here the counter is the same Redis key, changed by the
same atomic ``SET NX EX`` + ``INCRBY`` (``games.throttles``), sent by the event loop's
own Redis client; the counters asked for during one turn of the loop go together, in one
transaction on one connection (``games.socket.turn_batch``: a storm would otherwise
open a connection for each). With any other cache (``make run``, the unit tests) the
thread does it as before.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError

from ftsite.patches import redis_cache_server
from games.socket.turn_batch import TurnBatch
from games.throttles import Allowance, throttle_key, throttle_reserve, throttle_took


async def throttle_reserve_on_loop(allowance: Allowance) -> None:
    """:func:`games.throttles.throttle_reserve`, from the event loop (see the module)."""
    backend = caches["default"]
    # Django's Redis client's server out of reach (ftsite.patches): the thread's way.
    if not isinstance(backend, RedisCache) or redis_cache_server(backend) is None:
        await sync_to_async(throttle_reserve, thread_sensitive=False)(allowance)
        return
    now = time.time()
    key, timeout = throttle_key(allowance, now=now)
    count = await _count_add(backend, backend.make_and_validate_key(key), allowance.batch, timeout)
    throttle_took(allowance, now=now, count=count)


@dataclass(frozen=True)
class _Add:
    key: str
    amount: int
    timeout: int


_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Redis] = weakref.WeakKeyDictionary()


def _client_of(loop: asyncio.AbstractEventLoop, backend: RedisCache) -> Redis:
    client = _clients.get(loop)
    if client is None:
        # The server the cache writes to (django's RedisCacheClient: the first), with the
        # channel layer's tolerance of a Redis restart (ftsite.blocks).
        client = _clients[loop] = Redis.from_url(
            str(redis_cache_server(backend)),
            socket_timeout=30,
            health_check_interval=10,
            retry=Retry(ExponentialBackoff(cap=0.2, base=0.05), 3),
            retry_on_error=[RedisConnectionError],
        )
    return client


async def _count_add(backend: RedisCache, key: str, amount: int, timeout: int) -> int:
    # The turn's batch (_execute) sends on this loop's client but knows no backend: the
    # client is made here, on the first count of each loop, where the backend is known.
    _client_of(asyncio.get_running_loop(), backend)
    return await _batch.call(_Add(key=key, amount=amount, timeout=timeout))


async def _execute(adds: list[_Add]) -> list[int]:
    """The counters of one turn in one transaction, on the running loop's client."""
    async with _clients[asyncio.get_running_loop()].pipeline(transaction=True) as pipe:
        for add in adds:
            # As games.throttles._count_add: made with its expiry if missing, then added.
            pipe.set(add.key, 0, ex=add.timeout, nx=True)
            pipe.incrby(add.key, add.amount)
        replies = await pipe.execute()
    return [int(count) for count in replies[1::2]]


_batch: TurnBatch[_Add, int] = TurnBatch(_execute)
