"""The ``ft_device`` cookie, and the fair-play sightings of signed-in users.

Every browser gets a random first-party device cookie. When a signed-in user is served, the
keyed digests of that cookie and of the network+browser are recorded (``sighting_record``),
at most once per ``FT_SIGHTING_EVERY`` seconds per (user, device, network), so most page loads
write nothing. See ``games.privacy.sightings``: nothing raw is stored, and nothing raw is
logged here.
A sighting is best-effort: nothing here may fail a request.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone

from games import services
from games.privacy import services as sightings_service
from games.privacy.sightings import (
    device_token_valid,
    request_address,
    sighting_digests,
    signed_in_user,
)

logger = logging.getLogger(__name__)

DEVICE_COOKIE = "ft_device"
# Browsers cap a cookie's lifetime at 400 days (RFC 6265bis); asking for more gains nothing.
DEVICE_COOKIE_MAX_AGE = 400 * 24 * 60 * 60
SESSION_KEY = "ft_sighting"
# The health probes (ftsite/urls.py): a load balancer keeps no cookies, so each of its
# polls would be given a new device token it throws away.
PROBES = frozenset({"livez", "healthz"})
CACHE_PREFIX = sightings_service.CACHE_PREFIX  # one note per sighting for pages and sockets


class DeviceMiddleware:
    """Sets ``ft_device`` when missing or malformed; records signed-in users' sightings."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        carried = request.COOKIES.get(DEVICE_COOKIE)
        token = carried if device_token_valid(token=carried) else None
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        if token is None and (match is None or match.url_name not in PROBES):
            device_cookie_set(response=response)
        try:
            # After the view: login() replaces request.user, and an API token's user is
            # known only once the API has authenticated the request.
            user = signed_in_user(request=request)
            # A guest plays no competition deal, so fair play has no use for its
            # sightings: none is kept (games.services.guests).
            if user is not None and not getattr(user, "is_guest", False):
                # Only a cookie the browser sent back is its device: a client that keeps no
                # cookies (a script) would otherwise be a "new device" on every request.
                sighting_note(request=request, user_id=user.pk, device_token=token)
        except Exception:
            # Never the inputs (cookie, address, user agent): only that it failed.
            logger.exception("recording a sighting failed (%s %s)", request.method, request.path)
        return response


def device_cookie_set(*, response: HttpResponse) -> None:
    """Give the browser a new random device token (not readable by scripts)."""
    response.set_cookie(
        DEVICE_COOKIE,
        secrets.token_urlsafe(24),
        max_age=DEVICE_COOKIE_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


def sighting_note(*, request: HttpRequest, user_id: int, device_token: str | None) -> bool:
    """Record the sighting unless this (user, device, network) was recorded within the last
    ``FT_SIGHTING_EVERY`` seconds; returns whether it was recorded."""
    address = request_address(request=request)
    user_agent = request.META.get("HTTP_USER_AGENT", "")
    digests = sighting_digests(device_token=device_token, address=address, user_agent=user_agent)
    if not digests:
        return False
    marker = _marker(user_id=user_id, digests=digests)
    if not _due(request=request, user_id=user_id, marker=marker):
        return False
    services.sighting_record(
        user_id=user_id, device_token=device_token, address=address, user_agent=user_agent
    )
    return True


def _marker(*, user_id: int, digests: dict[str, str]) -> str:
    return sightings_service.sighting_marker(user_id=user_id, digests=digests)


def _due(*, request: HttpRequest, user_id: int, marker: str) -> bool:
    """Whether a sighting is due, noting that it is now (in the session of a session's user,
    else, e.g. for an API token, in the cache)."""
    every = settings.FT_SIGHTING_EVERY
    if every <= 0:
        return True
    now = timezone.now().timestamp()
    session = getattr(request, "session", None)
    session_user = getattr(request, "user", None)
    if session is not None and getattr(session_user, "pk", None) == user_id:
        if _noted_within(noted=session.get(SESSION_KEY), marker=marker, now=now, every=every):
            return False
        session[SESSION_KEY] = [marker, now]
        return True
    # cache.add is atomic: of concurrent requests, one records.
    return bool(cache.add(CACHE_PREFIX + marker, 1, timeout=every))


def _noted_within(*, noted: object, marker: str, now: float, every: int) -> bool:
    """Whether the session's note ``[marker, timestamp]`` is this marker's, and recent."""
    if not (isinstance(noted, list) and len(noted) == 2 and noted[0] == marker):
        return False
    return isinstance(noted[1], int | float) and 0 <= now - noted[1] < every


class ApiJsonErrorsMiddleware:
    """Under ``/api/v1/`` every answer is JSON, on errors too: Django's HTML 404, ninja's
    plain-text 405, a CSRF 403 or a server error's HTML page become the API's
    ``{"code", "reason"}`` (the ``Allow`` header of a 405 and the ``Retry-After`` of a 429
    or of a busy 503 are kept). Only the interactive docs (``/api/v1/docs``) are a page."""

    PREFIX = "/api/v1/"
    DOCS = "/api/v1/docs"
    CODES = {
        400: "bad_request",
        401: "not_authenticated",
        403: "forbidden",
        404: "not_found",
        405: "method_not_allowed",
        413: "too_large",
        429: "rate_limited",
    }

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith(self.PREFIX) or request.path.startswith(self.DOCS):
            return response
        if response.status_code < 400:
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response  # the API's own refusal
        answer = JsonResponse(self._body(request, response), status=response.status_code)
        for header in ("Allow", "Retry-After"):
            if response.has_header(header):
                answer[header] = response[header]
        return answer

    def _body(self, request: HttpRequest, response: HttpResponse) -> dict[str, str]:
        status = response.status_code
        if status == 404:
            reason = f"no API operation at {request.path}; see {self.DOCS} for the operations"
        elif status == 405:
            allowed = response.get("Allow", "")
            reason = (
                f"{request.method} is not allowed on {request.path}; allowed: {allowed or 'none'}"
            )
        elif status == 503 and response.has_header("Retry-After"):
            # No database connection came in time (ftsite.dbpool.server_error).
            wait = response["Retry-After"]
            return {"code": "busy", "reason": f"the server is busy; try again in {wait} s"}
        elif status >= 500:
            return {"code": "server_error", "reason": "the server failed; try again later"}
        else:
            reason = f"the request was refused ({status})"
        return {"code": self.CODES.get(status, "bad_request"), "reason": reason}
