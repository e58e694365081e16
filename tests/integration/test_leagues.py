"""Leagues against two real daphne servers, a real Celery worker, PostgreSQL and Redis:
members of one league see its board change live when another member's result is
verified (each listening through a different server), and a non-member gets 404 on every
league page and 4404 on the league's socket."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
import requests
from django.db import connection
from django.utils import timezone
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from games.daily import utc_today
from games.models import User
from leaderboards.models import Result

from .test_live_play import session_cookie
from .test_worker import ranked_daily_game, verified_and_ranked, wait_for_result

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]


def board_path(league_id: int) -> str:
    return f"/ws/leagues/{league_id}/daily/{utc_today(timezone.now()).isoformat()}/"


async def in_thread(function: Any, *args: Any) -> Any:
    """``function(*args)`` on a worker thread, which closes its database connection after
    (a thread's connection left open would keep the test database from being dropped)."""

    def run() -> Any:
        try:
            return function(*args)
        finally:
            connection.close()

    return await asyncio.to_thread(run)


async def next_board_message(ws: Any, result_id: int, timeout: float = 45) -> dict[str, Any]:
    """The first nudge naming ``result_id`` (joins say ``None``; skip those)."""
    async with asyncio.timeout(timeout):
        while True:
            message = json.loads(await ws.recv())
            if message.get("result_id") == result_id:
                return message


def test_league_members_see_each_others_verified_results_arrive_live(
    servers, workers, user: User, bob: User, make_league
) -> None:
    first, second = servers
    workers()
    league, _ = make_league(user, bob)
    ada, bobs = session_cookie(user), session_cookie(bob)

    async def scenario() -> tuple[int, int]:
        async with (
            connect(f"{first.ws}{board_path(league.pk)}", origin=first.http,
                    additional_headers={"Cookie": ada}, open_timeout=10) as ada_ws,
            connect(f"{second.ws}{board_path(league.pk)}", origin=second.http,
                    additional_headers={"Cookie": bobs}, open_timeout=10) as bob_ws,
        ):  # fmt: skip
            # Let both subscriptions settle before anything is verified.
            await ada_ws.send('{"type": "ping"}')
            await bob_ws.send('{"type": "ping"}')
            assert json.loads(await ada_ws.recv()) == {"type": "pong"}
            assert json.loads(await bob_ws.recv()) == {"type": "pong"}
            # Bob finishes on this process; the worker verifies and ranks it; ada hears.
            bob_game = await in_thread(ranked_daily_game, bob)
            bob_result = await in_thread(wait_for_result, bob_game, verified_and_ranked)
            await next_board_message(ada_ws, bob_result.pk)
            ada_game = await in_thread(ranked_daily_game, user)
            ada_result = await in_thread(wait_for_result, ada_game, verified_and_ranked)
            await next_board_message(bob_ws, ada_result.pk)
            return bob_result.pk, ada_result.pk

    asyncio.run(scenario())
    # What the live page then fetches: the league's rows, with both members.
    day = utc_today(timezone.now()).isoformat()
    rows = requests.get(
        f"{first.http}/leagues/{league.pk}/daily/{day}/rows/",
        headers={"Cookie": ada},
        timeout=10,
    )
    assert rows.status_code == 200
    assert "bob" in rows.text and "ada" in rows.text
    assert Result.objects.filter(ranked_at__isnull=False).count() == 2


def test_a_non_member_gets_404_on_every_league_page_and_4404_on_its_socket(
    servers, user: User, bob: User, carol: User, make_league
) -> None:
    first, second = servers
    league, token = make_league(user, bob)
    day = utc_today(timezone.now()).isoformat()
    session = requests.Session()
    session.headers["Cookie"] = session_cookie(carol)
    # A real CSRF token, so the POSTs below reach the views (and are refused there).
    index = session.get(f"{first.http}/leagues/", timeout=10)
    assert index.status_code == 200
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', index.text).group(1)
    cookie = f"{session.headers['Cookie']}; csrftoken={index.cookies['csrftoken']}"
    session.headers.update({"Cookie": cookie, "X-CSRFToken": csrf, "Referer": first.http})
    base = f"{first.http}/leagues/{league.pk}"
    pages = ["/", "/daily/", f"/daily/{day}/", f"/daily/{day}/rows/", "/week/", "/month/",
             "/all/", "/compare/?a=ada&b=bob"]  # fmt: skip
    for page in pages:
        response = session.get(base + page, timeout=10)
        assert response.status_code == 404, page
        # Nothing about the league (the page's own URL is echoed by the language picker).
        assert league.name not in response.text and "Members" not in response.text, page
    for action in ("/leave/", f"/members/{bob.pk}/remove/", "/invite/", "/delete/"):
        assert session.post(base + action, timeout=10).status_code == 404, action

    async def close_code(server: Any, cookie: str) -> int | None:
        async with connect(
            f"{server.ws}{board_path(league.pk)}",
            origin=server.http,
            additional_headers={"Cookie": cookie},
            open_timeout=10,
        ) as ws:
            try:
                await asyncio.wait_for(ws.recv(), timeout=15)
            except ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None
        return None

    carol_cookie = session_cookie(carol)

    async def both() -> list[int | None]:
        return list(
            await asyncio.gather(
                close_code(first, carol_cookie), close_code(second, carol_cookie),
                close_code(first, ""),
            )
        )  # fmt: skip

    assert asyncio.run(both()) == [4404, 4404, 4404]
    assert "invalid close code" not in first.log.read_text()


def test_joins_at_once_never_take_a_league_past_its_members_limit(
    settings, user: User, make_league
) -> None:
    """PostgreSQL, real concurrent transactions: the league's row lock makes the count and
    the insert one step, so of eight players joining at once exactly the places left win."""
    from concurrent.futures import ThreadPoolExecutor

    from django.contrib.auth import get_user_model

    from leaderboards.leagues.errors import LeagueFull
    from leaderboards.leagues.models import Membership
    from leaderboards.leagues.services import league_join

    settings.FT_LEAGUE_MEMBERS = 4
    league, token = make_league(user)
    players = [get_user_model().objects.create(username=f"joiner{n}") for n in range(8)]

    def join(player: User) -> str:
        try:
            league_join(user=player, token=token)
            return "joined"
        except LeagueFull:
            return "full"
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=8) as pool:
        outcomes = list(pool.map(join, players))
    assert sorted(outcomes) == ["full"] * 5 + ["joined"] * 3
    assert Membership.objects.filter(league=league).count() == 4
