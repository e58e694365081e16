"""Two live ASGI servers, one PostgreSQL, one Redis: play on one, watch on the other."""

from __future__ import annotations

import asyncio
import json
from contextlib import asynccontextmanager
from typing import Any

import pytest
from django.test import Client
from websockets.asyncio.client import ClientConnection, connect

from games import services
from games.models import Game, User

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]


def session_cookie(user: User) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


@asynccontextmanager
async def socket(server: Any, game_id: object, cookie: str):
    async with connect(
        f"{server.ws}/ws/games/{game_id}/",
        origin=server.http,  # type: ignore[arg-type]
        additional_headers={"Cookie": cookie},
        open_timeout=10,
    ) as ws:
        yield ws


async def receive(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of type ``kind``, skipping others (e.g. the player's own echo)."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout=15))
        if message["type"] == kind:
            return message


async def play(ws: ClientConnection, legal: list[str], count: int, first: int, version: int):
    """Play ``count`` moves (alternately a draw and another legal move)."""
    accepted = []
    for n in range(first, first + count):
        others = [m for m in legal if m != "s"]
        move = others[0] if n % 2 and others else "s"
        await ws.send(json.dumps({"type": "move", "id": f"m{n}", "move": move, "version": version}))
        reply = await receive(ws, "accepted")
        accepted.append(reply)
        version, legal = reply["version"], reply["changes"]["legal_moves"]
    return accepted, legal


def test_a_player_on_one_server_and_a_watcher_on_the_other_see_the_same_moves(
    servers, user, bob
) -> None:
    first, second = servers
    game = services.game_start_practice(user=user, code="FT1-N-0000007")
    ada, bobs = session_cookie(user), session_cookie(bob)

    async def scenario():
        async with socket(first, game.pk, ada) as player, socket(second, game.pk, bobs) as watcher:
            hello = await receive(player, "hello")
            assert (await receive(watcher, "hello"))["role"] == "watcher"
            assert hello["role"] == "player"
            accepted, _ = await play(player, hello["game"]["legal_moves"], 12, 0, 0)
            seen = [await receive(watcher, "action") for _ in accepted]
            return accepted, seen

    accepted, seen = asyncio.run(scenario())
    assert [m["version"] for m in accepted] == list(range(1, 13))
    assert [(m["version"], m["action"], m["changes"]) for m in seen] == [
        (m["version"], m["action"], m["changes"]) for m in accepted
    ]
    game.refresh_from_db()
    assert game.version == 12
    assert list(game.actions.values_list("move", flat=True)) == [m["action"] for m in accepted]


def test_a_reconnect_to_the_other_server_mid_game_resumes_with_nothing_lost(servers, user) -> None:
    first, second = servers
    game = services.game_start_practice(user=user, code="FT1-N-0000007")
    ada = session_cookie(user)

    async def scenario():
        async with socket(first, game.pk, ada) as ws:
            hello = await receive(ws, "hello")
            before, legal = await play(ws, hello["game"]["legal_moves"], 3, 0, 0)
        # The connection is gone; the client comes back through the other server.
        async with socket(second, game.pk, ada) as ws:
            hello = await receive(ws, "hello")
            assert hello["game"]["version"] == 3
            await ws.send(json.dumps({"type": "sync", "version": 3}))
            assert await receive(ws, "synced") == {"type": "synced", "version": 3}
            await ws.send(json.dumps({"type": "sync", "version": 1}))
            state = await receive(ws, "state")
            assert state["game"]["version"] == 3
            # The last message is re-sent, as a client unsure of its fate would.
            await ws.send(json.dumps({"type": "move", "id": "m2", "move": before[-1]["action"]}))
            again = await receive(ws, "accepted")
            assert again["duplicate"] and again["version"] == 3
            after, _ = await play(ws, hello["game"]["legal_moves"], 2, 3, 3)
        return before, after

    before, after = asyncio.run(scenario())
    game.refresh_from_db()
    assert game.version == 5
    assert list(game.actions.values_list("seq", flat=True)) == [1, 2, 3, 4, 5]
    assert list(game.actions.values_list("move", flat=True)) == [
        m["action"] for m in before + after
    ]
    assert Game.objects.count() == 1
