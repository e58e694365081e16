"""The visitors' page store: what a signed-out visitor sees of the public pages (home, the
boards, the archive, scorecards, the rules), rendered once and served from the shared cache
(Redis) to the next visitors, each with a CSRF token of their own (issue 37).

Why: a page rendered by Django costs a few milliseconds of a worker's CPU, and most of the
pages people read are the same for every visitor. A page in the store costs one cache round
trip (the generation and the page in one ``get_many``) and the token's masking.

What is stored, and never more:

* only for a request of a signed-out visitor: GET or HEAD, no query string (a query string
  would let anyone fill the store with copies), none of the cookies that carry a person's
  state (a session, messages), and a view named in :data:`PAGES`;
* only an answer 200 in HTML that sets no cookie of its own, leaves the session untouched,
  and that the view did not mark private or ``no-store`` (``never_cache``);
* the visitor's CSRF token is taken out before the page is stored: every 64-character
  token in the page that unmasks to the visitor's own secret becomes :data:`TOKEN_HOLE`,
  and a page in which the secret still shows is not stored at all. Each visitor served from
  the store gets a token masked from their own secret (Django's ``get_token``, which also
  sets their cookie), so no client ever receives another's token or page.

Stale pages: a result that joins or leaves a board calls :func:`pages_stale`
(``leaderboards.broadcast``), which moves the store's generation on; a stored page of an
older generation is never served. Everything else a page shows that changes with time (the
day's countdown, a deal that opens) is bounded by ``FT_PAGE_CACHE_SECONDS``, the store's
time to live. With ``FT_PAGE_CACHE_SECONDS=0`` (the embedded defaults of ``make run``) the
middleware passes every request through untouched.
"""

from __future__ import annotations

import contextlib
import functools
import pickle
import re
import string
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token

#: The views (URL names) whose visitor pages are stored: the public pages that list
#: people, days and results, and the fixed texts.
PAGES = frozenset(
    {
        "home",
        "rules",
        "privacy",
        "leaderboards:daily_today",
        "leaderboards:daily",
        "leaderboards:weekly_current",
        "leaderboards:weekly",
        "leaderboards:week",
        "leaderboards:month",
        "leaderboards:all",
        "leaderboards:rating",
        "leaderboards:archive",
        "leaderboards:archive_month",
        "leaderboards:scorecard",
    }
)

#: Cookies that carry a person's state into a page: a request with one is never served
#: from the store nor stored (the language cookie is part of the key instead).
PERSONAL_COOKIES = (settings.SESSION_COOKIE_NAME, "messages")

#: Where the visitor's token stood in a stored page (never a valid token: it has a space).
TOKEN_HOLE = "\x00ft csrf\x00"

GENERATION_KEY = "ft:pages:generation"
T = TypeVar("T")
# Django's token alphabet (``django.middleware.csrf.CSRF_ALLOWED_CHARS``).
_CHARS = string.ascii_letters + string.digits
_TOKEN = re.compile(r"[A-Za-z0-9]{64}")
# Headers the answer is rebuilt with (the outer middleware adds the rest again).
_KEPT_HEADERS = ("Content-Type", "Content-Language", "Vary", "X-Frame-Options")


@functools.cache
def _redis(url: str) -> Any:
    """The process's client of the shared Redis (thread-safe, its own connection pool).

    Straight rather than through Django's cache: a hit is one ``MGET``, and Django's Redis
    cache makes a new client object for every call (a third of a hit's time here)."""
    import redis

    # A Redis that does not answer costs a visitor a second, then the page is rendered.
    return redis.Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0)


def store_read(key: str) -> tuple[int, Any]:
    """The current generation and what is stored under ``key`` (``None``), in one round
    trip: the shared Redis when there is one, else Django's cache (one process's memory)."""
    if settings.REDIS_URL is None:
        found = cache.get_many([GENERATION_KEY, key])
        return found.get(GENERATION_KEY, 0), found.get(key)
    generation, page = _redis(settings.REDIS_URL).mget([GENERATION_KEY, key])
    # Written only by store_write, from this site's own rendering: pickle as Django's cache.
    return int(generation or 0), None if page is None else pickle.loads(page)  # noqa: S301


def store_write(key: str, value: Any, seconds: int) -> None:
    if settings.REDIS_URL is None:
        cache.set(key, value, timeout=seconds)
    else:
        _redis(settings.REDIS_URL).set(key, pickle.dumps(value), ex=seconds)


def pages_stale() -> None:
    """Every stored page is stale from now on (a result landed): the next visitor of each
    gets a page rendered anew. Never raises: a missed bump only costs the time to live."""
    if settings.FT_PAGE_CACHE_SECONDS <= 0:
        return
    try:
        if settings.REDIS_URL is not None:
            _redis(settings.REDIS_URL).incr(GENERATION_KEY)
            return
        try:
            cache.incr(GENERATION_KEY)
        except ValueError:  # no generation yet: start one
            cache.add(GENERATION_KEY, 1, timeout=None)
    except Exception:  # the cache is down: pages are not stored either
        pass


def fragment_cached(*, key: str, compute: Callable[[], T]) -> T:
    """What every viewer of a page sees alike, signed in or not (today's top five on the
    home page), computed once per generation of the store and shared by every worker: a
    signed-in player's page is rendered each time, but its common parts need not be.

    Tagged with the generation read before computing, so a result that lands meanwhile
    makes it stale at once; kept ``FT_PAGE_CACHE_SECONDS`` at most, like a stored page.
    With the store off, or Redis not answering, it is computed every time."""
    if settings.FT_PAGE_CACHE_SECONDS <= 0:
        return compute()
    name = f"ft:fragment:{key}"
    try:
        generation, stored = store_read(name)
    except Exception:  # the cache is down: the page is still served
        return compute()
    if isinstance(stored, tuple) and len(stored) == 2 and stored[0] == generation:
        return stored[1]
    value = compute()
    with contextlib.suppress(Exception):
        store_write(name, (generation, value), settings.FT_PAGE_CACHE_SECONDS)
    return value


def page_key(request: HttpRequest) -> str:
    """The store's key of a visitor's page: host, language and path (no query string)."""
    language = getattr(request, "LANGUAGE_CODE", settings.LANGUAGE_CODE)
    return f"ft:page:{request.get_host()}:{language}:{request.path}"


def request_cacheable(request: HttpRequest, url_name: str | None) -> bool:
    """Whether this request may be answered from the store (and its answer stored)."""
    if request.method not in ("GET", "HEAD") or url_name not in PAGES:
        return False
    if request.META.get("QUERY_STRING"):
        return False
    if any(name in request.COOKIES for name in PERSONAL_COOKIES):
        return False
    user = getattr(request, "user", None)
    return user is None or not user.is_authenticated


def token_secret(token: str) -> str:
    """The secret a 64-character masked token was masked from: its first half is the mask,
    its second the secret shifted by it (as Django's own ``_unmask_cipher_token``, private)."""
    mask, cipher = token[:32], token[32:]
    return "".join(
        _CHARS[(_CHARS.index(c) - _CHARS.index(m)) % len(_CHARS)]
        for m, c in zip(mask, cipher, strict=True)
    )


def page_holed(body: str, secret: str | None) -> str | None:
    """``body`` with each token masked from ``secret`` replaced by :data:`TOKEN_HOLE`, or
    ``None`` when the page must not be stored (the secret itself shows in it)."""
    if secret is None:
        return body

    def hole(match: re.Match[str]) -> str:
        token = match.group(0)
        return TOKEN_HOLE if token_secret(token) == secret else token

    holed = _TOKEN.sub(hole, body)
    return None if secret in holed else holed


def response_storable(request: HttpRequest, response: HttpResponse) -> bool:
    """Whether the view's answer is the same for every visitor (see the module)."""
    if response.status_code != 200 or response.streaming or response.cookies:
        return False
    if not response.get("Content-Type", "").startswith("text/html"):
        return False
    control = response.get("Cache-Control", "")
    if "private" in control or "no-store" in control or "no-cache" in control:
        return False
    session = getattr(request, "session", None)
    return session is None or not (session.modified or not session.is_empty())


class PageCacheMiddleware:
    """Serves and stores visitors' pages (see the module). After the authentication and
    device middleware (it reads ``request.user``; the device cookie is set outside it, per
    visitor) and before the messages middleware (whose cookie it must see)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        key = getattr(request, "_ft_page_key", None)
        if key is not None and not getattr(request, "_ft_page_hit", False):
            self._store(request, response, key)
        return response

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: Any
    ) -> HttpResponse | None:
        seconds = settings.FT_PAGE_CACHE_SECONDS
        match = request.resolver_match
        if seconds <= 0 or match is None or not request_cacheable(request, match.view_name):
            return None
        key = page_key(request)
        request._ft_page_key = key  # type: ignore[attr-defined]
        try:
            generation, stored = store_read(key)
        except Exception:  # the cache is down: render the page, store nothing
            request._ft_page_key = None  # type: ignore[attr-defined]
            return None
        request._ft_page_generation = generation  # type: ignore[attr-defined]
        if stored is None or stored[0] != generation:
            return None
        request._ft_page_hit = True  # type: ignore[attr-defined]
        _generation, body, headers = stored
        if TOKEN_HOLE in body:
            body = body.replace(TOKEN_HOLE, get_token(request))
        response = HttpResponse(body)
        for name, value in headers:
            response[name] = value
        return response

    def _store(self, request: HttpRequest, response: HttpResponse, key: str) -> None:
        if not response_storable(request, response):
            return
        secret = request.META.get("CSRF_COOKIE")
        holed = page_holed(response.content.decode(response.charset), secret)
        if holed is None:
            return
        headers = [(name, response[name]) for name in _KEPT_HEADERS if response.has_header(name)]
        generation = getattr(request, "_ft_page_generation", 0)
        # The cache down: this visitor's page was served all the same.
        with contextlib.suppress(Exception):
            store_write(key, (generation, holed, headers), settings.FT_PAGE_CACHE_SECONDS)
