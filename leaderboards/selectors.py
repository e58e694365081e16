"""Reads for the leaderboard pages and the live board: no writes here.

The daily board's order lives in :mod:`leaderboards.boards` (a Redis sorted set when
``REDIS_URL`` is set, else the database); these functions only ask it for ranks and
pages and then load the rows those ids name, so the page and the set never disagree.
Period boards (week, month, all time) are read from the standings table
(:mod:`leaderboards.standings`); their names are re-exported here for the pages.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from django.db.models import Count, Min

from games.display import format_duration
from games.models import Deal, Game, User
from games.selectors import deal_daily_for_day, deal_weekly_for_week
from games.services import DAILY_VARIANT
from games.weekly import weekly_variant
from leaderboards.boards import Entry, board_for
from leaderboards.fairplay.selectors import held_explanation, under_review_count
from leaderboards.models import Result

# The period boards' names, as the pages and leagues read them from here.
from leaderboards.periods import (
    BOARD_LIMIT as BOARD_LIMIT,
)
from leaderboards.periods import (
    MIN_GAMES_FOR_RATE as MIN_GAMES_FOR_RATE,
)
from leaderboards.periods import (
    PERIOD_KINDS as PERIOD_KINDS,
)
from leaderboards.periods import (
    SORTS as SORTS,
)
from leaderboards.periods import (
    Period as Period,
)
from leaderboards.periods import (
    PeriodBoard as PeriodBoard,
)
from leaderboards.periods import (
    PeriodKind as PeriodKind,
)
from leaderboards.periods import (
    PlayerStats as PlayerStats,
)
from leaderboards.periods import (
    SortBy as SortBy,
)
from leaderboards.periods import (
    best_streak as best_streak,
)
from leaderboards.periods import (
    period_of as period_of,
)
from leaderboards.placement import OFF_BOARD
from leaderboards.rating.selectors import JOIN, ShownRating, rating_of_loaded
from leaderboards.standings.selectors import period_board as period_board
from leaderboards.standings.selectors import period_board_size as period_board_size

NEIGHBOURS = 2  # rows shown above and below the player's own in "Your position"


# Daily boards ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One line of a daily board."""

    rank: int
    result_id: int
    game_id: str
    player_id: int
    player_name: str
    won: bool
    score: int
    moves: int
    duration_ms: int
    is_me: bool = False
    rating: ShownRating | None = None  # the player's skill rating now (None: unrated)

    @classmethod
    def of(cls, result: Result, *, rank: int, me: int | None) -> Row:
        """The row of ``result`` at ``rank``; ``me`` is the viewer's user id, if any."""
        return cls(
            rank=rank,
            result_id=result.pk,
            game_id=str(result.game_id),
            player_id=result.player_id,
            player_name=result.player.public_name,
            won=result.won,
            score=result.score,
            moves=result.moves,
            duration_ms=result.duration_ms,
            is_me=me is not None and result.player_id == me,
            rating=rating_of_loaded(result.player),
        )

    @property
    def time(self) -> str:
        return format_duration(self.duration_ms)

    @property
    def replay_path(self) -> str:
        # A plain path, not reverse(): the replay page is built elsewhere and may not be routed
        # yet. Pages only show it once the day is revealed (see DayBoard.revealed).
        return f"/games/{self.game_id}/replay/"


@dataclass(frozen=True)
class Position:
    """The signed-in player's place on a day's board, with neighbours.

    ``status`` is the player's result's: a ``verified`` result may still lack a ``rank``
    for a moment (Redis boards are filled after the verifying transaction commits).
    """

    status: str
    rank: int | None = None
    size: int = 0
    rows: list[Row] = field(default_factory=list)
    # A held result: what its player is told (fairplay.selectors.held_explanation).
    review: dict[str, Any] | None = None


@dataclass(frozen=True)
class DayBoard:
    day: date
    variant: str
    deal: Deal | None
    rows: list[Row]
    size: int
    position: Position | None
    under_review: int = 0  # verified results held for fair-play review (off the board)

    @property
    def revealed(self) -> bool:
        """Whether the day has closed: replays, the code and the salt may be shown."""
        return self.deal is not None and self.deal.is_revealed


def _rows(entries: Iterable[Entry], *, me: int | None) -> list[Row]:
    """Board entries (ids and ranks) to rows, in one query.

    An id the board names but the database no longer holds (a result deleted in the
    admin, before Redis is rebuilt) is skipped rather than shown blank. The players'
    ratings come in the same query (a join), so the rating column costs no query.
    """
    entries = list(entries)
    results = Result.objects.filter(pk__in=[e.result_id for e in entries]).select_related(
        "player", f"player__{JOIN}"
    )
    by_id = {r.pk: r for r in results}
    return [
        Row.of(by_id[entry.result_id], rank=entry.rank, me=me)
        for entry in entries
        if entry.result_id in by_id
    ]


def _user_id(user: User | None) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


@dataclass(frozen=True)
class Week:
    """The weekly challenge of the week starting ``monday``: its deal once opened, and its
    variant either way (the deal's, else the rotation's: the same)."""

    monday: date
    deal: Deal | None
    variant: str

    @property
    def revealed(self) -> bool:
        return self.deal is not None and self.deal.is_revealed


def week_of(*, monday: date) -> Week:
    deal = deal_weekly_for_week(monday=monday)
    return Week(monday, deal, deal.variant if deal is not None else weekly_variant(monday))


def board_for_day(
    *,
    day: date,
    variant: str = DAILY_VARIANT,
    user: User | None,
    limit: int = BOARD_LIMIT,
    weekly: bool = False,
) -> DayBoard:
    """A day's board: its top ``limit`` rows, its size, the deal and the player's position.
    ``weekly``: the weekly challenge's board of the week whose Monday is ``day``."""
    board = board_for(day, variant, weekly)
    me = _user_id(user)
    deal = (
        deal_weekly_for_week(monday=day) if weekly else deal_daily_for_day(day=day, variant=variant)
    )
    return DayBoard(
        day=day,
        variant=variant,
        deal=deal,
        rows=_rows(board.page(0, limit), me=me),
        size=board.size(),
        position=board_rank_of(day=day, variant=variant, user=user, weekly=weekly),
        # How many results are held is the reviewers' business: a held result is private
        # until decided (issue 19), so the public board says nothing of it.
        under_review=(
            under_review_count(day=day, variant=variant, weekly=weekly)
            if user is not None and user.is_staff
            else 0
        ),
    )


def board_rows(
    *, day: date, variant: str = DAILY_VARIANT, user: User | None, weekly: bool = False
) -> list[Row]:
    """Only the top rows: what the live page re-fetches after each change."""
    return _rows(board_for(day, variant, weekly).page(0, BOARD_LIMIT), me=_user_id(user))


def board_rank_of(
    *, day: date, variant: str = DAILY_VARIANT, user: User | None, weekly: bool = False
) -> Position | None:
    """The player's rank and neighbours (two above, two below), wherever they stand.

    ``None`` for a visitor, or a player without a ranked result that day (or week).
    """
    me = _user_id(user)
    if me is None:
        return None
    result = (
        Result.objects.filter(player_id=me, day=day, variant=variant, weekly=weekly, ranked=True)
        .order_by("-pk")
        .first()
    )
    if result is None:
        return None
    if result.status != Result.Status.VERIFIED:
        return Position(status=result.status)
    if result.review == Result.Review.HELD:
        return Position(status="under_review", review=held_explanation(result=result))
    if result.review == Result.Review.DISQUALIFIED:
        return Position(status="disqualified")
    board = board_for(day, variant, weekly)
    rank, place = board.rank(result), board.place(result)
    if rank is None or place is None:
        return Position(status=result.status)
    # The rows around the player's place (ties share a rank, so the rank may be higher);
    # the page start is never negative (it would count from the end of a Redis set).
    start = max(place - NEIGHBOURS, 0)
    count = place + 1 + NEIGHBOURS - start
    return Position(
        status=result.status,
        rank=rank,
        size=board.size(),
        rows=_rows(board.page(start, count), me=me),
    )


def rank_of_game(*, user: User, game_id: uuid.UUID | str) -> Position | None:
    """The player's position on the board of the day their ranked daily game ``game_id``
    was played (the result dialog's rank); ``None`` without such a result."""
    result = Result.objects.filter(game_id=game_id, ranked=True).first()
    if result is None or result.day is None:
        return None
    return board_rank_of(day=result.day, variant=result.variant, user=user, weekly=result.weekly)


# The pipeline's pace, for the operator (leaderboards.metrics) ------------------------------


@dataclass(frozen=True)
class Lag:
    """Seconds from a ranked finish to its result on the board, over the results ranked
    in a recent window: how many, and their median, 95th percentile and maximum."""

    count: int
    p50: float
    p95: float
    max: float


def verification_lag_recent(*, now: datetime, window: timedelta, limit: int = 10_000) -> Lag:
    """The lag of the ranked results put on a board within ``window`` before ``now``
    (at most the latest ``limit`` of them)."""
    pairs = (
        Result.objects.filter(ranked=True, ranked_at__gte=now - window, ranked_at__lte=now)
        .order_by("-ranked_at")
        .values_list("finished_at", "ranked_at")[:limit]
    )
    lags = sorted(
        max(0.0, (ranked - finished).total_seconds())
        for finished, ranked in pairs
        if ranked is not None  # filtered on ranked_at above
    )
    if not lags:
        return Lag(0, 0.0, 0.0, 0.0)

    def at(share: float) -> float:
        return lags[min(len(lags) - 1, int(share * len(lags)))]

    return Lag(len(lags), at(0.5), at(0.95), lags[-1])


@dataclass(frozen=True)
class Backlog:
    """Work the verification pipeline has not done yet: finished games (within ``since``)
    without a verdict, verified ranked results not on their board, and the age in seconds
    of the oldest of each (0 when there are none)."""

    unverified: int
    unverified_oldest: float
    unranked: int
    unranked_oldest: float


def verification_backlog(*, now: datetime, since: timedelta) -> Backlog:
    waiting = Game.objects.filter(finished_at__gte=now - since, finished_at__lte=now).exclude(
        result__status__in=[Result.Status.VERIFIED, Result.Status.REJECTED]
    )
    unverified = waiting.aggregate(n=Count("pk"), oldest=Min("finished_at"))
    unranked = (
        Result.objects.filter(status=Result.Status.VERIFIED, ranked=True, ranked_at__isnull=True)
        .exclude(review__in=OFF_BOARD)
        .filter(verified_at__gte=now - since)
        .aggregate(n=Count("pk"), oldest=Min("verified_at"))
    )

    def age(oldest: datetime | None) -> float:
        return max(0.0, (now - oldest).total_seconds()) if oldest else 0.0

    return Backlog(
        unverified["n"], age(unverified["oldest"]), unranked["n"], age(unranked["oldest"])
    )
