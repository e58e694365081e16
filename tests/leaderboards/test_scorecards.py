"""Scorecards: numbers over verified results only, calendar, history pages, replay links."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import User
from leaderboards.models import Result
from leaderboards.scorecards import scorecard

pytestmark = pytest.mark.django_db

D = timedelta(days=1)
_clock = itertools.count(1)


MakeResult = Callable[..., Result]


@pytest.fixture
def make_result(make_result: MakeResult) -> MakeResult:
    """The shared factory (conftest) with this module's defaults: a 500-point game, its day
    revealed, finished at noon of its day (a practice one: of 2026-06-01), in creation order
    within a day so that "newest first" is well defined."""

    def make(player: User, day: date | None, **fields: Any) -> Result:
        noon = datetime.combine(day or date(2026, 6, 1), time(12), tzinfo=UTC)
        at = noon + timedelta(seconds=next(_clock))
        defaults = {"score": 500, "moves": 200, "duration_ms": 600_000, "revealed": True}
        return make_result(player, day, finished_at=at, **{**defaults, **fields})

    return make


# Numbers ------------------------------------------------------------------------------------


def test_counts_are_over_verified_ranked_daily_results_only(
    user: User, now: datetime, make_result: MakeResult
) -> None:
    today = now.date()
    make_result(user, today - 10 * D, won=True, score=1200)
    make_result(user, today - 9 * D, won=True, score=1000)
    make_result(user, today - 8 * D, outcome="lost", score=300)
    make_result(user, today - 7 * D, outcome="resigned", score=100)
    make_result(user, today - 6 * D, won=True, score=1360, status=Result.Status.PENDING)
    make_result(user, today - 5 * D, won=True, score=1350, status=Result.Status.REJECTED)
    make_result(user, None, won=True, score=1340)  # practice: history only
    stats = scorecard(username="ada", now=now)["stats"]
    assert stats == {
        "played": 4,
        "won": 2,
        "lost": 2,
        "win_percent": 50,
        "average_score": 650,
        "best_score": 1200,
        "current_streak": 0,
        "best_streak": 2,
    }


def test_a_player_without_games_has_empty_numbers(user: User, now: datetime) -> None:
    card = scorecard(username="ada", now=now)
    assert card["stats"]["played"] == 0 and card["stats"]["win_percent"] is None
    assert card["stats"]["average_score"] is None and card["history"]["items"] == []


def test_streaks_count_consecutive_verified_daily_wins(
    user: User, now: datetime, make_result: MakeResult
) -> None:
    today = now.date()
    for back in (12, 11, 10):  # best: three in a row
        make_result(user, today - back * D, won=True)
    make_result(user, today - 9 * D, outcome="lost")
    make_result(user, today - 2 * D, won=True)
    make_result(user, today - 1 * D, won=True)
    # Today's win is still pending: it does not count, yesterday's streak is alive.
    make_result(user, today, won=True, status=Result.Status.PENDING)
    stats = scorecard(username="ada", now=now)["stats"]
    assert (stats["current_streak"], stats["best_streak"]) == (2, 3)


def test_a_rejected_win_is_a_missed_day(user: User, now: datetime, make_result: MakeResult) -> None:
    today = now.date()
    make_result(user, today - 2 * D, won=True)
    make_result(user, today - 1 * D, won=True, status=Result.Status.REJECTED)
    make_result(user, today, won=True)
    stats = scorecard(username="ada", now=now)["stats"]
    assert (stats["current_streak"], stats["best_streak"]) == (1, 1)


def test_other_players_results_do_not_count(
    user: User, bob: User, now: datetime, make_result: MakeResult
) -> None:
    make_result(bob, now.date(), won=True)
    assert scorecard(username="ada", now=now)["stats"]["played"] == 0
    assert scorecard(username="bob", now=now)["stats"]["played"] == 1


# Calendar -----------------------------------------------------------------------------------


def test_the_calendar_covers_twelve_weeks_ending_this_week(
    user: User, make_result: MakeResult
) -> None:
    now = datetime(2026, 11, 29, 12, tzinfo=UTC)
    today = now.date()  # a Sunday
    make_result(user, today, won=True)
    make_result(user, today - 3 * D, outcome="resigned")
    make_result(user, today - 4 * D, won=True, status=Result.Status.PENDING)
    make_result(user, today - 90 * D, won=True)  # older than the grid
    rows = scorecard(username="ada", now=now)["calendar"]
    assert len(rows) == 7 and all(len(row) == 12 for row in rows)
    assert [row[0]["day"].weekday() for row in rows] == list(range(7))
    cells = {cell["day"]: cell for row in rows for cell in row}
    assert min(cells) == today - 83 * D and max(cells) == today
    assert cells[today]["state"] == "won" and cells[today]["title"] == "2026-11-29: won"
    assert cells[today - 3 * D]["state"] == "lost"
    assert cells[today - 4 * D]["state"] == "none"  # pending does not count
    assert cells[today - 4 * D]["title"] == "2026-11-25: not played"
    assert {c["state"] for c in cells.values()} == {"won", "lost", "none"}


def test_days_after_today_are_blank_in_the_calendar(user: User) -> None:
    wednesday = datetime(2026, 11, 25, 12, tzinfo=UTC)
    rows = scorecard(username="ada", now=wednesday)["calendar"]
    last_week = [row[-1] for row in rows]
    assert [c["state"] for c in last_week] == ["none"] * 3 + ["future"] * 4


# History ------------------------------------------------------------------------------------


def test_the_history_pages_through_verified_games_newest_first(
    user: User, now: datetime, make_result: MakeResult
) -> None:
    made = [
        make_result(user, now.date() - k * D, outcome="won" if k % 2 == 0 else "lost")
        for k in range(30)
    ]
    made += [make_result(user, None, won=True) for _ in range(15)]  # practice, newest-ish
    make_result(user, now.date() - 40 * D, outcome="lost", status=Result.Status.PENDING)
    make_result(user, now.date() - 41 * D, outcome="lost", status=Result.Status.REJECTED)
    expected = [str(r.game_id) for r in sorted(made, key=lambda r: r.finished_at, reverse=True)]
    pages = [scorecard(username="ada", now=now, page=p)["history"] for p in (1, 2, 3)]
    assert [p["count"] for p in pages] == [45] * 3 and pages[0]["pages"] == 3
    assert [len(p["items"]) for p in pages] == [20, 20, 5]
    assert [i["game_id"] for p in pages for i in p["items"]] == expected
    assert {i["ranked"] for i in pages[2]["items"]} == {False}  # practice games listed too
    assert scorecard(username="ada", now=now, page="junk")["history"]["page"] == 1
    assert scorecard(username="ada", now=now, page=99)["history"]["page"] == 3


def test_the_history_page_links_and_the_pager(
    user: User, client: Client, now: datetime, make_result: MakeResult
) -> None:
    for k in range(25):
        make_result(user, now.date() - k * D, outcome="lost")
    html = client.get(reverse("leaderboards:scorecard", args=["ada"])).content.decode()
    assert html.count('class="sc-game"') == 20 and 'rel="next"' in html
    html = client.get(reverse("leaderboards:scorecard", args=["ada"]) + "?page=2").content.decode()
    assert html.count('class="sc-game"') == 5 and 'rel="prev"' in html and 'rel="next"' not in html


def test_the_history_says_resigned_for_a_resignation_and_lost_for_a_dead_end(
    user: User, client: Client, now: datetime, make_result: MakeResult
) -> None:
    make_result(user, now.date() - D, outcome="resigned")
    make_result(user, now.date() - 2 * D, outcome="lost")
    make_result(user, now.date() - 3 * D, outcome="won")
    html = client.get(reverse("leaderboards:scorecard", args=["ada"])).content.decode()
    badges = re.findall(r'data-testid="outcome-(\w+)">([^<]*)<', html)
    assert badges == [("resigned", "resigned"), ("lost", "lost"), ("won", "won")]
    # Both count as lost days in the numbers and the streak.
    assert scorecard(username="ada", now=now)["stats"]["lost"] == 2


def test_a_daily_games_replay_link_comes_only_after_its_day_closes(
    user: User, client: Client, now: datetime, make_result: MakeResult
) -> None:
    open_day = make_result(user, now.date(), won=True, revealed=False)
    closed_day = make_result(user, now.date() - D, won=True, revealed=True)
    practice = make_result(user, None, won=True)
    items = {i["game_id"]: i for i in scorecard(username="ada", now=now)["history"]["items"]}
    assert items[str(open_day.game_id)]["replay_url"] is None
    assert items[str(closed_day.game_id)]["replay_url"] == f"/games/{closed_day.game_id}/replay/"
    assert items[str(practice.game_id)]["replay_url"] == f"/games/{practice.game_id}/replay/"
    html = client.get(reverse("leaderboards:scorecard", args=["ada"])).content.decode()
    assert f"/games/{closed_day.game_id}/replay/" in html
    assert f"/games/{practice.game_id}/replay/" in html
    assert f"/games/{open_day.game_id}/replay/" not in html
    assert "Replay after the day closes" in html
    # The deal of a day still open is never named, on the owner's page or anyone's.
    assert open_day.deal.code not in html
    # Its owner replays it at once (the result dialog offers it too), worded as theirs.
    client.force_login(user)
    html = client.get(reverse("leaderboards:scorecard", args=["ada"])).content.decode()
    assert f'<a href="/games/{open_day.game_id}/replay/">Replay your game</a>' in html
    assert "Replay after the day closes" not in html
    assert open_day.deal.code not in html


def test_a_weekly_games_replay_waits_for_its_week_not_a_day(
    user: User, client: Client, now: datetime, make_result: MakeResult, make_weekly_deal
) -> None:
    from games.weekly import week_monday, weekly_variant

    monday = week_monday(now.date())
    deal = make_weekly_deal(monday, weekly_variant(monday), 3)  # this week: still open
    weekly = make_result(user, monday, deal=deal, won=True, revealed=False)
    items = {i["game_id"]: i for i in scorecard(username="ada", now=now)["history"]["items"]}
    assert items[str(weekly.game_id)]["kind"] == "weekly"
    assert items[str(weekly.game_id)]["replay_url"] is None
    html = client.get(reverse("leaderboards:scorecard", args=["ada"])).content.decode()
    assert "Replay after the week closes" in html and "after the day closes" not in html


# The page -----------------------------------------------------------------------------------


def test_an_unknown_player_is_not_found(db: None, client: Client) -> None:
    response = client.get(reverse("leaderboards:scorecard", args=["nobody"]))
    assert response.status_code == 404


def test_a_deactivated_player_is_not_found(user: User, client: Client) -> None:
    User.objects.filter(pk=user.pk).update(is_active=False)
    assert client.get(reverse("leaderboards:scorecard", args=["ada"])).status_code == 404


def test_the_scorecard_is_public_with_numbers_calendar_and_charts(
    user: User, client: Client, make_result: MakeResult
) -> None:
    today = datetime.now(UTC).date()
    make_result(user, today - D, won=True, score=1185)
    make_result(user, today - 2 * D, outcome="lost", score=400)
    response = client.get("/players/ada/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "ada&#x27;s scorecard" in html or "ada's scorecard" in html
    assert 'class="sc-calendar"' in html and f'title="{(today - D).isoformat()}: won"' in html
    assert html.count('role="img"') >= 2 and "Score distribution" in html
    for svg in _svgs(html):
        ET.fromstring(svg)  # each chart is well-formed on its own
    assert "1185 pts" in html and "Copy" not in html  # no share text for visitors


def _svgs(html: str) -> list[str]:
    parts = html.split("<svg")[1:]
    return ["<svg" + part.split("</svg>")[0] + "</svg>" for part in parts]


def test_the_owner_sees_share_text_with_a_copy_button(
    user: User, bob: User, client: Client, make_result: MakeResult
) -> None:
    today = datetime.now(UTC).date()
    make_result(user, today, won=True, score=1185, moves=312, revealed=False)
    make_result(user, None, won=True)  # practice: nothing to share
    client.force_login(bob)
    html = client.get("/players/ada/").content.decode()
    assert "sc-share" not in html and "js/replay.js" not in html
    client.force_login(user)
    response = client.get("/players/ada/")
    html = response.content.decode()
    assert html.count('class="sc-share"') == 1 and "data-copy=" in html and "js/replay.js" in html
    assert f"Forty Thieves {today.isoformat()} — won ✅ 1185 pts · 312 moves · 10:00" in html
    assert f"http://testserver/boards/daily/{today.isoformat()}/" in html
    assert response["Cache-Control"] == "private"


def test_the_navigation_links_a_signed_in_player_to_their_scorecard(
    user: User, client: Client
) -> None:
    assert "/players/ada/" not in client.get(reverse("home")).content.decode()
    client.force_login(user)
    html = client.get(reverse("home")).content.decode()
    assert 'href="/players/ada/">Scorecard</a>' in html
    html = client.get("/players/ada/").content.decode()
    assert 'href="/players/ada/" aria-current="page">Scorecard</a>' in html


def test_the_page_takes_a_bounded_number_of_queries(
    user: User, client: Client, django_assert_max_num_queries, make_result: MakeResult
) -> None:
    for k in range(25):
        make_result(user, datetime.now(UTC).date() - k * D, won=True)
    client.force_login(user)
    # 18: the skill rating and its chart are one more query (the last history rows), the
    # duels' record one more (a player with duels pays for the rating and the list too),
    # the finished arenas one more (one query however many).
    with django_assert_max_num_queries(18):
        assert client.get("/players/ada/").status_code == 200
