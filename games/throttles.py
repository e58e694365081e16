"""Rate limits for every way in that a client can repeat: socket messages across all of a
user's sockets, hints, practice starts, API calls.

Fixed windows counted in Django's cache (Redis when ``REDIS_URL`` is set, so the limit
holds across server processes; the local memory cache otherwise). Who is counted is a
keyed hash (``FT_PRIVACY_SECRET``) of the user id, or of the address for anonymous calls:
no raw address is ever written, even to the cache. A refusal says when to try again.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest

from games.errors import ServiceError
from games.sightings import request_address


class RateLimited(ServiceError):
    """Too many requests of one kind; ``retry_after`` (seconds) says when to try again."""

    code, status = "rate_limited", 429

    def __init__(self, reason: str, *, retry_after: int) -> None:
        super().__init__(reason, retry_after=retry_after)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Rate:
    """``count`` requests per ``seconds``, parsed from text such as ``"100/20s"`` or
    ``"30/min"``.

    >>> Rate.parse("100/20s"), Rate.parse("30/min"), Rate.parse("5/h")
    (Rate(count=100, seconds=20), Rate(count=30, seconds=60), Rate(count=5, seconds=3600))
    """

    count: int
    seconds: int

    @classmethod
    def parse(cls, text: str) -> Rate:
        count, slash, period = text.partition("/")
        units = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "hour": 3600, "d": 86400}
        number = "".join(c for c in period if c.isdigit()) or "1"
        unit = period[len(number) :] if period[: len(number)] == number else period
        try:
            rate = cls(int(count), int(number) * units[unit or "s"])
            if not slash:
                raise ValueError(text)
        except (KeyError, ValueError):
            raise ImproperlyConfigured(
                f"{text!r} is not a rate: write it as count/period, e.g. 100/20s or 30/min"
            ) from None
        if rate.count < 1 or rate.seconds < 1:
            raise ImproperlyConfigured(f"{text!r}: a rate needs a count and a period of 1 or more")
        return rate


def who(*, user_id: int | None = None, address: str | None = None) -> str:
    """The keyed hash a limit counts by: the user, else the address (anonymous)."""
    subject = f"user:{user_id}" if user_id is not None else f"addr:{address or '?'}"
    key = settings.FT_PRIVACY_SECRET.encode()
    return hmac.new(key, b"throttle:" + subject.encode(), hashlib.sha256).hexdigest()[:32]


def throttle_check(*, name: str, rate: Rate, ident: str, what: str) -> None:
    """Count one request of kind ``name`` by ``ident``; raise :class:`RateLimited` (saying
    ``what`` was limited and when to retry) once the window's count is used up."""
    now = time.time()
    window = int(now // rate.seconds)
    key = f"ft:throttle:{name}:{ident}:{window}"
    # add() then incr(): both atomic in Redis, so concurrent processes count every request.
    cache.add(key, 0, timeout=rate.seconds + 1)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between the two calls: a new window
        cache.add(key, 1, timeout=rate.seconds + 1)
        count = 1
    if count > rate.count:
        retry = max(1, int((window + 1) * rate.seconds - now) + 1)
        raise RateLimited(
            f"too many {what}: at most {rate.count} every {rate.seconds} s; try again in {retry} s",
            retry_after=retry,
        )


def login_client(request: HttpRequest) -> str:
    """Who a failed sign-in is counted against (django-axes' ``AXES_CLIENT_IP_CALLABLE``):
    the keyed hash of the client's address, never the address itself."""
    return who(address=request_address(request=request))
