"""Issue 19 (C and E) on the real stack: two daphne processes, a Celery worker, PostgreSQL
and Redis.

- A game row's ``first_action_at`` shortened in the database while the game is played does
  not shorten the verified time: the worker reads the log's stamps.
- After the close, the day file is served by the real server (404 before), a held result
  joins it once cleared, and the engine's ``verify-day``, run as its own process without
  Django settings, checks it clean; the server's close-of-day resign in it is stamped with
  the close.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import requests
from django.utils import timezone

from games import services
from games.engine import format_code, parse_variant
from games.engine.deal import commitment
from games.models import Deal, Game, User
from leaderboards.fairplay.services import result_review_decide
from leaderboards.models import Result
from tests.support.waiting import wait_for

from .conftest import ROOT
from .test_fair_play import CLASSIC_WIN, send_all
from .test_live_play import receive, session_cookie, socket

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
]


def play(
    server: Any, game: Game, user: User, moves: list[str], prefix: str, pause: float = 0.0
) -> list[dict]:
    """``moves`` over sockets of ``server``, ``pause`` seconds before each."""
    cookie = session_cookie(user)

    async def scene() -> list[dict]:
        answers: list[dict] = []
        # A fresh socket every 90 moves, as a page reloaded now and then.
        for start in range(0, len(moves), 90):
            async with socket(server, game.pk, cookie) as ws:
                await receive(ws, "hello")
                chunk = moves[start : start + 90]
                answers += await send_all(ws, chunk, f"{prefix}{start}-", pause)
        return answers

    return asyncio.run(scene())


def known_win(deal: Deal) -> None:
    """Give ``deal`` a seed with a known winning line; its code and commitment follow the
    seed, as the open would have made them (the file is checked against exactly these)."""
    code = format_code(parse_variant(deal.variant), int(CLASSIC_WIN["seed"], 16))
    Deal.objects.filter(pk=deal.pk).update(
        seed_hex=CLASSIC_WIN["seed"], code=code, commitment=commitment(code, deal.salt)
    )


def verified(deal: Deal, count: int) -> list[Result]:
    """The deal's results once ``count`` of them are verified, oldest first."""
    mine = Result.objects.filter(deal=deal, status="verified").order_by("id")
    return wait_for(lambda: list(mine) if mine.count() == count else None)


def verify_day(path: Path) -> subprocess.CompletedProcess[str]:
    """``python -m games.engine verify-day`` on ``path`` as its own process, with no
    Django settings in its environment (the command is the engine's alone)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "DATABASE"))}
    return subprocess.run(
        [sys.executable, "-m", "games.engine", "verify-day", str(path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_closed_days_file_is_served_and_verifies_clean(
    unpaced_servers, workers, user: User, bob: User, tmp_path: Path
) -> None:
    first, second = unpaced_servers  # the sockets' limits are not this test's subject
    workers(FT_PACE_CHECK="false", FT_FORESIGHT_SECONDS="0")
    deal = services.deal_open_daily(day=timezone.now().date())
    known_win(deal)
    url = f"/boards/daily/{deal.day.isoformat()}/games.json"
    assert requests.get(f"{first.http}{url}", timeout=10).status_code == 404

    won = services.game_start_daily(user=user)
    moves = CLASSIC_WIN["moves"].split()
    answers = play(first, won, user, moves[:10], "a", pause=0.14)
    time.sleep(1.0)
    # The attack of issue 19: the game row claims the game started just now.
    Game.objects.filter(pk=won.pk).update(first_action_at=timezone.now())
    answers += play(second, won, user, moves[10:], "b")
    assert answers[-1]["status"] == "won"
    # Bob plays on ada's browser (one device cookie for both): a device link, which holds
    # (a shared network alone would not, issue 19 part B).
    for player in (user, bob):
        services.sighting_record(
            user_id=player.pk, device_token="d" * 32, address="127.0.0.1", user_agent="tests"
        )
    left_open = services.game_start_daily(user=bob)
    assert play(first, left_open, bob, ["s", "s"], "c")[-1]["type"] == "accepted"

    services.deal_close_daily(day=deal.day, now=timezone.now() + timedelta(days=1))
    results = verified(deal, 2)
    win = next(r for r in results if r.won)
    stamps = list(won.actions.order_by("seq").values_list("created_at", flat=True))
    assert win.duration_ms == (stamps[-1] - stamps[0]) // timedelta(milliseconds=1)
    assert win.duration_ms >= 1000 + 10 * 140  # the ten moves and the pause before the edit

    # Bob shares ada's browser, and ada turned the stock: his result is held, so the file
    # leaves it out until a reviewer decides.
    resigned = next(r for r in results if not r.won)
    assert resigned.review == "held"
    assert [
        g["player"] for g in requests.get(f"{first.http}{url}", timeout=30).json()["games"]
    ] == ["ada"]
    staff = User.objects.create_user(username="reviewer", password="x" * 12, is_staff=True)
    result_review_decide(result_id=resigned.pk, decision="cleared", by=staff, why="a neighbour")
    response = requests.get(f"{second.http}{url}", timeout=30)
    assert response.status_code == 200, response.text
    data = response.json()
    assert [(g["player"], g["rank"]) for g in data["games"]] == [("ada", 1), ("bob", 2)]
    deal.refresh_from_db()
    assert data["games"][1]["actions"][-1] == [
        "resign",
        (deal.closes_at - datetime.fromisoformat(data["games"][1]["started_at"]))
        // timedelta(milliseconds=1),
        "server",
    ]
    path = tmp_path / "games.json"
    path.write_bytes(response.content)
    checked = verify_day(path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith("ok: daily ")
    # A tampered copy is caught by the same command.
    data["games"][0]["time_ms"] = 1000
    path.write_text(json.dumps(data))
    tampered = verify_day(path)
    assert tampered.returncode == 1
    assert (
        "disagrees: game 1 (result" in tampered.stdout and "the time is 1000 ms" in tampered.stdout
    )
