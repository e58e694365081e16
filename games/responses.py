"""The site's refusal responses, one of each kind: a service's refusal as a page, and the
``Retry-After`` header every throttled or not-yet answer carries (pages, the API, the day
files, the sign-in lockout)."""

from __future__ import annotations

import math
from typing import Any, TypeVar

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.errors import ServiceError

R = TypeVar("R", bound=HttpResponse)


def with_retry_after(response: R, seconds: float | None) -> R:
    """``response`` with ``Retry-After`` (whole seconds, at least 1) when ``seconds`` is
    given; unchanged when it is ``None``."""
    if seconds is not None:
        response["Retry-After"] = str(max(1, math.ceil(seconds)))
    return response


def retry_after_of(err: ServiceError) -> float | None:
    """The wait a refusal names (``retry_after``: a rate limit, a file being built)."""
    wait: Any = err.extra.get("retry_after")
    return wait if isinstance(wait, int | float) else None


def refusal_page(
    request: HttpRequest,
    err: ServiceError,
    *,
    template: str = "games/refused.html",
    context: dict[str, Any] | None = None,
) -> HttpResponse:
    """A service's refusal as a page: its 4xx status (400 for anything else) carrying the
    service's reason, and ``Retry-After`` when it names a wait; ``context`` adds to what
    the template gets (the game to go back to, say)."""
    status = err.status if 400 <= err.status < 500 else 400
    page = {"reason": err.reason, "error": err, **(context or {})}
    response = render(request, template, page, status=status)
    return with_retry_after(response, retry_after_of(err))
