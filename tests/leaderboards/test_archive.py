"""Archive games never reach a ranked board; the archive page and the scorecard's mark."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta

import pytest
import time_machine
from django.test import Client

from games import services as game_services
from games.daily import day_end
from games.models import Deal, Game, User
from leaderboards import selectors, services
from leaderboards.archive import archive_month
from leaderboards.boards import board_for, ranked_results
from leaderboards.models import Result
from leaderboards.scorecards import scorecard
from tests.support.games import game_play, game_resign, play_all

pytestmark = pytest.mark.django_db

Capture = Callable[..., object]
CLASSIC = "forty-thieves"


def test_an_archive_win_is_never_on_the_days_board_nor_a_period_board(
    board_kind: str,
    user: User,
    bob: User,
    board_day: date,
    make_daily_deal,
    classic_win: tuple[int, list[str]],
    django_capture_on_commit_callbacks: Capture,
) -> None:
    deal = make_daily_deal(board_day, revealed=False)
    noon = datetime.combine(board_day, time(12), tzinfo=UTC)
    with django_capture_on_commit_callbacks(execute=True):
        ranked = game_services.game_start_daily(user=bob, now=noon)
        game_play(user=bob, game_id=ranked.pk, move="s")
        game_resign(user=bob, game_id=ranked.pk)
    after_close = day_end(board_day) + timedelta(hours=1)
    with django_capture_on_commit_callbacks(execute=True):
        archive = game_services.game_start_archive(user=user, day=deal.day, now=after_close)
        play_all(user, archive, classic_win[1])
    assert archive.status == Game.Status.WON
    result = Result.objects.get(game=archive)
    assert result.status == Result.Status.VERIFIED and result.won
    assert not result.ranked and result.ranked_at is None
    assert services.result_rank(result_id=result.pk) is False

    board = board_for(board_day, CLASSIC)
    assert board.size() == 1 and board.rank(result) is None
    assert list(ranked_results(board_day, CLASSIC)) == [Result.objects.get(game=ranked)]
    day_board = selectors.board_for_day(day=board_day, user=user)
    assert [r.player_id for r in day_board.rows] == [bob.pk] and day_board.position is None
    for kind in ("week", "month", "all"):
        period = selectors.period_board(kind=kind, start=board_day)
        assert [r.player_id for r in period.rows] == [bob.pk]
    services.boards_rebuild()
    assert board_for(board_day, CLASSIC).size() == 1


def test_the_scorecard_marks_archive_games_and_keeps_them_out_of_the_ranked_stats(
    user: User,
    now: datetime,
    make_daily_deal,
    classic_win: tuple[int, list[str]],
    django_capture_on_commit_callbacks: Capture,
) -> None:
    deal = make_daily_deal(now.date() - timedelta(days=1))
    with django_capture_on_commit_callbacks(execute=True):
        game = game_services.game_start_archive(user=user, day=deal.day, now=now)
        play_all(user, game, classic_win[1])
    card = scorecard(username=user.username, viewer=user, now=now)
    assert card["stats"]["played"] == 0 and card["stats"]["best_streak"] == 0
    [item] = card["history"]["items"]
    assert item["kind"] == "archive" and item["won"] and item["share"] is None
    page = Client().get(f"/players/{user.username}/")
    assert b'data-testid="kind-archive"' in page.content


# The archive page -------------------------------------------------------------------------


def test_the_archive_shows_each_closed_day_with_results_winners_and_difficulty(
    user: User,
    bob: User,
    now: datetime,
    make_daily_deal,
    make_result,
) -> None:
    first = now.date().replace(day=1)
    deal = make_daily_deal(first)
    # bob won it ranked (on the board), ada played it from the archive.
    make_result(player=bob, day=None, won=True)  # a practice win: counts nowhere
    make_result(bob, deal=deal, won=True, score=500, duration_ms=1, finished_at=now)
    make_result(
        user, deal=deal, mode=Game.Mode.ARCHIVE, won=True, score=500, duration_ms=1,
        finished_at=now,
    )  # fmt: skip
    month = archive_month(month=first, user=user, now=datetime.combine(now.date(), time(23), UTC))
    cell = next(d for d in month.days if d.day == first)
    assert (cell.winners, cell.ranked, cell.archive_games, cell.archive_won) == (1, "", 1, True)
    assert cell.closed and cell.deal == deal
    client = Client()
    client.force_login(user)
    page = client.get(f"/archive/{first:%Y-%m}/")  # the default month: the test below
    assert page.status_code == 200
    text = page.content.decode()
    assert "1 winner" in text and "Archive: won (1 game)" in text
    assert deal.difficulty_stars in text and f"/deals/{deal.pk}/solution/" in text
    assert f'action="/play/archive/{first.isoformat()}/"' in text


def test_a_weekly_win_is_not_a_daily_winner_in_the_archive(
    user: User, bob: User, now: datetime, make_daily_deal, make_result
) -> None:
    # The count reads the results' weekly flag, not the deal's kind (issue 37): a weekly
    # challenge's win of the same variant on that Monday is still no daily winner.
    first = now.date().replace(day=1)
    daily = make_daily_deal(first)
    weekly = Deal.objects.create(
        kind=Deal.Kind.WEEKLY, variant=daily.variant, day=first, seed_hex="0", code="weekly-x"
    )
    make_result(bob, deal=weekly, won=True, finished_at=now)
    make_result(user, deal=daily, won=True, finished_at=now)
    month = archive_month(month=first, user=None, now=datetime.combine(now.date(), time(23), UTC))
    assert next(d for d in month.days if d.day == first).winners == 1


def test_todays_open_deal_is_not_offered_in_the_archive(user: User, now: datetime) -> None:
    game_services.deal_open_daily(day=now.date())
    cell = next(d for d in archive_month(month=now.date(), user=user, now=now).days if d.deal)
    assert not cell.closed and cell.winners == 0
    client = Client()
    client.force_login(user)
    text = client.get("/archive/").content.decode()
    assert f"/play/archive/{now.date().isoformat()}/" not in text


@pytest.mark.parametrize("month", ["2026-13", "26-01", "x", "3000-01"])
def test_a_bad_or_future_month_is_a_404(client: Client, db: None, month: str) -> None:
    assert client.get(f"/archive/{month}/").status_code == 404


def test_a_visitor_sees_the_archive_with_guest_play_and_a_log_in_link(
    client: Client, db: None
) -> None:
    page = client.get("/archive/")
    assert page.status_code == 200 and b'data-testid="guest-note"' in page.content
    assert b"/accounts/login/?next=/archive/" in page.content


@pytest.mark.parametrize(
    ("today", "shown"),
    [("2026-12-01", "2026-11"), ("2026-12-02", "2026-12"), ("2027-01-01", "2026-12")],
)
def test_the_archive_opens_on_the_month_of_the_latest_closed_day(
    client: Client, db: None, wall_clock: time_machine.Traveller, today: str, shown: str
) -> None:
    wall_clock.move_to(f"{today}T12:00:00Z")
    page = client.get("/archive/")
    assert page.status_code == 200
    assert page.context["archive"].month == date.fromisoformat(f"{shown}-01")


def test_the_calendar_has_weekday_heads_monday_first(client: Client, db: None) -> None:
    import re

    page = client.get("/archive/2026-11/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    heads = page.split('data-testid="archive-weekdays">', 1)[1].split("</ol>", 1)[0]
    assert re.findall(r"<li>(\w+)</li>", heads) == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def test_an_empty_archive_says_when_days_arrive(client: Client, db: None) -> None:
    page = client.get("/archive/").content.decode()
    assert 'data-testid="archive-empty"' in page and "closes at 00:00 UTC" in page


def test_a_month_with_a_closed_day_does_not_say_it_is_empty(
    client: Client, user: User, now: datetime
) -> None:
    day = now.date() - timedelta(days=1)
    if day.month != now.date().month:
        day = now.date().replace(day=1) - timedelta(days=1)
    game_services.deal_open_daily(day=day)
    page = client.get(f"/archive/{day:%Y-%m}/").content.decode()
    assert 'data-testid="archive-empty"' not in page
