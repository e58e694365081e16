"""Every message a test's socket receives is checked against its schema.

The server's socket messages are defined once (``games.messages`` for a game socket,
``leaderboards.messages`` for a board socket); :func:`checked_communicators` makes every
read of Channels' test communicator (``receive_from``, ``receive_json_from`` and the raw
``receive_output``) fail on a text frame that is not one of its socket's kinds, so the
consumer tests check every message they see without asking. tests/conftest.py applies it
to the whole suite.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from games.arenas.messages import ARENA_MESSAGES
from games.duels.messages import DUEL_MESSAGES
from games.messages import GAME_MESSAGES, message_problem
from leaderboards.messages import BOARD_MESSAGES

# A socket's kinds of message, by the start of its path (ftsite/asgi.py's routes).
SOCKET_KINDS: dict[str, dict[str, type[Any]]] = {
    "/ws/games/": GAME_MESSAGES,
    "/ws/duels/": DUEL_MESSAGES,
    "/ws/arenas/": ARENA_MESSAGES,
    "/ws/boards/": BOARD_MESSAGES,
    "/ws/leagues/": BOARD_MESSAGES,
}


def kinds_of(path: str) -> dict[str, type[Any]]:
    for start, kinds in SOCKET_KINDS.items():
        if path.startswith(start):
            return kinds
    raise AssertionError(f"no schemas for the socket at {path!r} (tests/support/messages.py)")


def message_checked(text: str, *, kinds: dict[str, type[Any]] = GAME_MESSAGES) -> Any:
    """``text`` parsed, asserted to be one message of ``kinds``."""
    message = json.loads(text)
    problem = message_problem(message, kinds)
    assert problem is None, f"the server sent a message out of its schema: {problem}: {text}"
    return message


def checked_communicators(monkeypatch: pytest.MonkeyPatch) -> None:
    """Check every text frame a test's websocket communicator receives against the schemas
    of its socket (by its path)."""
    # The schemas are compiled now, not at a socket's first read: compiling one takes
    # milliseconds of the event loop the consumer under test shares (a pace test counts).
    for kinds in SOCKET_KINDS.values():
        for kind in kinds:
            message_problem({"type": kind}, kinds)
    original = WebsocketCommunicator.receive_output

    async def receive_output(self: WebsocketCommunicator, *args: Any, **kwargs: Any) -> Any:
        output = await original(self, *args, **kwargs)
        if output.get("type") == "websocket.send" and isinstance(output.get("text"), str):
            message_checked(output["text"], kinds=kinds_of(self.scope["path"]))
        return output

    monkeypatch.setattr(WebsocketCommunicator, "receive_output", receive_output)
