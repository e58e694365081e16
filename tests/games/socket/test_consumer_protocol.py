"""The game socket's message protocol: client messages parsed without a socket (each refusal
has a code naming the field), then, through the real ASGI stack, malformed JSON and an
unexpected error refused without killing the socket, and an oversized message closing it
(4009; the socket's pace and 4008 are in test_consumer_pace.py). Async tests run under
:func:`~tests.support.sockets.run_async`, without pytest-asyncio.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import services
from games.socket.consumers import GameConsumer
from games.socket.protocol import ClientMessage, ProtocolError, parse_client_message
from tests.support.sockets import ask, close_code, db, join, receive, run_async

from ..conftest import practice_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("empty_channel_layer"),
]


# Parsing, without a socket ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code", "field", "id"),
    [
        ("{", "bad_json", None, None),
        ("[1, 2]", "bad_json", None, None),
        ('"ping"', "bad_json", None, None),
        ("[" * 5000, "bad_json", None, None),
        ('{"id": "c1"}', "missing_field", "type", "c1"),
        ('{"type": 3}', "bad_field", "type", None),
        ('{"type": "shuffle", "id": "c1"}', "unknown_type", "shuffle", "c1"),
        ('{"type": "move", "move": "s"}', "missing_field", "id", None),
        ('{"type": "move", "id": 7, "move": "s"}', "bad_field", "id", None),
        ('{"type": "undo", "id": ""}', "bad_field", "id", None),
        ('{"type": "undo", "id": "' + "x" * 65 + '"}', "bad_field", "id", None),
        ('{"type": "move", "id": "c1"}', "missing_field", "move", "c1"),
        ('{"type": "move", "id": "c1", "move": ["s"]}', "bad_field", "move", "c1"),
        ('{"type": "move", "id": "c1", "move": "s", "version": "3"}', "bad_field", "version", "c1"),
        ('{"type": "undo", "id": "c1", "version": true}', "bad_field", "version", "c1"),
        ('{"type": "resign", "id": "c1", "version": -1}', "bad_field", "version", "c1"),
        ('{"type": "sync"}', "missing_field", "version", None),
        ('{"type": "sync", "version": 1.5}', "bad_field", "version", None),
    ],
)
def test_a_bad_message_is_refused_with_a_code_that_names_the_field(
    text: str, code: str, field: str | None, id: str | None
) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(text)
    assert (caught.value.code, caught.value.id) == (code, id)
    if field is not None:
        assert field in caught.value.reason


def test_well_formed_messages_parse() -> None:
    assert parse_client_message('{"type": "ping"}') == ClientMessage(type="ping")
    assert parse_client_message('{"type": "sync", "version": 0}').version == 0
    assert parse_client_message('{"type": "resign", "id": "c9"}') == ClientMessage(
        type="resign", id="c9"
    )
    undo = parse_client_message('{"type": "undo", "id": "c1", "version": null}')
    assert undo == ClientMessage(type="undo", id="c1")


# Bad input and abuse ---------------------------------------------------------------------


@run_async
async def test_it_answers_malformed_json_with_a_refusal_and_keeps_the_socket(user) -> None:
    game = await db(practice_game)(user)
    ws, _ = await join(game.pk, user)
    for text in ("{", "[]", "null", '{"type": "move", "id": "c1", "move": 5}'):
        refused = await ask(ws, text)
        assert refused["type"] == "refused" and refused["code"] in ("bad_json", "bad_field")
    await ws.send_to(bytes_data=b'{"type": "ping"}')
    refused = await receive(ws)
    assert (refused["code"], refused["id"]) == ("bad_json", None)
    unknown = await ask(ws, {"type": "teleport", "id": "c7"})
    assert (unknown["code"], unknown["id"]) == ("unknown_type", "c7")
    assert await ask(ws, {"type": "ping"}) == {"type": "pong"}
    await ws.disconnect()


@run_async
async def test_it_closes_an_oversized_message_with_4009(user) -> None:
    game = await db(practice_game)(user)
    ws, _ = await join(game.pk, user)
    # 4096 bytes exactly is allowed; multi-byte characters count as bytes.
    fits = '{"type": "ping", "pad": "' + "x" * (4096 - 27) + '"}'
    assert len(fits.encode()) == 4096
    assert await ask(ws, fits) == {"type": "pong"}
    await ws.send_to(text_data='{"type": "ping", "pad": "' + "é" * 2040 + '"}')
    assert await close_code(ws) == 4009
    await ws.disconnect()


@run_async
async def test_an_unexpected_error_is_logged_and_refused_without_killing_the_socket(
    user, monkeypatch, caplog
) -> None:
    def broken(**kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(services, "game_act", broken)
    game = await db(practice_game)(user)
    ws, _ = await join(game.pk, user)
    await ws.send_json_to({"type": "move", "id": "c1", "move": "s"})
    refused = json.loads(await ws.receive_from())
    assert (refused["type"], refused["code"], refused["id"]) == ("refused", "server_error", "c1")
    assert "a bug" in caplog.text
    assert await ask(ws, {"type": "ping"}) == {"type": "pong"}
    await ws.disconnect()


@run_async
async def test_a_broadcast_to_a_socket_that_just_closed_is_logged_not_raised(caplog) -> None:
    consumer = GameConsumer()
    consumer.role, consumer.game_id = "watcher", "g1"

    async def closed(message: dict[str, Any]) -> None:
        raise RuntimeError("Attempt to send on a closed protocol")

    consumer.send_message = closed  # type: ignore[method-assign]
    await consumer.game_action({"message": {"type": "action", "version": 3}})
    assert "a broadcast to a closing socket of game g1" in caplog.text
