""" "One way to win this deal": a certified daily deal's winning line, secret until the day
closes, then replayable in the replay viewer and linked from the daily board and the game."""

from __future__ import annotations

import json
import re
from datetime import date, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.daily import day_end, utc_today
from games.engine import GameState
from games.models import Deal, User
from tests.support.games import game_resign

pytestmark = pytest.mark.django_db

FAST = "indian"  # won by the solver within a few thousand nodes


@pytest.fixture
def certify(settings) -> None:
    settings.FT_DAILY_CERTIFY_SECONDS = 5
    settings.FT_DAILY_CERTIFY_NODES = 0  # the clock's certification: indian is won at once
    settings.FT_DAILY_MAX_CANDIDATES = 10


def solution_url(deal: Deal) -> str:
    return reverse("leaderboards:deal_solution", args=[deal.pk])


def close(day: date) -> None:
    services.deal_close_daily(day=day, now=day_end(day) + timedelta(seconds=1))


def secrets_of(deal: Deal) -> list[str]:
    moves = deal.solution.split()
    assert len(moves) >= 8
    return [deal.solution, " ".join(moves[:8]), json.dumps(moves[:8])[1:-1], deal.code]


def today_with_a_line(day: date) -> Deal:
    """Today's forty-thieves deal, given a (distinctive) stored line as if certified."""
    deal = services.deal_open_daily(day=day)
    line = "s t3-f1 w-t5 s s t10-f2 t4-t9 w-f7 s t1-t2 t6-f3 w-t8"
    Deal.objects.filter(pk=deal.pk).update(
        solution=line, solver_verdict="win", solver_nodes=4321, difficulty=2
    )
    deal.refresh_from_db()
    return deal


def test_the_solution_replays_in_the_viewer_only_after_the_day_closes(
    certify, client: Client
) -> None:
    day = date(2026, 12, 3)
    deal = services.deal_open_daily(day=day, variant=FAST)
    assert deal.solver_verdict == "win" and deal.solution
    assert client.get(solution_url(deal)).status_code == 404
    close(day)
    response = client.get(solution_url(deal))
    assert response.status_code == 200
    html = response.content.decode()
    frames = json.loads(re.search(r'id="replay-data"[^>]*>(.*?)</script>', html, re.S).group(1))
    moves = deal.solution.split()
    assert [step["action"] for step in frames["steps"]] == moves
    assert frames["deal"]["won"] is True and frames["deal"]["code"] == deal.code
    # The frames are player views: applying every change ends on a won board.
    engine = GameState.from_seed(deal.seed, FAST, undo_limit=0)
    assert frames["initial"] == engine.view()
    engine.replay(moves)
    assert frames["steps"][-1]["score"] == engine.score
    assert "One way to win this deal" in html


def test_a_practice_deal_or_an_unknown_deal_has_no_solution_page(client: Client) -> None:
    deal = services.deal_for_code(code="FT1-N-0000007")
    Deal.objects.filter(pk=deal.pk).update(solution="s", solver_verdict="win")
    assert client.get(solution_url(deal)).status_code == 404
    assert client.get("/deals/999999/solution/").status_code == 404


def test_the_line_stays_secret_until_the_day_closes(client: Client, user: User) -> None:
    now = timezone.now()
    deal = today_with_a_line(utc_today(now))
    game = services.game_start_daily(user=user)
    game_resign(user=user, game_id=game.pk)
    client.force_login(user)
    pages = [
        client.get(reverse("home")),
        client.get(reverse("leaderboards:daily_today")),
        client.get(reverse("game", args=[game.pk])),
        client.get("/api/v1/daily"),
        client.get(f"/api/v1/games/{game.pk}"),
        client.get("/api/v1/games"),
        Client().get(reverse("home")),
    ]
    for response in pages:
        text = response.content.decode()
        for secret in secrets_of(deal):
            assert secret not in text, (response.request["PATH_INFO"], secret)
        assert solution_url(deal) not in text
    assert client.get(solution_url(deal)).status_code == 404
    assert client.get(f"/api/v1/games/{game.pk}").json()["deal"]["has_solution"] is False


def test_after_close_the_board_and_the_finished_game_link_the_solution(
    client: Client, user: User
) -> None:
    day = utc_today(timezone.now())
    deal = today_with_a_line(day)
    game = services.game_start_daily(user=user)
    game_resign(user=user, game_id=game.pk)
    Deal.objects.filter(pk=deal.pk).update(revealed_at=timezone.now())
    client.force_login(user)
    board = client.get(reverse("leaderboards:daily", args=[day.isoformat()])).content.decode()
    assert solution_url(deal) in board and "One way to win this deal" in board
    assert "★★☆☆☆" in board
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert solution_url(deal) in page
    assert client.get(f"/api/v1/games/{game.pk}").json()["deal"]["has_solution"] is True
    # The stored line itself still never goes in a payload.
    assert deal.solution not in client.get(f"/api/v1/games/{game.pk}").content.decode()


def test_the_admin_keeps_an_open_daily_deals_line_secret(admin_client: Client) -> None:
    deal = today_with_a_line(utc_today(timezone.now()))
    page = admin_client.get(reverse("admin:games_deal_change", args=[deal.pk])).content.decode()
    assert deal.solution not in page and "4321" in page
    close(deal.day)
    page = admin_client.get(reverse("admin:games_deal_change", args=[deal.pk])).content.decode()
    assert deal.solution in page
