"""The API's rate limits, as django-ninja throttles over :mod:`games.throttles`' counters:
per user (a token's or the session's), else per address for anonymous calls, each counted
under a keyed hash. ninja asks every throttle after authentication and answers 429 with a
``Retry-After`` header when one refuses (``games.api.endpoints`` words that answer as the protocol
does: ``rate_limited`` with ``retry_after``)."""

from __future__ import annotations

import threading

from django.conf import settings
from django.http import HttpRequest
from ninja.throttling import BaseThrottle

from games.privacy.sightings import request_address, signed_in_user
from games.throttles import RateLimited, throttle_check, who


class ApiThrottle(BaseThrottle):
    """One limit for the whole API per caller: ``FT_RATE_API_USER`` for a signed-in caller,
    ``FT_RATE_API_ANONYMOUS`` per address for everyone else."""

    def __init__(self) -> None:
        # ninja keeps one throttle per API and asks wait() after allow_request(): the wait
        # belongs to the request being answered, so it is kept per thread.
        self._local = threading.local()

    def allow_request(self, request: HttpRequest) -> bool:
        user = signed_in_user(request=request)
        if user is not None:
            rate, ident, name = settings.FT_RATE_API_USER, who(user_id=user.pk), "api-user"
        else:
            address = request_address(request=request)
            rate, ident, name = settings.FT_RATE_API_ANONYMOUS, who(address=address), "api-anon"
        try:
            throttle_check(name=name, rate=rate, ident=ident, what="API calls")
        except RateLimited as limited:
            self._local.wait = limited.retry_after
            return False
        return True

    def wait(self) -> float | None:
        return getattr(self._local, "wait", None)
