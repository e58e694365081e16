"""The post-game analysis on the replay page: the JSON the page polls, the POST that asks,
its refusals, and the page around the board."""

from __future__ import annotations

import json
import re
from datetime import datetime
from unittest import mock

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from ftsite.rates import Rate
from games import services
from games.engine import GameState
from games.models import Deal, Game, GameAnalysis, User
from games.services import analysis as analysis_service
from leaderboards.replays.frames import analysis_frames
from tests.support.games import LOST, Capture, apply_changes, play

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def analysis_budget(settings) -> None:
    settings.FT_ANALYSIS_SECONDS = 20.0
    settings.FT_RATE_ANALYSES = Rate.parse("100/h")


@pytest.fixture
def lost(user: User, django_capture_on_commit_callbacks: Capture) -> Game:
    game = services.game_start_practice(user=user, code=LOST["code"])
    return play(user, game, LOST["moves"].split(), django_capture_on_commit_callbacks)


def url(game: Game) -> str:
    return reverse("leaderboards:analysis", args=[game.pk])


JSON = {"HTTP_ACCEPT": "application/json"}


def test_the_page_asks_then_reads_the_result_with_the_winning_line_as_steps(
    user: User, lost: Game, client: Client, django_capture_on_commit_callbacks: Capture
) -> None:
    client.force_login(user)
    assert client.get(url(lost), **JSON).json() == {"status": "none"}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url(lost), **JSON)
        # The task is queued at the commit (here: the end of this block).
        assert response.status_code == 200 and response.json()["status"] == "queued"
    assert response["Cache-Control"].startswith("max-age=0")
    data = client.get(url(lost), **JSON).json()
    assert data["status"] == "done"
    result = data["result"]
    seq = LOST["losing_seq"]
    assert result["losing"]["seq"] == seq and result["win_step"] == seq - 1
    assert result["losing"]["words"].endswith("from column 4 to column 9")
    # The line's steps, applied to the position before the losing move, end in a win.
    engine = GameState.from_seed(lost.deal.seed, lost.deal.variant, undo_limit=100)
    engine.replay(LOST["moves"].split()[: seq - 1])
    view = engine.view()
    assert [s["action"] for s in result["line_steps"]] == result["line"]
    for step in result["line_steps"]:
        view = apply_changes(view, step["changes"])
    assert view["won"] is True
    # Anyone who may see the replay reads it, signed in or not.
    client.logout()
    assert client.get(url(lost), **JSON).json() == data


def test_a_refusal_is_json_with_its_code_and_a_retry_hint(
    user: User, bob: User, lost: Game, client: Client, settings
) -> None:
    response = Client().post(url(lost), **JSON)
    assert response.status_code == 401 and response.json()["code"] == "not_authenticated"
    settings.FT_RATE_ANALYSES = Rate.parse("1/h")
    client.force_login(bob)
    with mock.patch.object(analysis_service, "_enqueue"):
        client.post(url(lost), **JSON)
        GameAnalysis.objects.filter(game=lost).update(status="failed")
        response = client.post(url(lost), **JSON)
    assert response.status_code == 429 and response.json()["code"] == "rate_limited"
    assert int(response["Retry-After"]) == response.json()["retry_after"] > 0


def test_without_javascript_the_form_goes_back_to_the_replay(
    user: User, lost: Game, client: Client
) -> None:
    client.force_login(user)
    with mock.patch.object(analysis_service, "_enqueue"):
        response = client.post(url(lost))
    assert response.status_code == 302
    assert response["Location"] == reverse("leaderboards:replay", args=[lost.pk]) + "#analysis"


def test_the_replay_page_draws_the_board_and_offers_the_analysis(
    user: User, lost: Game, client: Client
) -> None:
    client.force_login(user)
    html = client.get(reverse("leaderboards:replay", args=[lost.pk])).content.decode()
    # The board's own table, empty: the script draws the cards.
    assert 'class="ft-board is-watching replay__board"' in html
    assert html.count('data-pile="t') == 10 and 'data-pile="stock"' in html
    assert "css/board.css" in html and "Game details" not in html
    for control in ("play", "first", "back", "forward", "last"):
        assert f'data-go="{control}"' in html
    assert "data-replay-speed" in html and 'href="#move=0"' in html
    assert 'data-status="none"' in html and "Analyse this game" in html
    data = re.search(r'<script id="analysis-data" type="application/json">(.*?)</script>', html)
    assert data is not None and json.loads(data.group(1)) == {"status": "none"}


def test_a_won_game_and_an_open_daily_game_say_why_there_is_no_analysis(
    user: User, now: datetime, client: Client, django_capture_on_commit_callbacks: Capture
) -> None:
    client.force_login(user)
    game = services.game_start_daily(user=user, now=now)
    game = play(user, game, ["s", "resign"], django_capture_on_commit_callbacks)
    assert analysis_frames(user=user, game_id=game.pk) == {"status": "locked"}
    html = client.get(reverse("leaderboards:replay", args=[game.pk])).content.decode()
    assert 'data-status="locked"' in html and "Analyse this game" not in html
    Deal.objects.filter(pk=game.deal_id).update(revealed_at=game.deal.closes_at)
    assert analysis_frames(user=AnonymousUser(), game_id=game.pk) == {"status": "none"}
    Game.objects.filter(pk=game.pk).update(status=Game.Status.WON)
    assert analysis_frames(user=user, game_id=game.pk) == {"status": "won"}


def test_progress_is_read_from_the_row(user: User, lost: Game) -> None:
    GameAnalysis.objects.create(game=lost, status="running", done=3, total=8)
    assert analysis_frames(user=user, game_id=lost.pk) == {
        "status": "running",
        "done": 3,
        "total": 8,
        "reason": "",
    }
