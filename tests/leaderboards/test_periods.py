"""Week, month and all-time boards: daily wins, win rate (with a minimum) and best streaks."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.daily import day_start, utc_today
from games.models import Game, User
from games.services import deal_open_daily
from leaderboards.models import Result
from leaderboards.selectors import (
    MIN_GAMES_FOR_RATE,
    PlayerStats,
    period_board,
    period_board_size,
    period_of,
)
from leaderboards.standings.services import result_standings_refresh

pytestmark = pytest.mark.django_db


def play(player: User, day: date, *, won: bool = True, **more: object) -> Result:
    """One daily result of ``player`` on ``day`` (verified and ranked unless told)."""
    deal = deal_open_daily(day=day)
    mode = more.pop("mode", Game.Mode.RANKED)
    outcome = Game.Status.WON if won else Game.Status.LOST
    game = Game.objects.create(player=player, deal=deal, mode=mode, status=outcome)
    fields: dict[str, object] = {
        "game": game,
        "player": player,
        "deal": deal,
        "day": day,
        "variant": deal.variant,
        "ranked": mode == Game.Mode.RANKED,
        "status": Result.Status.VERIFIED,
        "outcome": outcome,
        "won": won,
        "score": 1000 if won else 300,
        "moves": 200,
        "duration_ms": 60_000,
        "finished_at": day_start(day) + timedelta(hours=2),
    }
    fields.update(more)
    result = Result.objects.create(**fields)
    if result.on_board:  # as the placement would
        result_standings_refresh(result=result)
    return result


def player(name: str) -> User:
    model: type[User] = get_user_model()  # type: ignore[assignment]
    return model.objects.create_user(username=name)


def days(first: date, count: int) -> list[date]:
    return [first + timedelta(days=i) for i in range(count)]


def row_of(rows: list[PlayerStats], name: str) -> PlayerStats:
    return next(r for r in rows if r.player_name == name)


# Wins and win rate --------------------------------------------------------------------------


def test_wins_are_counted_and_a_rate_needs_the_minimum_of_games() -> None:
    assert MIN_GAMES_FOR_RATE == 5
    steady, lucky, idle = player("steady"), player("lucky"), player("idle")
    for i, day in enumerate(days(date(2026, 10, 1), 5)):
        play(steady, day, won=i < 3)  # 3 wins of 5: 60 %
    for day in days(date(2026, 10, 10), 4):
        play(lucky, day)  # 4 wins of 4, but too few games for a rate
    play(idle, date(2026, 10, 20), won=False)

    by_wins = period_board(kind="month", start=date(2026, 10, 31), by="wins").rows
    assert [(r.player_name, r.wins, r.games) for r in by_wins] == [
        ("lucky", 4, 4),
        ("steady", 3, 5),
        ("idle", 0, 1),
    ]
    assert row_of(by_wins, "steady").rate == pytest.approx(0.6)
    assert row_of(by_wins, "lucky").rate is None

    by_rate = period_board(kind="month", start=date(2026, 10, 1), by="rate").rows
    # The only player with a rate comes first; the rest follow, by wins.
    assert [r.player_name for r in by_rate] == ["steady", "lucky", "idle"]
    assert [r.rank for r in by_rate] == [1, 2, 3]


def test_only_verified_ranked_results_of_the_period_count() -> None:
    ada = player("ada")
    play(ada, date(2026, 10, 1))
    play(ada, date(2026, 10, 2), status=Result.Status.REJECTED)
    play(ada, date(2026, 10, 3), status=Result.Status.PENDING)
    play(ada, date(2026, 10, 4), mode=Game.Mode.PRACTICE)
    play(ada, date(2026, 10, 5), review=Result.Review.HELD)  # under fair-play review
    play(ada, date(2026, 10, 6), review=Result.Review.DISQUALIFIED)
    play(ada, date(2026, 10, 7), review=Result.Review.CLEARED)
    play(ada, date(2026, 9, 30))  # the month before
    play(ada, date(2026, 11, 1))  # the month after
    (row,) = period_board(kind="month", start=date(2026, 10, 15), by="wins").rows
    assert (row.wins, row.games, row.best_streak) == (2, 2, 1)


def test_equal_players_share_a_rank() -> None:
    for name in ("b", "a", "c"):
        play(player(name), date(2026, 10, 5), won=name != "c")
    rows = period_board(kind="week", start=date(2026, 10, 5), by="wins").rows
    assert [(r.rank, r.player_name) for r in rows] == [(1, "a"), (1, "b"), (3, "c")]


def test_a_tie_across_the_page_end_is_cut_by_name() -> None:
    # Only the shown rows and those tied with the last one are named (issue 37): a tie
    # across the limit still keeps the names that sort first, and counts every player.
    for name in ("d", "B", "a", "c", "e"):
        play(player(name), date(2026, 10, 5), won=name not in ("a", "e"))
    board = period_board(kind="week", start=date(2026, 10, 5), by="wins", limit=2)
    assert [(r.rank, r.player_name) for r in board.rows] == [(1, "B"), (1, "c")]
    assert period_board_size(kind="week", start=date(2026, 10, 5)) == 5


# Streaks ---------------------------------------------------------------------------------------


def test_a_streak_runs_across_a_month_boundary() -> None:
    ada = player("ada")
    for day in days(date(2026, 1, 30), 4):  # 30, 31 January, 1, 2 February
        play(ada, day)
    (row,) = period_board(kind="all", start=None, by="streak").rows
    assert row.best_streak == 4
    # Within a month board only the days of that month count.
    (february,) = period_board(kind="month", start=date(2026, 2, 1), by="streak").rows
    assert february.best_streak == 2


def test_a_streak_runs_across_a_year_boundary() -> None:
    ada = player("ada")
    for day in days(date(2025, 12, 30), 4):  # 30, 31 December, 1, 2 January
        play(ada, day)
    # ISO week 1 of 2026 starts on Monday 29 December 2025: the whole run is in it.
    week = period_board(kind="week", start=date(2026, 1, 1), by="streak")
    assert week.period.start == date(2025, 12, 29)
    assert week.rows[0].best_streak == 4
    assert period_board(kind="all", start=None, by="streak").rows[0].best_streak == 4


def test_a_missed_day_breaks_a_streak() -> None:
    ada = player("ada")
    for day in [date(2026, 3, 1), date(2026, 3, 2), *days(date(2026, 3, 4), 3)]:
        play(ada, day)
    assert period_board(kind="month", start=date(2026, 3, 1), by="streak").rows[0].best_streak == 3


def test_a_loss_breaks_a_streak() -> None:
    ada, bob = player("ada"), player("bob")
    for i, day in enumerate(days(date(2026, 3, 1), 5)):
        play(ada, day, won=i != 2)  # won, won, lost, won, won
    for day in days(date(2026, 3, 1), 3):
        play(bob, day)
    rows = period_board(kind="month", start=date(2026, 3, 1), by="streak").rows
    assert [(r.player_name, r.best_streak, r.wins) for r in rows] == [("bob", 3, 3), ("ada", 2, 4)]


# Periods and pages --------------------------------------------------------------------------


def test_periods_are_iso_weeks_and_calendar_months() -> None:
    week = period_of(kind="week", day=date(2026, 11, 29))  # a Sunday
    assert (week.start, week.end) == (date(2026, 11, 23), date(2026, 11, 30))
    month = period_of(kind="month", day=date(2025, 12, 31))
    assert (month.start, month.end) == (date(2025, 12, 1), date(2026, 1, 1))
    assert month.previous() == period_of(kind="month", day=date(2025, 11, 5))
    assert period_of(kind="all", day=date(2026, 1, 1)).previous() is None


def test_the_period_pages_render_and_sort_server_side(client) -> None:
    ada = player("ada")
    for day in days(date(2026, 10, 1), 6):
        play(ada, day)
    play(player("bob"), date(2026, 10, 2))
    for path in ("/boards/week/", "/boards/month/", "/boards/all/"):
        assert client.get(path).status_code == 200, path
    response = client.get("/boards/month/", {"start": "2026-10-17", "by": "rate"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "100%" in html and "–" in html  # ada has a rate; bob, with one game, does not
    assert response.context["board"].period.start == date(2026, 10, 1)
    assert 'href="?start=2026-09-01&amp;by=rate"' in html
    assert 'href="?start=2026-11-01&amp;by=rate"' in html
    assert client.get("/boards/week/", {"start": "2026-10-05", "by": "streak"}).status_code == 200


def test_a_bad_period_start_or_order_is_a_404(client) -> None:
    tomorrow = (utc_today(timezone.now()) + timedelta(days=1)).isoformat()
    for params in ({"start": "2026-13-01"}, {"start": tomorrow}, {"by": "luck"}):
        assert client.get("/boards/month/", params).status_code == 404, params
    # The current period has no "next" link.
    html = client.get("/boards/week/").content.decode()
    assert 'rel="next"' not in html


# Queries ------------------------------------------------------------------------------------


def board_queries(kind: str, start: date | None) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        period_board(kind=kind, start=start)  # type: ignore[arg-type]
    return len(queries)


@pytest.mark.parametrize("kind", ["week", "month", "all"])
def test_a_period_board_costs_the_same_queries_for_3_or_12_players(kind: str) -> None:
    # Each name read a user's is_guest of its own (issue 37: the all-time board made one
    # query per player, 100,003 at 100,000 players).
    day = utc_today(timezone.now()) - timedelta(days=1)
    for name in ("a", "b", "c"):
        play(player(name), day)
    few = board_queries(kind, day)
    for index in range(9):
        play(player(f"more{index}"), day)
    assert period_board_size(kind=kind, start=day) == 12  # type: ignore[arg-type]
    assert board_queries(kind, day) == few
