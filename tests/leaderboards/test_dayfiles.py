"""A closed deal's day file (issue 19, E): every ranked game with the server's stamps, its
result and rank, the deal's code, salt and commitment, at a public URL once the deal has
closed, and re-checked clean by the engine's own ``verify-day``."""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from ftsite.rates import Rate
from games import services as game_services
from games.engine import format_code, parse_variant
from games.engine.cli import main as engine_cli
from games.engine.dayfile import verify_day
from games.models import Deal, User
from games.services import deals as deal_services
from leaderboards.fairplay.services import result_review_decide
from leaderboards.models import Result, ReviewDecision
from tests.support.games import game_resign, play_all

pytestmark = pytest.mark.django_db

Capture = Callable[..., object]


def players(n: int) -> list[User]:
    model = get_user_model()
    return [model.objects.create_user(username=f"p{k}", password="x" * 12) for k in range(n)]


@pytest.fixture
def closed_day(
    settings,
    now: datetime,
    make_daily_deal: Callable[..., Deal],
    classic_win: tuple[int, list[str]],
    django_capture_on_commit_callbacks: Capture,
) -> Deal:
    """Today's daily deal (a known winning line) played by five people through the
    services, then closed: a win, two resigns after a few draws, a stuck-free give-up, and a
    game the close itself resigned (the server's action, stamped with the close)."""
    settings.FT_FORESIGHT_SECONDS = 0  # the win is the solver's own line: not the point here
    deal = make_daily_deal(now.date(), revealed=False)
    # The factory suffixes codes to keep them unique; a real deal's code is the bare one
    # its commitment was made to.
    Deal.objects.filter(pk=deal.pk).update(code=format_code(parse_variant(deal.variant), deal.seed))
    winner, quick, slow, idle, left_open = players(5)
    with django_capture_on_commit_callbacks(execute=True):
        game = game_services.game_start_daily(user=winner, now=now)
        play_all(winner, game, classic_win[1])
        for user, draws in ((quick, 2), (slow, 6), (idle, 0)):
            game = game_services.game_start_daily(user=user, now=now)
            play_all(user, game, ["s"] * draws)
            game_resign(user=user, game_id=game.pk)
        game = game_services.game_start_daily(user=left_open, now=now)
        play_all(left_open, game, ["s", "s", "s"])
        deal_services.deal_close_daily(day=now.date(), now=now + timedelta(days=1))
    deal.refresh_from_db()
    return deal


def url(deal: Deal) -> str:
    return reverse("leaderboards:daily_games", args=[deal.day.isoformat()])


def fetch(client: Client, deal: Deal, **headers: str) -> dict:
    response = client.get(url(deal), headers=headers)
    assert response.status_code == 200, response.content
    return json.loads(response.content)


def test_a_closed_days_file_holds_every_ranked_game_and_verifies_clean(
    client: Client, closed_day: Deal
) -> None:
    data = fetch(client, closed_day)
    assert (data["format"], data["version"], data["kind"]) == ("forty-thieves-day", 1, "daily")
    assert (data["code"], data["salt"], data["commitment"]) == (
        closed_day.code,
        closed_day.salt,
        closed_day.commitment,
    )
    assert [g["rank"] for g in data["games"]] == [1, 2, 3, 4, 5]
    assert data["games"][0]["status"] == "won" and data["games"][0]["won"]
    server = [g for g in data["games"] if g["actions"][-1][-1] == "server"]
    assert len(server) == 1 and server[0]["finished_at"] == data["closes_at"]
    # Every result on the board, in the board's order.
    board = Result.objects.filter(deal=closed_day).order_by("-sort_key", "finished_at", "id")
    assert [g["result"] for g in data["games"]] == [r.pk for r in board]


def test_the_engine_alone_verifies_the_downloaded_file(
    client: Client, closed_day: Deal, tmp_path: Path
) -> None:
    response = client.get(url(closed_day), headers={"Accept-Encoding": "gzip"})
    assert response["Content-Encoding"] == "gzip"
    path = tmp_path / "games.json.gz"
    path.write_bytes(response.content)
    out = io.StringIO()
    assert engine_cli(["verify-day", str(path)], out=out) == 0, out.getvalue()
    assert out.getvalue().startswith("ok: daily ")


def test_a_tampered_export_is_caught(client: Client, closed_day: Deal) -> None:
    data = fetch(client, closed_day)
    action = data["games"][0]["actions"][5]
    action[0] = "t1-t2" if action[0] == "s" else "s"
    report = verify_day(data)
    assert not report.clean
    assert any(p.startswith("game 1 (result ") for p in report.problems), report.problems


def test_the_file_is_a_404_while_the_day_is_open(
    client: Client, now: datetime, make_daily_deal: Callable[..., Deal]
) -> None:
    deal = make_daily_deal(now.date(), revealed=False)
    response = client.get(url(deal))
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert "once its deal has closed" in response.json()["reason"]
    future = reverse("leaderboards:daily_games", args=[(now + timedelta(days=2)).date()])
    assert client.get(future).status_code == 404
    assert client.get("/boards/daily/not-a-day/games.json").status_code == 404


def test_a_held_result_appears_only_once_decided(
    client: Client, closed_day: Deal, django_capture_on_commit_callbacks: Capture
) -> None:
    staff = get_user_model().objects.create_user(username="staff", password="x" * 12)
    held = Result.objects.filter(deal=closed_day, won=True).get()
    with django_capture_on_commit_callbacks(execute=True):
        Result.objects.filter(pk=held.pk).update(review=Result.Review.HELD)
        ReviewDecision.objects.create(result=held, decision="held", why="test")
    data = fetch(client, closed_day)
    assert held.pk not in [g["result"] for g in data["games"]]
    assert [g["rank"] for g in data["games"]] == [1, 2, 3, 4]
    assert verify_day(data).problems == []
    with django_capture_on_commit_callbacks(execute=True):
        result_review_decide(result_id=held.pk, decision="disqualified", by=staff, why="test")
    data = fetch(client, closed_day)
    last = data["games"][-1]
    assert (last["result"], last["rank"], last["review"]) == (held.pk, None, "disqualified")
    assert verify_day(data).problems == []


def test_it_is_cached_by_etag_and_for_a_few_minutes(client: Client, closed_day: Deal) -> None:
    first = client.get(url(closed_day))
    assert first["Cache-Control"] == "public, max-age=300"
    assert "Accept-Encoding" in first["Vary"]
    again = client.get(url(closed_day), headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304 and again.content == b""
    assert json.loads(
        gzip.decompress(
            client.get(url(closed_day), headers={"Accept-Encoding": "gzip, br"}).content
        )
    ) == json.loads(first.content)


def test_downloads_are_throttled_per_address(settings, client: Client, closed_day: Deal) -> None:
    settings.FT_RATE_DAY_FILES = Rate.parse("2/h")
    assert client.get(url(closed_day)).status_code == 200
    assert client.get(url(closed_day)).status_code == 200
    refused = client.get(url(closed_day))
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert refused.json()["code"] == "rate_limited"


def test_the_closed_boards_page_links_its_file(client: Client, closed_day: Deal) -> None:
    page = client.get(reverse("leaderboards:daily", args=[closed_day.day.isoformat()]))
    assert f'href="{url(closed_day)}"'.encode() in page.content


def test_an_open_boards_page_has_no_file_link(
    client: Client, now: datetime, make_daily_deal: Callable[..., Deal]
) -> None:
    deal = make_daily_deal(now.date(), revealed=False)
    page = client.get(reverse("leaderboards:daily", args=[deal.day.isoformat()]))
    assert b'data-testid="day-file-link"' not in page.content


def test_a_closed_weekly_challenge_has_its_file(
    client: Client,
    make_weekly_deal: Callable[..., Deal],
    django_capture_on_commit_callbacks: Capture,
) -> None:
    from datetime import date

    from games.weekly import week_label

    monday = date(2026, 11, 23)
    deal = make_weekly_deal(monday, "josephine", 7, revealed=True)
    page = reverse("leaderboards:weekly_games", args=[week_label(monday)])
    data = json.loads(client.get(page).content)
    assert (data["kind"], data["day"], data["games"]) == ("weekly", monday.isoformat(), [])
    assert data["commitment"] == deal.commitment


def test_a_big_days_file_is_built_in_the_background_and_the_last_one_served_meanwhile(
    settings,
    client: Client,
    closed_day: Deal,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    from leaderboards import dayfiles, tasks

    monkeypatch.setattr(dayfiles, "INLINE_GAMES", 2)
    queued: list[int] = []
    monkeypatch.setattr(tasks.build_day_file, "delay", queued.append)
    pending = client.get(url(closed_day))
    assert pending.status_code == 503 and int(pending["Retry-After"]) > 0
    assert pending.json()["code"] == "day_file_pending"
    client.get(url(closed_day))
    assert queued == [closed_day.pk]  # queued once, however many ask meanwhile
    assert tasks.build_day_file(closed_day.pk) is True
    first = fetch(client, closed_day)
    assert len(first["games"]) == 5
    # A decision changes what the file depends on: until the new build, the last one is served.
    staff = get_user_model().objects.create_user(username="staff", password="x" * 12)
    loser = Result.objects.filter(deal=closed_day, won=False).first()
    with django_capture_on_commit_callbacks(execute=True):
        result_review_decide(result_id=loser.pk, decision="disqualified", by=staff, why="test")
    assert fetch(client, closed_day) == first
    assert queued == [closed_day.pk, closed_day.pk]
    tasks.build_day_file(closed_day.pk)
    again = fetch(client, closed_day)
    assert again["games"][-1]["review"] == "disqualified"


def test_the_sweep_builds_the_files_of_lately_closed_deals(closed_day: Deal) -> None:
    from django.core.cache import cache

    from leaderboards import dayfiles, tasks

    cache.clear()
    assert dayfiles.day_files_due() == [closed_day.pk]
    assert tasks.sweep()["day_files"] == 1  # eager in tests: built at once
    assert dayfiles.day_files_due() == []
    assert tasks.build_day_file(closed_day.pk) is False  # nothing changed: not built again


def test_each_ranked_game_carries_its_players_rating_once_the_deal_is_rated(
    client: Client, closed_day: Deal, tmp_path: Path
) -> None:
    from leaderboards.rating.models import RatingHistory
    from leaderboards.rating.services import ratings_apply

    before = fetch(client, closed_day)
    assert [g["rating"] for g in before["games"]] == [None] * 5  # not rated yet

    assert ratings_apply() == 1
    data = fetch(client, closed_day)  # the rating made a new file, not the cached one
    after = {
        h.user.public_name: h
        for h in RatingHistory.objects.filter(deal=closed_day).select_related("user")
    }
    ratings = [g["rating"] for g in data["games"]]
    assert all(r is not None for r in ratings)
    for game in data["games"]:
        row = after[game["player"]]
        assert game["rating"]["mu"] == pytest.approx(row.mu)
        assert game["rating"]["sigma"] == pytest.approx(row.sigma)
    # The winner gained, the last lost: the values follow the ranks.
    assert ratings[0]["value"] > ratings[-1]["value"]
    # The engine's checker reads the file with the new field as before.
    assert verify_day(data).problems == []
    path = tmp_path / "games.json"
    path.write_text(json.dumps(data))
    out = io.StringIO()
    assert engine_cli(["verify-day", str(path)], out=out) == 0, out.getvalue()
