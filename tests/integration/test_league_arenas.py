"""A league's arena through the real servers (two ASGI processes sharing channels_redis
and PostgreSQL): a member's arena socket on one server hears the round opened here; a
player outside the league and a visitor are closed 4404 on the other; a member whose
account is in Italian is refused in Italian, the code unchanged."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone, translation
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from games import services
from games.models import User
from leaderboards.leagues import services as league_services
from leaderboards.leagues.selectors import invite_token
from tests.integration.test_live_play import session_cookie

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]

WRONG = "an arena socket only listens: moves go over your round's game socket"


@pytest.fixture(autouse=True)
def no_countdown(settings) -> None:
    settings.FT_DUEL_COUNTDOWN_SECONDS = 0


async def receive(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout=15))
        if message["type"] == kind:
            return message


async def close_code_of(server: Any, path: str, cookie: str | None) -> int:
    headers = {"Cookie": cookie} if cookie else {}
    async with connect(
        f"{server.ws}{path}", origin=server.http, additional_headers=headers, open_timeout=10
    ) as ws:
        try:
            await asyncio.wait_for(ws.recv(), timeout=10)
        except ConnectionClosed as error:
            return error.rcvd.code if error.rcvd else 0
    return 0


def test_a_league_arena_socket_across_two_servers(unpaced_servers, user, bob, carol) -> None:
    first, second = unpaced_servers
    league = league_services.league_create(user=user, name="Night Owls")
    league_services.league_join(user=bob, token=invite_token(league=league))
    User.objects.filter(pk=user.pk).update(language="it")
    arena = league_services.league_arena_create(
        user=user,
        league_id=league.pk,
        starts_at=timezone.now() + timedelta(minutes=3),
        minutes=30,
        round_minutes=5,
        variant="forty-thieves",
    )
    for player in (user, bob):
        services.arena_join(user=player, arena_id=arena.pk)
    path = f"/ws/arenas/{arena.pk}/"
    ada, bobs, carols = session_cookie(user), session_cookie(bob), session_cookie(carol)

    async def scenario() -> dict[str, Any]:
        async with (
            connect(
                f"{second.ws}{path}",
                origin=second.http,
                additional_headers={"Cookie": bobs},
                open_timeout=10,
            ) as member,
            connect(
                f"{first.ws}{path}",
                origin=first.http,
                additional_headers={"Cookie": ada, "Accept-Language": "fi"},
                open_timeout=10,
            ) as owner,
        ):
            hello = await receive(member, "standings")
            await receive(owner, "standings")
            await owner.send(json.dumps({"type": "move", "id": "m1", "move": "s"}))
            refused = await receive(owner, "refused")
            await asyncio.to_thread(_open_round, arena.pk)
            opened = await receive(member, "standings")
        outsider = await close_code_of(first, path, carols)
        visitor = await close_code_of(second, path, None)
        return {
            "hello": hello,
            "opened": opened,
            "refused": refused,
            "codes": (outsider, visitor),
        }

    seen = asyncio.run(scenario())
    assert {r["name"] for r in seen["hello"]["rows"]} == {"ada", "bob"}
    assert seen["opened"]["rounds"] == 1
    with translation.override("it"):
        italian = translation.gettext(WRONG)
    assert italian != WRONG
    assert seen["refused"]["code"] == "wrong_socket" and seen["refused"]["reason"] == italian
    assert seen["codes"] == (4404, 4404)


def _open_round(arena_id: int) -> None:
    from django.db import close_old_connections

    from games.arenas.models import Arena

    try:
        services.arena_round_open(arena=Arena.objects.get(pk=arena_id), number=1)
    finally:
        close_old_connections()
