"""Issue 10's two attacks, end to end on the real stack: two daphne processes, a Celery
worker on the urgent queue and one on the fair-play queue, PostgreSQL and Redis.

1. The close is final: a player who sent the server's old close-of-day message id keeps no
   open game past the close, and a move after it is refused with ``day_closed``.
2. Scouting: bob turns the whole stock of today's deal and resigns; ada, on bob's browser,
   plays a winning line at a machine's pace. Her result is verified but held (linked and
   machine), off the Redis board (so is bob's, played as fast), and the public board says
   how many results are under review.
"""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import requests
from django.utils import timezone

from games import services
from games.models import Deal, Game, User
from leaderboards.boards import board_for
from leaderboards.models import FairPlayCheck, Result, ScoutingPattern
from tests.support.waiting import wait_for

from .test_live_play import receive, session_cookie, socket

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
]

CLASSIC_WIN = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "classic_win.json").read_text()
)


async def answer_to(ws: Any, frame: dict[str, Any]) -> dict[str, Any]:
    """Send ``frame`` and return its answer (accepted or refused), as the page does: a
    ``rate_limited`` refusal (the socket's pace) is sent again after its ``retry_after``."""
    while True:
        await ws.send(json.dumps(frame))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout=15))
            if message["type"] in ("accepted", "refused"):
                break
        if message.get("code") != "rate_limited":
            return message
        await asyncio.sleep(message["retry_after"])


async def send_all(
    ws: Any, moves: list[str], prefix: str, pause: float = 0.0
) -> list[dict[str, Any]]:
    """Send each move and wait for its answer (accepted or refused), as a fast client;
    ``pause`` seconds between moves keep a script under the per-user message limit."""
    answers = []
    for n, move in enumerate(moves):
        await asyncio.sleep(pause)
        answers.append(await answer_to(ws, {"type": "move", "id": f"{prefix}{n}", "move": move}))
    return answers


def test_the_close_is_final_over_the_real_stack(servers, workers, user: User) -> None:
    first, second = servers
    workers()
    game = services.game_start_daily(user=user)
    cookie = session_cookie(user)

    async def before_close() -> list[dict[str, Any]]:
        async with socket(first, game.pk, cookie) as ws:
            await receive(ws, "hello")
            await ws.send(json.dumps({"type": "move", "id": "system:day-closed", "move": "s"}))
            return [await receive(ws, "accepted")]

    assert asyncio.run(before_close())[0]["version"] == 1
    # The beat's close, a day later: it resigns the game on the server's own behalf.
    services.deal_close_daily(day=game.deal.day, now=timezone.now() + timedelta(days=1))
    game.refresh_from_db()
    assert game.status == Game.Status.RESIGNED

    async def after_close() -> list[dict[str, Any]]:
        async with socket(second, game.pk, cookie) as ws:
            await receive(ws, "hello")
            return await send_all(ws, ["s", "s"], "late")

    answers = asyncio.run(after_close())
    assert [a["code"] for a in answers] == ["day_closed", "day_closed"], answers
    result = wait_for(lambda: Result.objects.filter(game=game, status="verified").first())
    assert result.outcome == "resigned" and result.moves == 1


def browser_cookies(server: Any, user: User) -> dict[str, str]:
    """A browser's cookies on the real server: its device cookie, signed in as ``user``."""
    response = requests.get(f"{server.http}/rules/", timeout=10)
    return {"ft_device": response.cookies["ft_device"], "sessionid": session_cookie(user)[10:]}


def visit(server: Any, cookies: dict[str, str]) -> None:
    response = requests.get(f"{server.http}/", cookies=cookies, timeout=10)
    assert response.status_code == 200


def test_a_scouted_win_is_held_end_to_end(unpaced_servers, workers, user: User, bob: User) -> None:
    first, second = unpaced_servers  # played at a script's pace, past the sockets' limits
    workers()
    workers(queue="fairplay", FT_FORESIGHT_SECONDS="5")
    deal = services.deal_open_daily(day=timezone.now().date())
    Deal.objects.filter(pk=deal.pk).update(seed_hex=CLASSIC_WIN["seed"])
    # One browser, two accounts: bob signs in first, ada a minute later on the same machine.
    bobs = browser_cookies(first, bob)
    visit(first, bobs)
    adas = {**bobs, "sessionid": session_cookie(user)[10:]}
    visit(second, adas)
    scout = services.game_start_daily(user=bob)
    ranked = services.game_start_daily(user=user)

    async def scene() -> tuple[list[dict], list[dict]]:
        cookie_b = f"sessionid={bobs['sessionid']}; ft_device={bobs['ft_device']}"
        async with socket(first, scout.pk, cookie_b) as ws:
            await receive(ws, "hello")
            scouting = await send_all(ws, ["s"] * 64, "b")
            assert (await answer_to(ws, {"type": "resign", "id": "b-resign"}))["type"] == "accepted"
        cookie_a = f"sessionid={adas['sessionid']}; ft_device={adas['ft_device']}"
        moves, line = CLASSIC_WIN["moves"].split(), []
        # A fresh socket every 90 moves, as a script might; the pace is a machine's.
        for start in range(0, len(moves), 90):
            async with socket(second, ranked.pk, cookie_a) as ws:
                await receive(ws, "hello")
                line += await send_all(ws, moves[start : start + 90], f"a{start}-")
        return scouting, line

    scouting, line = asyncio.run(scene())
    assert all(a["type"] == "accepted" for a in scouting + line)
    assert line[-1]["status"] == "won"
    result = wait_for(lambda: Result.objects.filter(game=ranked, status="verified").first())
    assert result.review == "held" and result.won
    check = FairPlayCheck.objects.get(result=result)
    # the verification's own reasons come first; the foresight worker may have added its
    # own already (a race with this read: below, once it has run)
    assert check.reasons[:2] == ["linked", "machine"], check.reasons
    assert check.linked[0]["username"] == "bob" and check.linked[0]["turned"] == 64
    assert ScoutingPattern.objects.filter(player=bob).exists()
    assert board_for(deal.day, deal.variant).rank(result) is None
    # bob's 64 draws came at a script's pace too: his resign is held as machine play.
    scouted = Result.objects.get(game=scout)
    assert FairPlayCheck.objects.get(result=scouted).reasons == ["machine"]
    # Held results are private until decided (issue 19): the public board says nothing of
    # them; staff see how many there are.
    page = requests.get(f"{first.http}/boards/daily/{deal.day}/", timeout=10).text
    assert "under fair-play review" not in page and "under-review-count" not in page
    staff = User.objects.create_user(username="referee", is_staff=True)
    page = requests.get(
        f"{first.http}/boards/daily/{deal.day}/",
        headers={"Cookie": session_cookie(staff)},
        timeout=10,
    ).text
    assert "2 results are under fair-play review" in page, page[page.find("Top 100") :][:600]
    # The foresight analysis ran on its own worker and is kept with the evidence.
    analysed = wait_for(lambda: FairPlayCheck.objects.get(result=result).foresight, timeout=90)
    assert analysed["method"] and analysed["decisions"] >= 0
    # ada's line is this site's solver's winning line (tests/data/classic_win.json), which
    # the solver finds again within its first budget: the copy check holds it too
    check = FairPlayCheck.objects.get(result=result)
    assert check.reasons == ["linked", "machine", "solver_copy"], check.reasons
    assert check.solver_copy["share"] == 1.0 and check.solver_copy["suspicious"]
