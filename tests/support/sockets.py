"""Websocket tests without pytest-asyncio: async tests, real session cookies, the origin.

Also the game socket's client side (``open_socket``, ``join``, ``receive``, ``ask``,
``close_code``), shared by the ``tests/games/socket/test_consumer_*`` modules.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from ftsite.asgi import application
from games.models import User

# The origin validator in ftsite/asgi.py refuses sockets without an allowed Origin.
ORIGIN = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]

db = database_sync_to_async


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


async def open_socket(game_id: object, user: User | None = None) -> WebsocketCommunicator:
    """A socket to the game (signed in as ``user``), handshake done."""
    headers = list(ORIGIN)
    if user is not None:
        headers.append((b"cookie", await db(cookie_of)(user)))
    ws = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    connected, _ = await ws.connect()
    assert connected  # refusals too are accepted first, then closed with a code
    return ws


async def join(game_id: object, user: User | None = None) -> tuple[WebsocketCommunicator, dict]:
    """A socket that was admitted, with its hello."""
    ws = await open_socket(game_id, user)
    hello = await receive(ws)
    assert hello["type"] == "hello", hello
    return ws, hello


async def receive(ws: WebsocketCommunicator) -> dict[str, Any]:
    message = json.loads(await ws.receive_from())
    # A server_error is a bug in the consumer, never an answer a test expects by accident.
    assert message.get("code") != "server_error", message
    return message


async def ask(ws: WebsocketCommunicator, message: dict[str, Any] | str) -> dict[str, Any]:
    text = message if isinstance(message, str) else json.dumps(message)
    await ws.send_to(text_data=text)
    return await receive(ws)


async def close_code(ws: WebsocketCommunicator) -> int:
    output = await ws.receive_output()
    assert output["type"] == "websocket.close", output
    return output["code"]
