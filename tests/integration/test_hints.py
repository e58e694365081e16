"""A hint over a real daphne server is solved in the server's solver process pool (spawned
on first use) and answered on the socket."""

from __future__ import annotations

import asyncio
import json

import pytest

from games import services
from games.engine import GameState
from games.models import User

from .test_live_play import receive, session_cookie, socket

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(120),
]


def test_a_hint_is_solved_in_the_servers_solver_pool(servers, user: User) -> None:
    server = servers[0]
    logged = len(server.log.read_text())  # the servers are shared: only this test's part
    game = services.game_start_practice(user=user, code="FT1-N-0000007")
    cookie = session_cookie(user)

    async def ask_hint() -> tuple[dict, dict]:
        async with socket(server, game.pk, cookie) as ws:
            await receive(ws, "hello")
            await ws.send(json.dumps({"type": "hint", "id": "h1"}))
            hinted = await receive(ws, "hint")
            await ws.send(json.dumps({"type": "ping"}))
            return hinted, await receive(ws, "pong")

    hinted, _ = asyncio.run(ask_hint())
    assert hinted["id"] == "h1" and hinted["hints"] == 1
    assert hinted["move"] in GameState.from_code("FT1-N-0000007").legal_moves()
    assert "Traceback" not in server.log.read_text()[logged:]
