"""A ranked result's story for the result dialog (leaderboards.story): the place so far, the
spread of the board's results, the streak, what next; only for the player, and at a fixed
number of queries however many played."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.errors import Forbidden, NotFound
from games.models import Deal, Game, User
from games.weekly import week_label, week_monday
from leaderboards import services
from leaderboards.models import Result
from leaderboards.share import VerificationPending
from leaderboards.story import result_story

pytestmark = pytest.mark.django_db

D = timedelta(days=1)
MakeResult = Callable[..., Result]


def noon(day: date) -> datetime:
    return datetime.combine(day, time(12), tzinfo=UTC)


def ranked(results: list[Result]) -> None:
    """What the verifier does for each (a Redis board is filled here; the database's is
    the rows themselves)."""
    for result in results:
        services.result_rank(result_id=result.pk)


def others(make_result: MakeResult, day: date, scores: list[tuple[int, bool]]) -> list[Result]:
    return [make_result(day=day, score=score, won=won) for score, won in scores]


def test_the_story_tells_the_place_so_far_the_spread_and_the_streak(
    board_kind: str, user: User, make_result: MakeResult, board_day: date
) -> None:
    # Two won days before: a streak of 2, which today's loss ends.
    make_result(user, board_day - 2 * D, won=True, score=1300)
    make_result(user, board_day - D, won=True, score=1310)
    mine = make_result(user, board_day, outcome="resigned", score=455)
    scores = [(1310, True), (1200, True), (720, False), (455, False), (35, False)]
    field = others(make_result, board_day, scores)
    ranked([mine, *field])
    story = result_story(
        user=user, game_id=mine.game_id, site_url="https://ft.example", now=noon(board_day)
    )
    # Two wins and the 720 are better; the other 455 ties with ada's (ties share a rank).
    assert (story["rank"], story["size"], story["review"]) == (4, 6, None)
    assert story["open"] is True and story["kind"] == "daily" and story["week"] is None
    assert story["spread"] == [
        [1310, True, 1],
        [1200, True, 1],
        [720, False, 1],
        [455, False, 2],
        [35, False, 1],
    ]
    assert story["players"] == 6
    assert (story["won"], story["outcome"], story["score"]) == (False, "resigned", 455)
    assert story["time"] == "1:00"  # the verified 60,000 ms
    assert story["streak"] == {"current": 0, "best": 2}
    assert story["text"].startswith(f"Forty Thieves {board_day.isoformat()} — resigned")
    assert story["text"].endswith(f"https://ft.example/boards/daily/{board_day.isoformat()}/")
    assert story["links"] == {
        "board": f"/boards/daily/{board_day.isoformat()}/",
        "replay": f"/games/{mine.game_id}/replay/",
    }
    assert story["next_deal_at"] == mine.deal.closes_at.isoformat()
    assert story["server_now"] == noon(board_day).isoformat()
    # The deal is secret while the day is open: practice offers its variant, not it.
    assert story["practice"] == {
        "deal": False,
        "method": "post",
        "url": reverse("practice"),
        "fields": {"action": "random", "variant": "forty-thieves"},
        "variant": "Forty Thieves",
    }
    assert story["next_ranked"] is None  # no weekly challenge that week


def test_a_win_extends_the_streak_and_a_closed_day_is_final_and_practised_again(
    user: User, make_result: MakeResult, board_day: date
) -> None:
    make_result(user, board_day - 3 * D, won=True)  # a gap: a run of its own
    make_result(user, board_day - D, won=True)
    mine = make_result(user, board_day, won=True, score=1300, revealed=True)
    after_close = mine.deal.closes_at + timedelta(hours=1)
    story = result_story(user=user, game_id=mine.game_id, now=after_close)
    assert story["open"] is False
    assert (story["rank"], story["size"]) == (1, 1)
    # The day after, today's game not played yet: yesterday's streak is still alive.
    assert story["streak"] == {"current": 2, "best": 2}
    assert story["practice"] == {
        "deal": True,
        "method": "post",
        "url": reverse("play_archive", args=[board_day.isoformat()]),
        "fields": {},
    }


def test_a_held_result_is_explained_and_has_no_place_nor_a_bar(
    user: User, make_result: MakeResult, board_day: date
) -> None:
    mine = make_result(user, board_day, won=True, score=1400, review=Result.Review.HELD)
    others(make_result, board_day, [(1300, True), (200, False)])
    story = result_story(user=user, game_id=mine.game_id, now=noon(board_day))
    assert story["rank"] is None and story["size"] is None
    assert story["review"]["state"] == "held" and story["review"]["why"]
    # Off the board, so out of the spread too (nobody else sees it there).
    assert story["spread"] == [[1300, True, 1], [200, False, 1]] and story["players"] == 2


def test_only_the_player_gets_the_story_of_a_finished_verified_ranked_result(
    user: User, bob: User, make_result: MakeResult, board_day: date
) -> None:
    mine = make_result(user, board_day, won=True)
    with pytest.raises(Forbidden):
        result_story(user=bob, game_id=mine.game_id)
    pending = make_result(user, board_day + D, won=True, status=Result.Status.PENDING)
    with pytest.raises(VerificationPending):
        result_story(user=user, game_id=pending.game_id)
    rejected = make_result(user, board_day - D, won=True, status=Result.Status.REJECTED)
    with pytest.raises(NotFound, match="rejected"):
        result_story(user=user, game_id=rejected.game_id)
    practice = make_result(user, None, won=True)
    with pytest.raises(NotFound, match="ranked"):
        result_story(user=user, game_id=practice.game_id)
    Game.objects.filter(pk=mine.game_id).update(status=Game.Status.ACTIVE)
    with pytest.raises(NotFound, match="not finished"):
        result_story(user=user, game_id=mine.game_id)


def test_a_weekly_result_has_the_weeks_board_and_leads_to_todays_deal(
    user: User, make_result: MakeResult, make_weekly_deal: Callable[..., Deal], now: datetime
) -> None:
    from games.services import deal_open_daily

    monday = week_monday(now.date())
    deal = make_weekly_deal(monday, "josephine", 2)
    mine = make_result(user, deal=deal, won=True, score=1200)
    deal_open_daily(day=now.date())  # today's daily deal, not played by ada yet
    story = result_story(user=user, game_id=mine.game_id, now=now)
    assert story["kind"] == "weekly" and story["week"] == week_label(monday)
    assert story["text"] is None and story["streak"] is None  # the daily's, not the week's
    assert story["links"]["board"] == reverse("leaderboards:weekly", args=[week_label(monday)])
    assert (story["rank"], story["size"], story["players"]) == (1, 1, 1)
    assert story["next_ranked"] == {"kind": "daily", "url": reverse("home")}
    # Once today's deal is played, there is no other ranked game to offer.
    make_result(user, now.date(), won=False)
    assert result_story(user=user, game_id=mine.game_id, now=now)["next_ranked"] is None


def test_a_daily_result_leads_to_the_weekly_until_it_is_played_or_closed(
    user: User, make_result: MakeResult, make_weekly_deal: Callable[..., Deal], now: datetime
) -> None:
    monday = week_monday(now.date())
    weekly = make_weekly_deal(monday, "josephine", 2)
    mine = make_result(user, now.date(), won=True)
    story = result_story(user=user, game_id=mine.game_id, now=now)
    assert story["next_ranked"] == {"kind": "weekly", "url": reverse("leaderboards:weekly_current")}
    after_the_week = weekly.closes_at + timedelta(minutes=1)
    assert result_story(user=user, game_id=mine.game_id, now=after_the_week)["next_ranked"] is None
    Game.objects.create(player=user, deal=weekly, mode=Game.Mode.RANKED)
    assert result_story(user=user, game_id=mine.game_id, now=now)["next_ranked"] is None


def _queries(user: User, result: Result, day: date) -> tuple[int, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        result_story(user=user, game_id=result.game_id, now=noon(day))
    return len(queries), [q["sql"] for q in queries.captured_queries]


def test_the_story_costs_the_same_few_queries_however_many_played(
    user: User, make_result: MakeResult, board_day: date
) -> None:
    model = get_user_model()
    small_day, large_day = board_day, board_day + D
    for day in (small_day - D, small_day - 2 * D):  # a streak to count
        make_result(user, day, won=True)
    small = make_result(user, small_day, won=True, score=1200)
    others(make_result, small_day, [(900, False), (1300, True)])
    rival = model.objects.create(username="rival")
    large = make_result(rival, large_day, won=True, score=1200)
    for day in (large_day - 3 * D, large_day - 4 * D, large_day - 5 * D):
        make_result(rival, day, won=True)
    others(make_result, large_day, [(5 * n, n % 3 == 0) for n in range(60)])
    few, few_sql = _queries(user, small, small_day)
    many, many_sql = _queries(rival, large, large_day)
    assert few == many, "\n".join(many_sql)
    # The funnel, the result, the rank and the size, the spread, the streak, what next.
    assert many <= 8, "\n".join(many_sql)


def test_the_story_view_answers_json_for_the_player_and_refuses_others(
    client: Client, user: User, bob: User, make_result: MakeResult, board_day: date
) -> None:
    mine = make_result(user, board_day, won=True, score=1300)
    url = reverse("leaderboards:story", args=[mine.game_id])
    assert url == f"/games/{mine.game_id}/story/"
    assert client.get(url).status_code == 401
    client.force_login(bob)
    answer = client.get(url)
    assert answer.status_code == 403 and answer.json()["code"] == "forbidden"
    client.force_login(user)
    answer = client.get(url)
    assert answer.status_code == 200 and answer["Cache-Control"].startswith("max-age=0")
    data: dict[str, Any] = answer.json()
    assert data["rank"] == 1 and data["spread"] == [[1300, True, 1]]
    assert data["text"].endswith(f"http://testserver/boards/daily/{board_day.isoformat()}/")
    pending = make_result(user, board_day + D, won=True, status=Result.Status.PENDING)
    answer = client.get(reverse("leaderboards:story", args=[pending.game_id]))
    assert answer.status_code == 409 and answer.json()["code"] == "verification_pending"
