"""The live league board socket, through the real ASGI stack (origin check, session auth):
members hear when a member's result is ranked; anyone else is closed with 4404."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from ftsite.asgi import application
from games.daily import utc_today
from games.models import User
from leaderboards.fairplay.services import result_review_decide
from leaderboards.services import result_rank
from tests.support.sockets import ORIGIN, cookie_of, run_async

pytestmark = pytest.mark.django_db(transaction=True)

db = database_sync_to_async


@pytest.fixture(autouse=True)
def _empty_channel_layer() -> Iterator[None]:
    yield
    async_to_sync(get_channel_layer().flush)()


def today() -> date:
    return utc_today(timezone.now())


async def open_league_board(
    league_id: int, user: User | None, day: str = ""
) -> WebsocketCommunicator:
    headers = list(ORIGIN)
    if user is not None:
        headers.append((b"cookie", await db(cookie_of)(user)))
    path = f"/ws/leagues/{league_id}/daily/{day or today().isoformat()}/"
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await ws.connect()
    assert connected  # a refusal too is accepted first, then closed with a code
    return ws


@run_async
async def test_a_members_ranked_result_tells_the_leagues_other_members(
    user, bob, carol, make_league, make_result
) -> None:
    league, _ = await db(make_league)(user, bob)
    other, _ = await db(make_league)(carol, name="Elsewhere")
    ada = await open_league_board(league.pk, user)
    elsewhere = await open_league_board(other.pk, carol)
    result = await db(make_result)(bob, day=today(), won=True, score=1000, moves=300)

    assert await db(result_rank)(result_id=result.pk) is True
    assert json.loads(await ada.receive_from(timeout=5)) == {
        "type": "board",
        "result_id": result.pk,
    }
    assert await elsewhere.receive_nothing(timeout=0.05)

    # Disqualified on review, it leaves the board: the league's page is told again.
    await db(result_review_decide)(result_id=result.pk, decision="disqualified", by=carol, why="t")
    assert json.loads(await ada.receive_from(timeout=5))["result_id"] == result.pk
    await ada.disconnect()
    await elsewhere.disconnect()


@run_async
async def test_a_member_joining_nudges_the_league_board(user, bob, make_league) -> None:
    from leaderboards.leagues.services import league_join

    league, token = await db(make_league)(user)
    ada = await open_league_board(league.pk, user)
    await db(league_join)(user=bob, token=token)
    assert json.loads(await ada.receive_from(timeout=5)) == {"type": "board", "result_id": None}
    await ada.disconnect()


@run_async
async def test_the_socket_is_in_its_group_before_the_page_hears_it_open(user, make_league) -> None:
    """A join between "open" and the subscription would be missed until the next change
    (seen once in CI as a lost nudge): the consumer subscribes first, then accepts."""
    from leaderboards.leagues.broadcast import league_group

    league, _ = await db(make_league)(user)
    ws = await open_league_board(league.pk, user)
    group = league_group(league.pk, today().isoformat())
    assert get_channel_layer().groups.get(group), "accepted before joining its group"
    await ws.disconnect()


@pytest.mark.parametrize("who", ["non-member", "visitor", "no-such-league", "bad-day"])
@run_async
async def test_anyone_but_a_member_is_closed_with_4404(user, carol, make_league, who) -> None:
    league, _ = await db(make_league)(user)
    league_id, viewer, day = league.pk, carol, ""
    if who == "visitor":
        viewer = None
    elif who == "no-such-league":
        league_id += 999
    elif who == "bad-day":
        viewer, day = user, "2026-02-30"
    ws = await open_league_board(league_id, viewer, day)
    output = await ws.receive_output()
    assert (output["type"], output["code"]) == ("websocket.close", 4404)
    await ws.disconnect()


@run_async
async def test_a_ping_is_answered(user, make_league) -> None:
    league, _ = await db(make_league)(user)
    ws = await open_league_board(league.pk, user)
    await ws.send_to(text_data='{"type": "ping"}')
    assert json.loads(await ws.receive_from()) == {"type": "pong"}
    await ws.disconnect()
