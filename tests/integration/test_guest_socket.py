"""A guest's socket on one process after the guest signed in to an account on the other
(issue 37: the socket still wrote into the account, the guest row gone). On the real
stack: the guest plays over a socket on the second daphne process (which then holds the
game, naming the guest), signs in through the first process's page, and the open socket's
next move is refused ``session_changed`` and closed 4409, nothing written; a socket opened
with the browser's session now plays the game as the account."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
import requests
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from games.models import Action, Game, User
from tests.support.servers import Server

from .conftest import post_form

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(120),
]

PASSWORD = "correct horse battery staple"


async def next_reply(ws: Any) -> dict[str, Any]:
    while True:
        reply = json.loads(await asyncio.wait_for(ws.recv(), timeout=15))
        if reply["type"] not in ("action", "state"):
            return reply


def test_a_guest_s_socket_on_the_other_process_is_refused_after_the_guest_signed_in(
    servers: tuple[Server, Server],
) -> None:
    page_server, socket_server = servers
    # The account, made on the server (its password hashed as the servers check it).
    account = {"username": "ada", "password1": PASSWORD, "password2": PASSWORD}
    made = post_form(requests.Session(), page_server.http, "/accounts/signup/", account)
    assert made.status_code == 302, made.text[:300]
    user = User.objects.get(username="ada")
    http = requests.Session()
    http.headers.update({"Referer": page_server.http})
    started = post_form(
        http, page_server.http, "/practice/", {"action": "code", "code": "FT1-N-0000007"}
    )
    assert started.status_code == 302, started.text[:300]
    game_id = re.fullmatch(r"/games/([0-9a-f-]{36})/", started.headers["Location"]).group(1)
    guest_cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())

    async def scenario() -> tuple[dict[str, Any], int | None, dict[str, Any]]:
        url = f"{socket_server.ws}/ws/games/{game_id}/"
        async with connect(
            url, origin=socket_server.http, additional_headers={"Cookie": guest_cookie}
        ) as ws:
            assert (await next_reply(ws))["role"] == "player"
            for n in range(2):
                await ws.send(json.dumps({"type": "move", "id": f"g{n}", "move": "s"}))
                assert (await next_reply(ws))["type"] == "accepted"
            signed_in = await asyncio.to_thread(
                post_form,
                http,
                page_server.http,
                "/accounts/login/",
                {"username": user.username, "password": PASSWORD},
            )
            assert signed_in.status_code == 302, signed_in.text[:300]
            await ws.send(json.dumps({"type": "move", "id": "g2", "move": "s"}))
            refused = await next_reply(ws)
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(ws.recv(), timeout=15)
            code = ws.close_code
        account_cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
        async with connect(
            url, origin=socket_server.http, additional_headers={"Cookie": account_cookie}
        ) as ws:
            assert (await next_reply(ws))["role"] == "player"
            await ws.send(json.dumps({"type": "move", "id": "a0", "move": "s"}))
            played = await next_reply(ws)
        return refused, code, played

    refused, code, played = asyncio.run(scenario())
    assert refused["type"] == "refused" and refused["code"] == "session_changed", refused
    assert code == 4409
    assert played["type"] == "accepted" and played["version"] == 3, played
    game = Game.objects.get(pk=game_id)
    assert game.player_id == user.pk
    assert list(
        Action.objects.filter(game=game).values_list("client_id", flat=True).order_by("seq")
    ) == [
        "g0",
        "g1",
        "a0",
    ]
