"""The home page's picture of today's deal, as the players see it: how many finished and
won so far, the live top five, the signed-in player's streak and yesterday's place. Read
where it is shown (``leaderboards.templatetags.home_tags``), so the home view in ``games``,
which must not import ``leaderboards``, needs no change."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta

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
    number of queries (tests/leaderboards/test_page_queries.py)."""
    board = board_for_day(day=today, variant=DAILY_VARIANT, user=None, limit=TOP)
    on_board = daily_results_on_board(variant=DAILY_VARIANT).filter(day=today, won=True)
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
        day=today,
        finished=board.size,
        won=on_board.count(),
        top=board.rows[:TOP],
        streak=streak,
        yesterday=yesterday,
    )
