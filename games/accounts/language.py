"""The language an account keeps: the footer's picker saves it, signing in applies it.

A visitor's first page is in the browser's language (LocaleMiddleware reads
Accept-Language); the picker posts to ``language_set``, which is Django's ``set_language``
(the language cookie) plus, for a signed-in account, saving the choice on the account.
``AccountLanguageMiddleware`` then shows a signed-in account its own language on any
browser, and writes the cookie so the page after signing out stays in it. URLs carry no
language prefix, so a shared link opens in the reader's language, not the sharer's.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from games.accounts.services import account_language_save


def _account_language(request: HttpRequest) -> str:
    """The signed-in account's kept language, or "" (a visitor, or none chosen yet)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    language = getattr(user, "language", "")
    return language if language in dict(settings.LANGUAGES) else ""


@require_POST
def language_set(request: HttpRequest) -> HttpResponseBase:
    """The footer's picker: the cookie as Django sets it, and the account keeps it."""
    response = set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and translation.check_for_language(language):
        account_language_save(user=request.user, language=language)
    return response


class AccountLanguageMiddleware:
    """After AuthenticationMiddleware: the account's language wins over cookie and browser."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = _account_language(request)
        if language and language != getattr(request, "LANGUAGE_CODE", None):
            translation.activate(language)
            request.LANGUAGE_CODE = language
        response = self.get_response(request)
        # Read again: a sign-in during this request brings the account's language with it.
        language = _account_language(request)
        if language and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                language,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,  # type: ignore[arg-type]
            )
        return response
