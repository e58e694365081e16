"""The shared rate-limit counters on the real Redis (``games.throttles``): taken in one
atomic round trip, counted across every socket of a user, refused at the limit, and never
left without their expiry."""

from __future__ import annotations

import pytest
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache

from games.throttles import Allowance, Rate, RateLimited, throttle_reserve

pytestmark = [pytest.mark.integration]


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
