"""Who calls the JSON API: an API token or the site's session (``games.api.endpoints``
explains both), and the caller of an operation as the services want it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from ninja.security import HttpBearer
from ninja.security import SessionAuth as NinjaSessionAuth

from games import services
from games.errors import NotAuthenticated
from games.models import User


class TokenAuth(HttpBearer):
    """``Authorization: Bearer <token>`` with a token from ``POST /tokens``."""

    def authenticate(self, request: HttpRequest, token: str) -> User:
        user = services.api_token_authenticate(raw=token)
        if user is None:
            # Raising (rather than returning None) stops ninja from trying the session
            # next: a client that sent a token wants to hear that *the token* is bad.
            raise NotAuthenticated("the API token is invalid or has been revoked")
        return user


class SessionAuth(NinjaSessionAuth):
    """ninja's ``django_auth`` (session cookie, CSRF enforced on unsafe methods), except
    that the CSRF check runs only when the session actually signs someone in.

    With plain ``django_auth`` an anonymous POST answers "403 CSRF check failed" — which
    misleads a script whose real problem is a missing token. Without a signed-in session
    there is no ambient credential for a forged request to ride on, so nothing is lost by
    answering 401 instead; a signed-in session still needs the CSRF token.
    """

    def __call__(self, request: HttpRequest) -> Any:
        if not request.user.is_authenticated:
            return None
        return super().__call__(request)


token_auth = TokenAuth()
session_auth = SessionAuth()
AUTH = [token_auth, session_auth]
# Public operations still say how to sign in; the empty requirement makes it optional.
OPTIONAL_AUTH: dict[str, Any] = {"security": [{"TokenAuth": []}, {"SessionAuth": []}, {}]}


def api_user(request: HttpRequest) -> User:
    """The caller of an authenticated operation (ninja put it in ``request.auth``)."""
    user = getattr(request, "auth", None)  # set by django-ninja's authentication
    if not isinstance(user, User):
        raise NotAuthenticated("sign in, or send an API token")
    return user


def api_caller(request: HttpRequest) -> User | AnonymousUser:
    """The caller of a public operation: a token's user (a token, when sent, must be good),
    else the session's user, which may be anonymous.

    Never ``None``: to ``games.access``, ``user=None`` is the system, which may see anything.
    """
    user = token_auth(request) if request.headers.get("Authorization") else None
    return user if user is not None else request.user
