"""docs/protocol.md's examples are messages the server and the client really exchange.

Every ```json block of the protocol holding a ``"type"`` is parsed (as one JSON object, or
one object a line) and each object checked: a server's message against the schema of its
kind (``games.messages``, ``leaderboards.messages``, as the consumer tests check every
message a socket receives), a client's through the consumer's own parser. So an example
that drifts from the code (a field added, renamed or no longer sent) fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from games.arenas.messages import ARENA_MESSAGES
from games.duels.messages import DUEL_MESSAGES
from games.messages import GAME_MESSAGES, message_problem
from games.socket.protocol import ProtocolError, parse_client_message
from leaderboards.messages import BOARD_MESSAGES

PROTOCOL = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"
SERVER_KINDS = {**GAME_MESSAGES, **BOARD_MESSAGES, **DUEL_MESSAGES, **ARENA_MESSAGES}
CLIENT_KINDS = {"move", "undo", "resign", "hint", "sync", "ping"}


def examples(text: str) -> list[tuple[int, Any]]:
    """The JSON objects of ``text``'s json blocks that hold a ``"type"``, with their line;
    a block that parses neither whole nor a line at a time fails."""
    found = []
    for block in re.finditer(r"```json\n(.*?)```", text, re.S):
        body, line = block.group(1), text[: block.start()].count("\n") + 2
        if '"type"' not in body:
            continue  # not a socket message (the day file's schema)
        try:
            found.append((line, json.loads(body)))
            continue
        except json.JSONDecodeError:
            pass
        for n, row in enumerate(body.strip().splitlines()):
            try:
                found.append((line + n, json.loads(row)))
            except json.JSONDecodeError as error:
                pytest.fail(f"docs/protocol.md:{line + n}: an example that is not JSON: {error}")
    return found


def example_problem(message: Any) -> str | None:
    """What is wrong with an example; ``None`` when it is right. A ``hint`` is the client's
    (``{"type": "hint", "id": "h1"}``) unless it carries the server's ``hints``."""
    kind = message.get("type") if isinstance(message, dict) else None
    if kind in CLIENT_KINDS and not (kind == "hint" and "hints" in message):
        return _client_problem(message)
    return message_problem(message, SERVER_KINDS)


def _client_problem(message: dict[str, Any]) -> str | None:
    try:
        parse_client_message(json.dumps(message))
    except ProtocolError as error:
        return f"the consumer refuses it: {error.code}: {error.reason}"
    return None


def test_every_socket_example_of_the_protocol_is_a_message_of_its_kind() -> None:
    found = examples(PROTOCOL.read_text(encoding="utf-8"))
    kinds = {message["type"] for _, message in found}
    # Each server kind and each client kind is shown at least once.
    assert set(GAME_MESSAGES) - {"pong", "synced"} <= kinds, kinds
    assert kinds >= CLIENT_KINDS, kinds
    problems = [
        f"docs/protocol.md:{line}: {problem}"
        for line, message in found
        if (problem := example_problem(message)) is not None
    ]
    assert not problems, "\n".join(problems)


def test_an_example_out_of_its_schema_is_found() -> None:
    text = '```json\n{"type": "synced", "version": "12"}\n{"type": "move", "id": "c1"}\n```\n'
    problems = [example_problem(message) for _, message in examples(text)]
    assert problems[0] == "synced: version: Input should be a valid integer"
    assert problems[1] is not None and "missing_field" in problems[1]


def test_an_example_that_is_not_json_fails() -> None:
    with pytest.raises(pytest.fail.Exception, match="not JSON"):
        examples('```json\n{"type": "action", "changes": {...}}\n```\n')
