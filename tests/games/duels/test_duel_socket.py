"""The duel socket through the real ASGI stack: both players and a watcher see each
move's progress in counts (never a card), presence and the result; the mover's
acknowledgement comes over the game socket as in any game; nobody acts for the other."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from ftsite.asgi import application
from games.duels.models import Duel
from tests.games.duels.conftest import seat_game, start_duel
from tests.support.sockets import (
    ORIGIN,
    ask,
    close_code,
    cookie_of,
    db,
    join,
    open_socket,
    run_async,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("empty_channel_layer"),
]

CARD = re.compile(r"\b[2-9TJQKA][SHDC]\b")
PROGRESS_KEYS = {"type", "seat", "home", "stock", "score", "moves", "version", "status", "time_ms"}


async def open_duel(duel_id: object, user=None) -> WebsocketCommunicator:
    headers = list(ORIGIN)
    if user is not None:
        headers.append((b"cookie", await db(cookie_of)(user)))
    ws = WebsocketCommunicator(application, f"/ws/duels/{duel_id}/", headers=headers)
    connected, _ = await ws.connect()
    assert connected
    return ws


async def next_of(ws: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    """The next message of ``kind`` (presence notices may come first)."""
    for _ in range(10):
        message = json.loads(await ws.receive_from())
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


async def presence_of(ws: WebsocketCommunicator, seat: int) -> bool:
    """The next presence notice of ``seat``: connected or not."""
    for _ in range(10):
        message = await next_of(ws, "presence")
        if message["seat"] == seat:
            return message["connected"]
    raise AssertionError(f"no presence of seat {seat}")


async def ask_duel(ws: WebsocketCommunicator, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message`` and return the first answer that is not a presence notice."""
    await ws.send_to(text_data=json.dumps(message))
    for _ in range(10):
        answer = json.loads(await ws.receive_from())
        if answer["type"] != "presence":
            return answer
    raise AssertionError("no answer")


@run_async
async def test_a_move_is_acknowledged_to_the_mover_and_told_to_the_other_in_counts(
    user, bob, carol
) -> None:
    duel = await db(start_duel)(user, bob)
    ada_game = await db(seat_game)(duel, 0)
    mine = await open_duel(duel.pk, user)
    hello = await next_of(mine, "duel")
    assert hello["duel"]["role"] == "player" and hello["duel"]["seat"] == 0
    assert hello["duel"]["game_id"] == str(ada_game.pk)
    theirs = await open_duel(duel.pk, bob)
    hello_bob = await next_of(theirs, "duel")
    assert hello_bob["duel"]["game_id"] != str(ada_game.pk)
    watcher = await open_duel(duel.pk, carol)
    assert (await next_of(watcher, "duel"))["duel"]["role"] == "watcher"
    game_ws, _ = await join(ada_game.pk, user)
    accepted = await ask(game_ws, {"type": "move", "id": "m1", "move": "s", "version": 0})
    assert accepted["type"] == "accepted"
    for ws in (theirs, watcher, mine):
        progress = await next_of(ws, "progress")
        assert set(progress) == PROGRESS_KEYS
        assert progress["seat"] == 0 and progress["stock"] == 63 and progress["version"] == 1
        # Counts only: no card the opponent has not seen (the turned card stays ada's).
        assert not CARD.search(json.dumps(progress))
        assert all(isinstance(v, int | str) or v is None for v in progress.values())
    for ws in (game_ws, mine, theirs, watcher):
        await ws.disconnect()


@run_async
async def test_nobody_plays_the_other_players_game_over_any_socket(user, bob) -> None:
    duel = await db(start_duel)(user, bob)
    ada_game = await db(seat_game)(duel, 0)
    # The other's game socket: refused (a duel's game is watched by nobody live).
    ws = await open_socket(ada_game.pk, bob)
    assert await close_code(ws) == 4403
    await ws.disconnect()
    # The duel socket takes no action at all.
    duel_ws = await open_duel(duel.pk, bob)
    await next_of(duel_ws, "duel")
    refused = await ask_duel(duel_ws, {"type": "move", "id": "x1", "move": "s", "version": 0})
    assert refused["type"] == "refused" and refused["code"] == "wrong_socket"
    await duel_ws.disconnect()


@run_async
async def test_presence_and_the_result_reach_the_other_side(user, bob) -> None:
    duel = await db(start_duel)(user, bob)
    ada_ws = await open_duel(duel.pk, user)
    await next_of(ada_ws, "duel")
    bob_ws = await open_duel(duel.pk, bob)
    hello = await next_of(bob_ws, "duel")
    assert [s["connected"] for s in hello["duel"]["seats"]] == [True, True]
    assert await presence_of(ada_ws, 1) is True
    await bob_ws.disconnect()
    assert await presence_of(ada_ws, 1) is False
    for seat in (0, 1):
        game = await db(seat_game)(duel, seat)
        ws, _ = await join(game.pk, game.player)
        await ask(ws, {"type": "resign", "id": f"r{seat}", "version": 0})
        await ws.disconnect()
    end = await next_of(ada_ws, "duel_end")
    assert end["outcome"] == Duel.Outcome.TIE and end["places"] == [1, 1]
    await ada_ws.send_to(text_data='{"type": "sync"}')
    state = await next_of(ada_ws, "duel")
    assert state["duel"]["state"] == "finished" and state["duel"]["code"] is not None
    await ada_ws.disconnect()


@pytest.mark.parametrize("duel_id", ["nope", "0b6f8a4e-4c51-4d55-9f0e-2d7a35f9a111"])
@run_async
async def test_it_closes_4404_for_no_such_duel(user, duel_id) -> None:
    ws = await open_duel(duel_id, user)
    assert await close_code(ws) == 4404
    await ws.disconnect()


@run_async
async def test_a_flooding_duel_socket_is_refused_then_closed(user, bob, settings) -> None:
    from ftsite.rates import Rate

    settings.FT_RATE_SOCKET_PACE = Rate.parse("2/10s")
    duel = await db(start_duel)(user, bob)
    ws = await open_duel(duel.pk, user)
    await next_of(ws, "duel")
    assert (await ask_duel(ws, {"type": "ping"}))["type"] == "pong"
    assert (await ask_duel(ws, {"type": "ping"}))["type"] == "pong"
    refused = await ask_duel(ws, {"type": "ping"})
    assert refused["code"] == "rate_limited" and refused["retry_after"] > 0
    for _ in range(12):
        await ws.send_to(text_data='{"type":"ping"}')
    assert await close_code(ws) == 4008
    await ws.disconnect()


@run_async
async def test_an_unknown_message_and_a_big_frame_are_refused(user, bob) -> None:
    duel = await db(start_duel)(user, bob)
    ws = await open_duel(duel.pk, user)
    await next_of(ws, "duel")
    refused = await ask_duel(ws, {"type": "steal", "id": "z"})
    assert refused["code"] == "unknown_type" and refused["id"] == "z"
    assert (await ask_duel(ws, {"type": "hint", "id": "h"}))["code"] == "wrong_socket"
    await ws.send_to(text_data="x" * 600)
    assert await close_code(ws) == 4009
    await ws.disconnect()


@run_async
async def test_a_move_after_the_flag_is_refused_time_up_over_the_game_socket(
    user, bob, wall_clock
) -> None:
    from datetime import timedelta

    duel = await db(start_duel)(user, bob)
    game = await db(seat_game)(duel, 0)
    ws, _ = await join(game.pk, user)
    assert (await ask(ws, {"type": "move", "id": "m1", "move": "s", "version": 0}))["type"] == (
        "accepted"
    )
    wall_clock.shift(timedelta(seconds=601))
    refused = await ask(ws, {"type": "move", "id": "m2", "move": "s", "version": 1})
    assert refused["type"] == "refused" and refused["code"] == "time_up" and refused["id"] == "m2"
    await ws.disconnect()
