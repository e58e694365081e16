"""The arena socket through the real ASGI stack: the live table on connecting and again
at each round's open and settling, the viewer's own row after the top rows, and a socket
that only listens."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from ftsite.asgi import application
from games import services
from games.arenas import selectors
from games.arenas.messages import ARENA_MESSAGES
from games.messages import message_problem
from tests.games.arenas.conftest import act, game_of
from tests.support.sockets import ORIGIN, close_code, cookie_of, db, run_async

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("empty_channel_layer"),
]


async def open_arena(arena_id: object, user=None) -> WebsocketCommunicator:
    headers = list(ORIGIN)
    if user is not None:
        headers.append((b"cookie", await db(cookie_of)(user)))
    ws = WebsocketCommunicator(application, f"/ws/arenas/{arena_id}/", headers=headers)
    connected, _ = await ws.connect()
    assert connected
    return ws


async def next_message(ws: WebsocketCommunicator) -> dict[str, Any]:
    message = json.loads(await ws.receive_from())
    assert message_problem(message, ARENA_MESSAGES) is None, message
    return message


@run_async
async def test_the_table_comes_on_connecting_and_moves_at_each_round(
    arena, user, bob, wall_clock
) -> None:
    for player in (user, bob):
        await db(services.arena_join)(user=player, arena_id=arena.pk)
    watcher = await open_arena(arena.pk)
    hello = await next_message(watcher)
    assert hello["type"] == "standings" and hello["rounds"] == 0 and hello["entrants"] == 2
    assert {r["name"] for r in hello["rows"]} == {"ada", "bob"}
    await db(services.arena_round_open)(arena=arena, number=1)
    opened = await next_message(watcher)
    assert opened["rounds"] == 1 and opened["state"] == "running"
    await db(act)(await db(game_of)(arena, 1, user), move="s")
    wall_clock.shift(timedelta(minutes=5))
    played = await db(lambda: services.arena_round_close(round_id=arena.rounds.get().pk))()
    assert played
    settled = await next_message(watcher)
    first = settled["rows"][0]
    assert first["name"] == "ada" and first["rank"] == 1 and first["rounds_played"] == 1
    assert not any(k in json.dumps(settled) for k in ("game", "deal", "code"))
    await watcher.disconnect()


@run_async
async def test_a_viewer_below_the_top_rows_gets_their_own_row(
    arena, user, bob, monkeypatch
) -> None:
    monkeypatch.setattr(selectors, "LIVE_ROWS", 1)
    for player in (bob, user):
        await db(services.arena_join)(user=player, arena_id=arena.pk)
    mine = await open_arena(arena.pk, user)
    hello = await next_message(mine)
    assert [r["name"] for r in hello["rows"]] == ["bob", "ada"] and hello["entrants"] == 2
    assert hello["top"] == 1
    assert hello["rows"][1]["rank"] == 1  # equal on points and rounds: they share the rank
    theirs = await open_arena(arena.pk)
    assert [r["name"] for r in (await next_message(theirs))["rows"]] == ["bob"]
    for ws in (mine, theirs):
        await ws.disconnect()


@run_async
async def test_the_socket_only_listens(arena, user) -> None:
    ws = await open_arena(arena.pk, user)
    await next_message(ws)
    await ws.send_to(text_data=json.dumps({"type": "move", "id": "m1", "move": "s"}))
    refused = await next_message(ws)
    assert refused["type"] == "refused" and refused["code"] == "wrong_socket"
    await ws.send_to(text_data=json.dumps({"type": "ping"}))
    assert (await next_message(ws))["type"] == "pong"
    await ws.send_to(text_data="x" * 600)
    assert await close_code(ws) == 4009
    await ws.disconnect()


@run_async
async def test_an_unknown_arena_closes_the_socket(db) -> None:
    ws = await open_arena("999999")
    assert await close_code(ws) == 4404
    await ws.disconnect()
    other = await open_arena("not-a-number")
    assert await close_code(other) == 4404
    await other.disconnect()
