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
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest

from ftsite.patches import redis_cache_client
from ftsite.rates import Rate as Rate  # the rates' one grammar, parsed with the settings
from games.errors import ServiceError
from games.privacy.sightings import device_digest, device_token_valid, request_address


class RateLimited(ServiceError):
    """Too many requests of one kind; ``retry_after`` (seconds) says when to try again."""

    code, status = "rate_limited", 429

    def __init__(self, reason: str, *, retry_after: int) -> None:
        super().__init__(reason, retry_after=retry_after)
        self.retry_after = retry_after


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


@dataclass
class Allowance:
    """Requests a client (a socket) took from a shared limit in advance, ``batch`` at a
    time, so most of its requests are counted in memory: one cache round trip per batch
    instead of two per request (the busiest cost of a move before). The limit still holds
    across sockets and processes: every unit is counted in the cache when taken, so a user
    can be refused at most ``batch - 1`` requests early per socket holding unspent units;
    :meth:`for_rate` keeps a batch to a twentieth of the limit, so small limits are counted
    one by one.

    >>> allowance = Allowance(name="socket", rate=Rate(150, 20), ident="x", what="messages")
    >>> allowance.needs_refill(now=0.0)
    True
    """

    name: str
    rate: Rate
    ident: str
    what: str
    batch: int = 10
    left: int = 0
    window: int = -1

    @classmethod
    def for_rate(cls, *, name: str, rate: Rate, ident: str, what: str) -> Allowance:
        batch = max(1, min(10, rate.count // 20))
        return cls(name=name, rate=rate, ident=ident, what=what, batch=batch)

    def needs_refill(self, *, now: float) -> bool:
        return self.left <= 0 or self.window != int(now // self.rate.seconds)

    def spend(self) -> None:
        self.left -= 1


def throttle_reserve(allowance: Allowance) -> None:
    """Take up to ``allowance.batch`` units of the current window for ``allowance``; raise
    :class:`RateLimited` when none is left."""
    now = time.time()
    key, timeout = throttle_key(allowance, now=now)
    throttle_took(allowance, now=now, count=_count_add(key, allowance.batch, timeout=timeout))


def throttle_key(allowance: Allowance, *, now: float) -> tuple[str, int]:
    """The cache key of ``allowance``'s current window, and how long it must live."""
    window = int(now // allowance.rate.seconds)
    return f"ft:throttle:{allowance.name}:{allowance.ident}:{window}", allowance.rate.seconds + 1


def throttle_took(allowance: Allowance, *, now: float, count: int) -> None:
    """Hand ``allowance`` the units it took (``count``: the window's counter once its
    ``batch`` was added at ``now``); raise :class:`RateLimited` when none is left."""
    rate = allowance.rate
    window = int(now // rate.seconds)
    allowance.window = window
    allowance.left = min(allowance.batch, max(0, rate.count - (count - allowance.batch)))
    if allowance.left <= 0:
        retry = max(1, int((window + 1) * rate.seconds - now) + 1)
        raise RateLimited(
            f"too many {allowance.what}: at most {rate.count} every {rate.seconds} s;"
            f" try again in {retry} s",
            retry_after=retry,
        )


def _count_add(key: str, amount: int, *, timeout: int) -> int:
    """Add ``amount`` to the counter ``key`` (made, expiring in ``timeout`` s, if missing)
    and return its new value. On Redis one atomic round trip (MULTI: SET NX EX, INCRBY)
    instead of Django's three (SET NX; EXISTS, INCRBY): every socket refills its allowance
    on its first message, so a process's first second after a start made 300 sockets' worth
    of them at once. In a transaction the counter cannot expire between the two, so it
    never lives on without its expiry. Any other cache (or Django's Redis client out of
    reach: ``ftsite.patches.apply_redis_cache_client``): its own add and incr."""
    backend = caches["default"]
    client, full = None, key
    if isinstance(backend, RedisCache):
        full = backend.make_and_validate_key(key)
        client = redis_cache_client(backend, full)
    if client is not None:
        pipe = client.pipeline(transaction=True)
        pipe.set(full, 0, ex=timeout, nx=True)
        pipe.incrby(full, amount)
        _, count = pipe.execute()
        return int(count)
    cache.add(key, 0, timeout=timeout)
    try:
        return int(cache.incr(key, amount))
    except ValueError:  # expired between the two calls: a new window
        cache.add(key, amount, timeout=timeout)
        return amount


@dataclass
class Pace:
    """One socket's pace: a token bucket that lets a person's burst through and slows a
    faster sender, in one process's memory (monotonic seconds).

    ``burst`` messages may come at once; the bucket then refills at ``burst / seconds`` a
    second (``Rate("40/5s")``: 40 at once, then 8 a second). :meth:`take` answers 0.0 when
    a message may go ahead, else how long to wait (seconds, rounded up to the hundredth)
    before it will. A message that arrives before the wait it was told is over is a
    *strike*: a page honours the hint (it waits, then sends again), a script that ignores
    it collects strikes and the socket closes it (``GameConsumer``).

    >>> pace = Pace(rate=Rate(2, 1))
    >>> [pace.take(now=0.0), pace.take(now=0.0), pace.take(now=0.0)]
    [0.0, 0.0, 0.5]
    >>> pace.early(now=0.2), pace.early(now=0.5), pace.take(now=0.5)
    (True, False, 0.0)
    """

    rate: Rate
    tokens: float = -1.0  # -1: full on first use
    stamp: float = 0.0
    until: float = 0.0  # refused until then: a message before it is a strike
    strikes: int = 0

    @property
    def per_second(self) -> float:
        return self.rate.count / self.rate.seconds

    def take(self, *, now: float) -> float:
        if self.tokens < 0:
            self.tokens = float(self.rate.count)
        else:
            elapsed = max(0.0, now - self.stamp)
            self.tokens = min(float(self.rate.count), self.tokens + elapsed * self.per_second)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.strikes = 0  # a message on time: whatever came early before is forgiven
            return 0.0
        wait = math.ceil((1.0 - self.tokens) / self.per_second * 100) / 100
        self.refuse_until(now + wait)
        return wait

    def refuse_until(self, until: float) -> None:
        """Note a refusal (this pace's or another limit's): until then, a message is early."""
        self.until = max(self.until, until)

    def early(self, *, now: float) -> bool:
        """Whether a message at ``now`` came before the wait it was told; counts a strike."""
        if now < self.until:
            self.strikes += 1
            return True
        return False


def login_client(request: HttpRequest) -> str:
    """Who a failed sign-in is counted against (django-axes' ``AXES_CLIENT_IP_CALLABLE``),
    as a keyed hash, never the raw value: the browser, when its ``ft_device`` cookie has
    signed in to the account being tried before (see :func:`login_lockout_parameters`),
    else the client's address."""
    device = _known_device(request)
    if device is not None:
        return who(address=f"device:{device}")
    return who(address=request_address(request=request))


def login_lockout_parameters(request: HttpRequest, credentials: dict | None) -> list:
    """What a sign-in's failures count against (``AXES_LOCKOUT_PARAMETERS``), each locked
    out at ``FT_LOGIN_FAILURES``:

    * from a browser that has signed in to the account before (its device cookie is in
      the account's sightings): only that browser and username together. Nobody else's
      failures, from any address, can lock the owner out of their own browser;
    * from anywhere else: the (username, address) pair, the username across addresses
      and the address across usernames, so neither spreading one account's guesses over
      many addresses nor one address's over many accounts goes unanswered;
    * a success resets its pair and its username, never the address: an attacker cannot
      wipe an address's count by signing in to an account of their own in between.
    """
    username = (credentials or {}).get("username")
    if _known_device(request) is not None:
        return [["username", "ip_address"]]
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.get_username() == username:
        return [["username", "ip_address"], "username"]  # axes resets these on success
    return [["username", "ip_address"], "username", "ip_address"]


def _known_device(request: HttpRequest) -> str | None:
    """The digest of the request's device cookie if the account whose username the sign-in
    names has been seen on it (``Sighting``, kept ``FT_SIGHTING_DAYS``), else ``None``."""
    cached = getattr(request, "_ft_known_device", False)  # False: not asked yet
    if cached is None or isinstance(cached, str):
        return cached
    from games.models import Sighting  # the settings import this module

    cookies = getattr(request, "COOKIES", None) or {}
    token = cookies.get("ft_device")
    method = getattr(request, "method", None)
    username = request.POST.get("username", "") if method == "POST" else ""
    known = None
    if token and username and device_token_valid(token=token):
        digest = device_digest(token=token)
        if Sighting.objects.filter(
            user__username=username, kind=Sighting.Kind.DEVICE, digest=digest
        ).exists():
            known = digest
    # Cached on the request: axes asks several times per sign-in. HttpRequest declares no
    # such attribute, and a module-level cache keyed by request would outlive it.
    request._ft_known_device = known  # type: ignore[attr-defined]  # a per-request cache
    return known
