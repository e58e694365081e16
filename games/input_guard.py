"""Text no part of the site can store or name, refused at the door.

PostgreSQL refuses the NUL character in text (and a lone UTF-16 surrogate cannot be
encoded for it at all), so a NUL that reached a query was a server error wherever it came
in: a URL (``/players/%00/``), a query, a form field, a cookie, a JSON body, a socket
frame. Rather than guard every query, :class:`InputGuardMiddleware` refuses a request
carrying one before any view runs (a path: 404, nothing can be named so; a query or form
field: 400), a cookie carrying one is ignored, and :func:`text_problem` is the check the
JSON API's parser and the socket's message ids share.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.utils import translation
from django.utils.translation import gettext as _

API_PREFIX = "/api/v1/"


def text_problem(text: str) -> str | None:
    """What makes ``text`` unusable as stored text, or ``None``.

    >>> text_problem("a b"), text_problem("a\\x00b"), text_problem("\\ud800")
    (None, 'it contains a NUL character', 'it contains a lone surrogate')
    """
    if "\x00" in text:
        return "it contains a NUL character"
    if any("\ud800" <= c <= "\udfff" for c in text):
        return "it contains a lone surrogate"
    return None


def json_problem(value: Any, where: str = "body") -> str | None:
    """The first string in a decoded JSON value (keys included) that :func:`text_problem`
    refuses, named by its place (``body.client_id``), or ``None``."""
    if isinstance(value, str):
        problem = text_problem(value)
        return f"{where}: {problem}" if problem else None
    if isinstance(value, dict):
        for key, item in value.items():
            problem = json_problem(key, where) or json_problem(item, f"{where}.{key}")
            if problem:
                return problem
    if isinstance(value, list):
        for index, item in enumerate(value):
            problem = json_problem(item, f"{where}[{index}]")
            if problem:
                return problem
    return None


class InputGuardMiddleware:
    """Refuse a request whose path, query or form fields hold a NUL; drop such cookies.

    Placed first among the middleware that read the request (before the session's), so
    no cookie, path or field with a NUL reaches a query."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        for name in [n for n, v in request.COOKIES.items() if text_problem(n + v)]:
            del request.COOKIES[name]  # as if never sent: a new session, a new device
        where = "path" if text_problem(request.path) else self._field_with_nul(request)
        if where is None:
            return self.get_response(request)
        # Before LocaleMiddleware: a refusal is worded in the request's language here (only
        # then: activating a language costs every request a little).
        with translation.override(translation.get_language_from_request(request)):
            return self._refusal(request, where)

    def _refusal(self, request: HttpRequest, where: str) -> HttpResponse:
        if where == "path":
            return _refuse(
                request, 404, "not_found", _("No page has a NUL character in its address.")
            )
        if where == "query":
            reason = _("The query holds a NUL character, which no field may contain.")
            return _refuse(request, 400, "bad_field", reason)
        reason = _("The form holds a NUL character, which no field may contain.")
        return _refuse(request, 400, "bad_field", reason)

    @staticmethod
    def _field_with_nul(request: HttpRequest) -> str | None:
        if any(text_problem(k + v) for k, vs in request.GET.lists() for v in vs):
            return "query"
        if request.method != "POST":
            return None
        try:
            # The body first: it stays readable for a view that reads it (the JSON API),
            # and the form is parsed from it; over DATA_UPLOAD_MAX_MEMORY_SIZE, Django
            # refuses it itself.
            request.body  # noqa: B018
            fields = request.POST
        except (MultiPartParserError, ValueError, RequestDataTooBig):  # Django answers those
            return None
        if any(text_problem(k + v) for k, vs in fields.lists() for v in vs):
            return "form"
        return None


def _refuse(request: HttpRequest, status: int, code: str, reason: str) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"code": code, "reason": reason}, status=status)
    return HttpResponse(reason, status=status, content_type="text/plain; charset=utf-8")
