"""The websockets' origin check: a socket opens only from a page of this site.

Channels' ``AllowedHostsOriginValidator`` compared the ``Origin``'s host with
``ALLOWED_HOSTS`` and nothing else (issue 37): a page on another port of an allowed host,
or on plain http of an https site, could open a player's sockets with the player's
cookies. Here the ``Origin`` must be the socket's own origin, scheme, host and port, as
Django's CSRF check asks of a form's: the handshake's ``Host`` (one of ``ALLOWED_HOSTS``)
with the scheme the browser used (``wss``, or ``X-Forwarded-Proto: https`` from the proxy
when ``SECURE_PROXY_SSL_HEADER`` says to trust it) and the port the ``Host`` names (else
the scheme's own), or one of ``CSRF_TRUSTED_ORIGINS`` exactly (``DJANGO_CSRF_TRUSTED_ORIGINS``:
for a proxy that rewrites the ``Host``). Anything else is refused at the handshake (403),
as Channels' validator did.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}

Origin = tuple[str, str, int]


def origin_of(text: str) -> Origin | None:
    """``(scheme, host, port)`` of an origin such as ``https://example.org:8443``, the
    port filled in from the scheme; ``None`` for anything that is not an http(s) origin.

    >>> origin_of("http://127.0.0.1:8001")
    ('http', '127.0.0.1', 8001)
    >>> origin_of("HTTPS://Example.org")
    ('https', 'example.org', 443)
    >>> origin_of("null") is None
    True
    """
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:  # a port that is not a number, or out of range
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname, port or DEFAULT_PORTS[scheme]


def socket_own_origin(scope: dict[str, Any]) -> Origin | None:
    """The origin of the page a socket's handshake came from, were it this site's own: its
    ``Host`` (when allowed) with the scheme the browser spoke; ``None`` with no allowed
    ``Host``."""
    headers = _headers(scope)
    host = headers.get("host", "")
    domain, port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    secure = scope.get("scheme") == "wss"
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy is not None:
        name, value = proxy
        forwarded = headers.get(name.removeprefix("HTTP_").replace("_", "-").lower(), "")
        secure = secure or forwarded.split(",")[0].strip() == value
    scheme = "https" if secure else "http"
    try:
        return scheme, domain, int(port) if port else DEFAULT_PORTS[scheme]
    except ValueError:
        return None


def socket_origin_allowed(scope: dict[str, Any]) -> bool:
    """Whether the socket's ``Origin`` is its own origin or a trusted one (see the module)."""
    text = _headers(scope).get("origin")
    found = origin_of(text) if text else None
    if found is None:
        return False
    if found == socket_own_origin(scope):
        return True
    return any(found == origin_of(trusted) for trusted in settings.CSRF_TRUSTED_ORIGINS)


def _headers(scope: dict[str, Any]) -> dict[str, str]:
    return {
        bytes(name).decode("latin1").lower(): bytes(value).decode("latin1")
        for name, value in scope.get("headers", ())
    }


class SameOriginValidator:
    """ASGI middleware for websockets: refuses (403 at the handshake) a socket whose
    ``Origin`` is not allowed (:func:`socket_origin_allowed`)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not socket_origin_allowed(scope):
            denier = WebsocketDenier()
            return await denier(scope, receive, send)
        return await self.application(scope, receive, send)
