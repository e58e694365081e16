"""The socket's close codes as a real client sees them from a real daphne server: the
in-process communicator once accepted codes (1008, 1009) that the server stack refuses to
send, and clients saw 1006 instead."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from games import services
from games.models import User

from .test_live_play import session_cookie

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(120),
]
# Idle past one blocking read of the channel layer (5 s) with a margin: the socket that
# died with 1011 did so after about 5 s.
IDLE_S = 8


async def close_code_after(server, path: str, cookie: str, frames: list[str]) -> int | None:
    """Send ``frames`` on a fresh socket and read until the server closes it."""
    async with connect(
        f"{server.ws}{path}", origin=server.http, additional_headers={"Cookie": cookie}
    ) as ws:
        try:
            for frame in frames:
                await ws.send(frame)
            while True:
                await asyncio.wait_for(ws.recv(), timeout=15)
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None
    return None


def test_the_real_server_closes_with_the_documented_codes(servers, user: User) -> None:
    server = servers[0]
    game = services.game_start_practice(user=user, code="FT1-N-0000007")
    daily = services.game_start_daily(user=user)  # not watchable anonymously while open
    cookie, path = session_cookie(user), f"/ws/games/{game.pk}/"
    too_big = json.dumps({"type": "ping", "pad": "x" * 5000})
    flood = [json.dumps({"type": "ping"})] * 101
    nobody = "/ws/games/00000000-0000-0000-0000-000000000000/"

    async def all_four() -> list[int | None]:
        return list(
            await asyncio.gather(
                close_code_after(server, path, cookie, [too_big]),
                close_code_after(server, path, cookie, flood),
                close_code_after(server, nobody, cookie, []),
                close_code_after(server, f"/ws/games/{daily.pk}/", "", []),
            )
        )

    codes = asyncio.run(all_four())
    assert codes == [4009, 4008, 4404, 4401]
    assert "invalid close code" not in server.log.read_text()


def test_an_idle_socket_stays_open_past_the_channel_layers_blocking_read(
    servers, user: User
) -> None:
    """channels_redis blocks 5 s per read of a socket's channel; with redis-py's default
    5 s socket timeout every idle socket died with 1011 after about 5 s."""
    server = servers[1]
    game = services.game_start_practice(user=user, code="FT1-N-0000007")
    cookie = session_cookie(user)

    async def idle_then_ping() -> dict:
        async with connect(
            f"{server.ws}/ws/games/{game.pk}/",
            origin=server.http,
            additional_headers={"Cookie": cookie},
        ) as ws:
            assert json.loads(await ws.recv())["type"] == "hello"
            await asyncio.sleep(IDLE_S)
            await ws.send(json.dumps({"type": "ping"}))
            return json.loads(await asyncio.wait_for(ws.recv(), timeout=10))

    assert asyncio.run(idle_then_ping()) == {"type": "pong"}
    assert "Timeout reading" not in server.log.read_text()
