"""The shared rate-limit counters on the real Redis (``games.throttles``): taken in one
atomic round trip, counted across every socket of a user, refused at the limit, and never
left without their expiry."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import time_machine
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache

from games.throttles import Allowance, Rate, RateLimited, throttle_reserve
from tests.support.clock import PINNED_AT

pytestmark = [pytest.mark.integration]


@pytest.fixture(autouse=True)
def stopped_clock() -> Iterator[None]:
    """The counters here are taken in this process, so its wall clock can be held: stopped
    at the unit tier's instant (time-machine; the tier keeps the real clock for its
    servers, in other processes), so a test that fills a 20 s window and expects the next
    unit refused cannot straddle two windows. Redis keeps its own clock for the expiry,
    which the tests read as a time to live."""
    with time_machine.travel(PINNED_AT, tick=False):
        yield


def test_it_counts_every_sockets_units_in_redis_and_refuses_at_the_limit() -> None:
    backend = caches["default"]
    assert isinstance(backend, RedisCache)
    cache.clear()
    rate = Rate.parse("30/20s")
    sockets = [
        Allowance.for_rate(name="itest", rate=rate, ident="user-1", what="messages")
        for _ in range(3)
    ]
    taken = 0
    for allowance in sockets:
        throttle_reserve(allowance)
        taken += allowance.left
    while taken < rate.count:
        throttle_reserve(sockets[0])
        taken += sockets[0].left
    assert taken == rate.count
    with pytest.raises(RateLimited):
        throttle_reserve(sockets[1])
    # The window's counter has its expiry (a counter without one would refuse forever).
    window = sockets[0].window
    full = backend.make_and_validate_key(f"ft:throttle:itest:user-1:{window}")
    client = backend._cache.get_client(full)
    assert 0 < client.ttl(full) <= rate.seconds + 1
    assert cache.get(f"ft:throttle:itest:user-1:{window}") >= rate.count


def test_the_event_loops_counter_is_the_same_count_in_one_round_trip_a_turn() -> None:
    """``games.socket.loop_throttle``: sockets asking at once (one turn of the loop) share
    one transaction, and count on the same key as the threads' ``throttle_reserve``."""
    import asyncio

    from games.socket.loop_throttle import throttle_reserve_on_loop

    cache.clear()
    rate = Rate.parse("40/20s")
    sockets = [
        Allowance.for_rate(name="iloop", rate=rate, ident="user-2", what="messages")
        for _ in range(3)
    ]

    async def together() -> None:
        await asyncio.gather(*(throttle_reserve_on_loop(a) for a in sockets))

    asyncio.run(together())
    batch = sockets[0].batch
    assert [a.left for a in sockets] == [batch] * 3
    throttle_reserve(sockets[0])  # a thread's reserve counts on top of the loop's
    window = sockets[0].window
    assert cache.get(f"ft:throttle:iloop:user-2:{window}") == 4 * batch
    backend = caches["default"]
    assert isinstance(backend, RedisCache)
    full = backend.make_and_validate_key(f"ft:throttle:iloop:user-2:{window}")
    assert 0 < backend._cache.get_client(full).ttl(full) <= rate.seconds + 1
    taken = 4 * batch
    while taken < rate.count:
        asyncio.run(throttle_reserve_on_loop(sockets[2]))
        taken += sockets[2].left
    assert taken == rate.count
    with pytest.raises(RateLimited):
        asyncio.run(throttle_reserve_on_loop(sockets[1]))
