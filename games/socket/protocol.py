"""The client's half of the socket protocol (``docs/protocol.md``, "Messages"): which
messages a client may send, their checks, and the refusal frame. Pure parsing: no socket,
no service, no database (the consumer in :mod:`games.socket.consumers` does the rest).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, cast

from games.input_guard import text_problem
from games.messages import RefusedMessage

ACTIONS = frozenset({"move", "undo", "resign"})
TYPES = ACTIONS | {"hint", "sync", "ping"}
MAX_ID_LENGTH = 64

# What a refusal's reason says is expected.
_KNOWN_TYPES = "one of move, undo, resign, hint, sync, ping"
_ID_RULE = f"a client message id: text of 1 to {MAX_ID_LENGTH} characters, unique per game"
_MOVE_RULE = "text in the notation, such as s, t3-f1 or w-t10"


class ProtocolError(Exception):
    """A client message the interface refuses before any service sees it."""

    def __init__(self, code: str, reason: str, id: str | None = None) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.id = id


@dataclass(frozen=True)
class ClientMessage:
    """One well-formed client message; ``version`` is ``None`` when not given."""

    type: str
    id: str | None = None
    version: int | None = None
    move: str | None = None


def parse_client_message(text: str) -> ClientMessage:
    """Check one text frame against the protocol; raise :class:`ProtocolError` if it is not.

    >>> parse_client_message('{"type": "move", "id": "c1", "move": "s", "version": 0}')
    ClientMessage(type='move', id='c1', version=0, move='s')
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: absurdly nested arrays
        data = None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", 'a message is one JSON object, such as {"type": "ping"}')
    # The id is echoed in any refusal as soon as it is readable, even if the rest is wrong.
    msg_id = readable_id(data.get("id"))
    kind = data.get("type")
    if kind is None:
        raise ProtocolError("missing_field", "type is missing: " + _KNOWN_TYPES, msg_id)
    if not isinstance(kind, str):
        raise ProtocolError("bad_field", "type must be text: " + _KNOWN_TYPES, msg_id)
    if kind not in TYPES:
        raise ProtocolError(
            "unknown_type", f"{kind[:40]!r} is not a message type; " + _KNOWN_TYPES, msg_id
        )
    if kind == "ping":
        return ClientMessage(type=kind, id=msg_id)
    if kind == "sync":
        return ClientMessage(type=kind, id=msg_id, version=_version(data, msg_id, required=True))
    if data.get("id") is None:
        raise ProtocolError("missing_field", f"id is missing: a {kind} carries {_ID_RULE}")
    if msg_id is None:
        problem = text_problem(data["id"]) if isinstance(data["id"], str) else None
        raise ProtocolError(
            "bad_field", f"id must be {_ID_RULE}" + (f"; {problem}" if problem else "")
        )
    move = None
    if kind == "move":
        move = data.get("move")
        if move is None:
            raise ProtocolError("missing_field", f"move is missing: {_MOVE_RULE}", msg_id)
        if not isinstance(move, str):
            raise ProtocolError("bad_field", f"move must be {_MOVE_RULE}", msg_id)
    return ClientMessage(
        type=kind, id=msg_id, version=_version(data, msg_id, required=False), move=move
    )


def readable_id(value: object) -> str | None:
    """The message's id if it is one the protocol allows (so it may be echoed), else None."""
    # Text PostgreSQL can store (no NUL, no lone surrogate): the id goes into the log.
    if isinstance(value, str) and 0 < len(value) <= MAX_ID_LENGTH and not text_problem(value):
        return value
    return None


def _version(data: dict[str, Any], msg_id: str | None, *, required: bool) -> int | None:
    version = data.get("version")
    if version is None:
        if required:
            raise ProtocolError(
                "missing_field", "version is missing: the last version you have", msg_id
            )
        return None
    # bool is an int in Python but never a version.
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise ProtocolError("bad_field", "version must be a whole number of at least 0", msg_id)
    return version


def refusal(code: str, reason: str, id: str | None, **extra: Any) -> RefusedMessage:
    """A refusal; ``extra`` the optional keys its code carries (``RefusedMessage``'s
    ``version``, ``retry_after``, ``rule``, ``params``: the consumer tests check them)."""
    return cast(
        RefusedMessage, {"type": "refused", "id": id, "code": code, "reason": reason, **extra}
    )
