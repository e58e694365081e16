"""Websocket tests without pytest-asyncio: async tests, real session cookies, the origin."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import async_to_sync
from django.conf import settings
from django.test import Client

from games.models import User

# The origin validator in ftsite/asgi.py refuses sockets without an allowed Origin.
ORIGIN = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]


def run_async(test: Callable[..., Awaitable[None]]) -> Callable[..., None]:
    """Run an ``async def`` test in an event loop; pytest still sees its fixtures, and the
    database calls share the test's connection."""

    @functools.wraps(test)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        async_to_sync(test)(*args, **kwargs)

    return wrapper


def cookie_of(user: User) -> bytes:
    """A real session cookie for ``user``, as a browser would send it."""
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}".encode()
