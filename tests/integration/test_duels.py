"""A duel through the real servers: two ASGI processes sharing channels_redis, PostgreSQL
and a Celery worker. Ada plays on one server, bob watches her progress from the other in
counts (never a card); bob can neither open ada's game nor act over the duel socket; when
both have resigned both duel sockets hear the result, the worker verifies both games by
replay and only then rates the duel."""

from __future__ import annotations

import asyncio
import json
import re
import time
from contextlib import asynccontextmanager
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from games import services
from games.duels.models import Duel, DuelSeat
from leaderboards.models import Result
from leaderboards.rating.models import DuelRating, RatedDuel
from tests.integration.test_live_play import session_cookie

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]

CARD = re.compile(r"\b[2-9TJQKA][SHDC]\b")


@pytest.fixture(autouse=True)
def no_countdown(settings) -> None:
    settings.FT_DUEL_COUNTDOWN_SECONDS = 0  # the duel starts in this process


@asynccontextmanager
async def opened(server: Any, path: str, cookie: str):
    async with connect(
        f"{server.ws}{path}",
        origin=server.http,  # type: ignore[arg-type]
        additional_headers={"Cookie": cookie},
        open_timeout=10,
    ) as ws:
        yield ws


async def receive(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout=15))
        if message["type"] == kind:
            return message


def test_a_duel_across_two_servers_to_its_verified_rating(
    unpaced_servers, workers, user, bob
) -> None:
    workers()
    first, second = unpaced_servers
    _, token = services.duel_challenge_create(user=user)
    duel = services.duel_challenge_accept(user=bob, token=token)
    seats = {s.seat: s for s in DuelSeat.objects.filter(duel=duel)}
    ada_game, bob_game = seats[0].game_id, seats[1].game_id
    ada, bobs = session_cookie(user), session_cookie(bob)

    async def scenario() -> tuple[dict, dict, int, dict, dict]:
        async with (
            opened(first, f"/ws/duels/{duel.pk}/", ada) as ada_duel,
            opened(second, f"/ws/duels/{duel.pk}/", bobs) as bob_duel,
        ):
            await receive(ada_duel, "duel")
            await receive(bob_duel, "duel")
            async with opened(first, f"/ws/games/{ada_game}/", ada) as play:
                await receive(play, "hello")
                await play.send(json.dumps({"type": "move", "id": "a1", "move": "s", "version": 0}))
                accepted = await receive(play, "accepted")
                progress = await receive(bob_duel, "progress")
                await play.send(json.dumps({"type": "resign", "id": "a2", "version": 1}))
                await receive(play, "accepted")
            # Bob cannot open ada's game on his server, nor act over the duel socket.
            async with opened(second, f"/ws/games/{ada_game}/", bobs) as spy:
                try:
                    await asyncio.wait_for(spy.recv(), timeout=10)
                    closed = 0
                except ConnectionClosed as error:
                    closed = error.rcvd.code if error.rcvd else 0
            await bob_duel.send(json.dumps({"type": "move", "id": "b1", "move": "s", "version": 0}))
            refused = await receive(bob_duel, "refused")
            async with opened(second, f"/ws/games/{bob_game}/", bobs) as play:
                await receive(play, "hello")
                await play.send(json.dumps({"type": "resign", "id": "b2", "version": 0}))
                await receive(play, "accepted")
            ends = (await receive(ada_duel, "duel_end"), await receive(bob_duel, "duel_end"))
            return accepted, progress, closed, refused, {"ends": ends}

    accepted, progress, closed, refused, rest = asyncio.run(scenario())
    assert accepted["version"] == 1
    assert progress["seat"] == 0 and progress["stock"] == 63 and progress["version"] == 1
    assert not CARD.search(json.dumps(progress))
    assert closed == 4403
    assert refused["code"] == "wrong_socket"
    assert rest["ends"][0] == rest["ends"][1] and rest["ends"][0]["places"] in ([1, 2], [2, 1])
    # The worker verifies both games by replay, and only then does the rating move.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not RatedDuel.objects.filter(duel=duel).exists():
        time.sleep(0.2)
    assert set(
        Result.objects.filter(game_id__in=[ada_game, bob_game]).values_list("status", flat=True)
    ) == {Result.Status.VERIFIED}
    assert RatedDuel.objects.get(duel=duel).places == rest["ends"][0]["places"]
    assert DuelRating.objects.filter(user__in=[user, bob]).count() == 2
    assert Duel.objects.get(pk=duel.pk).state == Duel.State.FINISHED
