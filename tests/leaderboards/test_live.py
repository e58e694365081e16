"""The live daily board socket, through the real ASGI stack (origin check, session auth).

As in ``tests/games/socket/test_consumer_*.py``: no pytest-asyncio; each async test runs under
:func:`asgiref.sync.async_to_sync`, and the database is used through real transactions, so
``result_rank``'s on-commit broadcast runs exactly as it does in production.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date, timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from ftsite.asgi import application
from games.daily import utc_today
from games.models import User
from leaderboards import broadcast
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


async def open_board(day: str, user: User | None = None) -> WebsocketCommunicator:
    headers = list(ORIGIN)
    if user is not None:
        headers.append((b"cookie", await db(cookie_of)(user)))
    ws = WebsocketCommunicator(application, f"/ws/boards/daily/{day}/", headers=headers)
    connected, _ = await ws.connect()
    assert connected  # a refusal too is accepted first, then closed with a code
    return ws


@run_async
async def test_ranking_a_result_tells_every_viewer_of_that_day(user, make_result) -> None:
    day = today().isoformat()
    anonymous = await open_board(day)
    signed_in = await open_board(day, user)
    # Verified and not yet on its board: what result_rank takes.
    result = await db(make_result)(day=today(), won=True, score=1000, moves=300)

    # The real path: result_rank's transaction commits, then its on_commit broadcasts.
    assert await db(result_rank)(result_id=result.pk) is True

    expected = {"type": "board", "result_id": result.pk}
    assert json.loads(await anonymous.receive_from()) == expected
    assert json.loads(await signed_in.receive_from()) == expected
    # Ranking again is a no-op, so nothing more is said.
    assert await db(result_rank)(result_id=result.pk) is False
    assert await anonymous.receive_nothing(timeout=0.05)
    await anonymous.disconnect()
    await signed_in.disconnect()


@run_async
async def test_a_viewer_hears_only_about_their_own_day(make_result) -> None:
    yesterday = today() - timedelta(days=1)
    ws = await open_board(today().isoformat())
    other = await open_board(yesterday.isoformat())
    result = await db(make_result)(day=yesterday, won=True, score=1000, moves=300)
    await db(broadcast.board_changed)(result)
    assert json.loads(await other.receive_from())["result_id"] == result.pk
    assert await ws.receive_nothing(timeout=0.05)
    await ws.disconnect()
    await other.disconnect()


@pytest.mark.parametrize("day", ["2026-02-30", "today", "20261129", "2026-11-29x", "future"])
@run_async
async def test_a_bad_or_future_date_closes_with_4404(day: str) -> None:
    if day == "future":
        day = (today() + timedelta(days=1)).isoformat()
    ws = await open_board(day)
    output = await ws.receive_output()
    assert (output["type"], output["code"]) == ("websocket.close", 4404)
    await ws.disconnect()


@run_async
async def test_a_ping_is_answered_and_anything_else_ignored() -> None:
    ws = await open_board(today().isoformat())
    await ws.send_to(text_data="{")
    await ws.send_to(bytes_data=b"\x00\xff")
    await ws.send_to(text_data='{"type": "move", "move": "s"}' + " " * 5000)
    assert await ws.receive_nothing(timeout=0.05)
    await ws.send_to(text_data='{"type": "ping"}')
    assert json.loads(await ws.receive_from()) == {"type": "pong"}
    await ws.disconnect()


@run_async
async def test_a_foreign_origin_is_refused() -> None:
    ws = WebsocketCommunicator(
        application,
        f"/ws/boards/daily/{today().isoformat()}/",
        headers=[(b"origin", b"https://evil.example"), (b"host", b"127.0.0.1")],
    )
    connected, _ = await ws.connect()
    assert not connected
