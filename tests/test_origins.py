"""The websockets' origin check (``ftsite.origins``, issue 37): the ``Origin`` must be the
socket's own origin, scheme, host and port; another port or scheme of an allowed host is
refused, as is a host not allowed; ``CSRF_TRUSTED_ORIGINS`` name exact exceptions."""

from __future__ import annotations

from datetime import date

import pytest
from channels.testing import WebsocketCommunicator

from ftsite.asgi import application
from ftsite.origins import socket_origin_allowed
from tests.support.sockets import run_async


def scope(origin: str | None, host: str, **more: object) -> dict[str, object]:
    headers = [(b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    for name, value in more.items():
        headers.append((name.replace("_", "-").encode(), str(value).encode()))
    return {"type": "websocket", "headers": headers}


@pytest.mark.parametrize(
    ("origin", "host"),
    [
        ("http://127.0.0.1", "127.0.0.1"),
        ("http://127.0.0.1:80", "127.0.0.1"),
        ("http://127.0.0.1:8001", "127.0.0.1:8001"),
        ("http://LOCALHOST:8001", "localhost:8001"),
    ],
)
def test_it_accepts_the_socket_s_own_origin(origin: str, host: str) -> None:
    assert socket_origin_allowed(scope(origin, host))


@pytest.mark.parametrize(
    ("origin", "host"),
    [
        ("http://127.0.0.1:8002", "127.0.0.1:8001"),  # another port of an allowed host
        ("http://127.0.0.1:8001", "127.0.0.1"),
        ("http://localhost:8001", "127.0.0.1:8001"),  # another allowed host
        ("https://127.0.0.1:8001", "127.0.0.1:8001"),  # another scheme
        ("https://evil.example", "127.0.0.1"),
        ("http://evil.example", "evil.example"),  # a Host not allowed
        ("null", "127.0.0.1"),
        ("ftp://127.0.0.1", "127.0.0.1"),
        ("http://127.0.0.1:99999", "127.0.0.1"),
        (None, "127.0.0.1"),
    ],
)
def test_it_refuses_any_other_origin(origin: str | None, host: str) -> None:
    assert not socket_origin_allowed(scope(origin, host))


def test_behind_the_proxy_the_origin_is_https_on_the_proxy_s_port(settings) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    behind = {"x_forwarded_proto": "https"}
    assert socket_origin_allowed(scope("https://127.0.0.1:8443", "127.0.0.1:8443", **behind))
    assert socket_origin_allowed(scope("https://localhost", "localhost", **behind))
    assert not socket_origin_allowed(scope("http://127.0.0.1:8443", "127.0.0.1:8443", **behind))
    assert not socket_origin_allowed(scope("https://127.0.0.1:9443", "127.0.0.1:8443", **behind))
    # Without the proxy's header, the socket is plain http: an https page is another origin.
    assert not socket_origin_allowed(scope("https://127.0.0.1:8443", "127.0.0.1:8443"))


def test_a_trusted_origin_is_accepted_exactly(settings) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.org"]
    assert socket_origin_allowed(scope("https://play.example.org", "127.0.0.1"))
    assert socket_origin_allowed(scope("https://play.example.org:443", "127.0.0.1"))
    assert not socket_origin_allowed(scope("https://play.example.org:8443", "127.0.0.1"))
    assert not socket_origin_allowed(scope("http://play.example.org", "127.0.0.1"))


@pytest.mark.django_db(transaction=True)
@run_async
@pytest.mark.parametrize(
    ("origin", "host", "opens"),
    [
        (b"http://127.0.0.1:8001", b"127.0.0.1:8001", True),
        (b"http://127.0.0.1:8002", b"127.0.0.1:8001", False),
    ],
)
async def test_the_site_s_sockets_open_only_from_its_own_origin(
    origin: bytes, host: bytes, opens: bool
) -> None:
    ws = WebsocketCommunicator(
        application,
        f"/ws/boards/daily/{date.today().isoformat()}/",
        headers=[(b"origin", origin), (b"host", host)],
    )
    connected, _ = await ws.connect()
    assert connected is opens
    await ws.disconnect()
