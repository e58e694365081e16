"""The home page's picture of today's deal, as the players see it: how many finished and
won so far, the live top five, the signed-in player's streak and yesterday's place. Read
where it is shown (``leaderboards.templatetags.home_tags``), so the home view in ``games``,
which must not import ``leaderboards``, needs no change."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta

from ftsite.pagecache import fragment_cached
from games.models import User
from games.services import DAILY_VARIANT
from leaderboards.placement import daily_results_on_board
from leaderboards.selectors import Position, Row, board_for_day, board_rank_of
from leaderboards.streaks import streaks

TOP = 5


@dataclass(frozen=True)
class HomeToday:
    day: date
    finished: int  # verified results on today's board
    won: int
    top: list[Row] = field(default_factory=list)
    streak: int | None = None  # the signed-in player's current daily streak
    yesterday: Position | None = None  # and their place on yesterday's board


def home_today(*, user: User | None, today: date) -> HomeToday:
    """Today's board in brief; the player's part only for a signed-in player. A constant
    number of queries (tests/leaderboards/test_page_queries.py); the part every viewer sees
    alike from the page store's shared fragments (``ftsite.pagecache.fragment_cached``), so
    a signed-in player's home page reads only their own lines."""
    finished, won, top = fragment_cached(
        key=f"home-today:{today.isoformat()}", compute=lambda: _today_shared(today)
    )
    me = user if user is not None and user.is_authenticated and not user.is_guest else None
    streak = yesterday = None
    if me is not None:
        days = (
            daily_results_on_board(variant=DAILY_VARIANT)
            .filter(player=me)
            .values_list("day", "won")
        )
        streak = streaks(((d, w) for d, w in days if d is not None), today=today).current
        yesterday = board_rank_of(day=today - timedelta(days=1), variant=DAILY_VARIANT, user=me)
    return HomeToday(
        day=today, finished=finished, won=won, top=top, streak=streak, yesterday=yesterday
    )


def _today_shared(today: date) -> tuple[int, int, list[Row]]:
    """Today's verified results, the won among them, and the top five (no viewer's mark)."""
    board = board_for_day(day=today, variant=DAILY_VARIANT, user=None, limit=TOP)
    on_board = daily_results_on_board(variant=DAILY_VARIANT).filter(day=today, won=True)
    return board.size, on_board.count(), board.rows[:TOP]
