"""Week, month and all-time periods and a player's standing over one: pure arithmetic over
(UTC day, won) pairs, no queries. The period boards (:mod:`leaderboards.standings`) rank
players by these numbers; the standings table keeps them per player and period.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

from games.dates import FIRST_DAY
from leaderboards.rating.selectors import ShownRating

BOARD_LIMIT = 100
# Fewer games than this say little about a player's win rate: shown as "–" and ranked last.
MIN_GAMES_FOR_RATE = 5
# The rate a standing below MIN_GAMES_FOR_RATE is ordered by: below every real rate (0-1).
NO_RATE = -1.0
# The ``start`` of the all-time period in the standings table (its key needs a date).
ALL_TIME_START = date(1, 1, 1)

PeriodKind = Literal["week", "month", "all"]
SortBy = Literal["wins", "rate", "streak"]
PERIOD_KINDS: tuple[PeriodKind, ...] = ("week", "month", "all")
SORTS: tuple[SortBy, ...] = ("wins", "rate", "streak")


@dataclass(frozen=True)
class Period:
    kind: PeriodKind
    start: date | None  # None: all time
    end: date | None  # exclusive

    def previous(self) -> Period | None:
        """The period before, unless it starts before the site's first day."""
        if self.start is None or self.start <= FIRST_DAY:
            return None
        return period_of(kind=self.kind, day=self.start - timedelta(days=1))

    def following(self, *, today: date) -> Period | None:
        """The next period, unless it has not started yet."""
        if self.end is None or self.end > today:
            return None
        return period_of(kind=self.kind, day=self.end)


def period_of(*, kind: PeriodKind, day: date) -> Period:
    """The ISO week (Monday first) or calendar month holding ``day``; or all time.

    >>> period_of(kind="week", day=date(2026, 1, 1))
    Period(kind='week', start=datetime.date(2025, 12, 29), end=datetime.date(2026, 1, 5))
    >>> period_of(kind="month", day=date(2025, 12, 31)).end
    datetime.date(2026, 1, 1)
    """
    if kind == "week":
        start = day - timedelta(days=day.weekday())
        return Period(kind, start, start + timedelta(days=7))
    if kind == "month":
        start = day.replace(day=1)
        end = date(start.year + start.month // 12, start.month % 12 + 1, 1)
        return Period(kind, start, end)
    if kind == "all":
        return Period(kind, None, None)
    raise ValueError(f"unknown period kind {kind!r}")


@dataclass(frozen=True)
class PlayerStats:
    player_id: int
    player_name: str
    games: int
    wins: int
    best_streak: int
    rank: int = 0
    rating: ShownRating | None = None

    @property
    def rate(self) -> float | None:
        """Wins per game, or ``None`` below :data:`MIN_GAMES_FOR_RATE` games."""
        if self.games < MIN_GAMES_FOR_RATE:
            return None
        return self.wins / self.games

    @property
    def rate_percent(self) -> str | None:
        rate = self.rate
        return None if rate is None else f"{rate * 100:.0f}%"


@dataclass(frozen=True)
class PeriodBoard:
    period: Period
    by: SortBy
    rows: list[PlayerStats]  # how many players the period has: standings.period_board_size


def best_streak(days: Iterable[date]) -> int:
    """The longest run of consecutive days in ``days`` (the days a player won).

    A missed day or a lost day is simply absent, so either breaks the run.

    >>> best_streak([date(2025, 12, 30), date(2025, 12, 31), date(2026, 1, 1), date(2026, 1, 3)])
    3
    >>> best_streak([])
    0
    """
    best = run = 0
    previous: date | None = None
    for day in sorted(set(days)):
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    return best


# Sort keys, best first. Ties on the whole key share a rank; the name only orders the display.
SORT_KEYS: dict[SortBy, Callable[[PlayerStats], tuple]] = {
    "wins": lambda s: (-s.wins, -(s.rate if s.rate is not None else -1.0), -s.best_streak),
    # Players without enough games for a rate come after every player with one.
    "rate": lambda s: (s.rate is None, -(s.rate or 0.0), -s.wins, -s.best_streak),
    "streak": lambda s: (-s.best_streak, -s.wins, -(s.rate if s.rate is not None else -1.0)),
}


def rate_key(*, games: int, wins: int) -> float:
    """The win rate a board orders by: wins per game, :data:`NO_RATE` below the minimum.
    Stored as a double, it orders and ties exactly as the Python key does.

    >>> rate_key(games=5, wins=3), rate_key(games=4, wins=4)
    (0.6, -1.0)
    """
    return wins / games if games >= MIN_GAMES_FOR_RATE else NO_RATE


def period_start(*, kind: PeriodKind, day: date) -> date:
    """The first day of the ``kind`` period holding ``day`` (:data:`ALL_TIME_START` for
    all): :func:`period_of`'s start, without the object (a refresh asks it per result).

    >>> [period_start(kind=k, day=date(2026, 1, 1)) for k in PERIOD_KINDS] == [
    ...     period_of(kind=k, day=date(2026, 1, 1)).start or ALL_TIME_START for k in PERIOD_KINDS
    ... ]
    True
    """
    if kind == "week":
        return day - timedelta(days=day.weekday())
    if kind == "month":
        return day.replace(day=1)
    return ALL_TIME_START


@dataclass(frozen=True)
class Totals:
    """A player's numbers over one period."""

    games: int
    wins: int
    best_streak: int


def period_totals(
    results: Iterable[tuple[date, bool]],
    *,
    only: Collection[tuple[PeriodKind, date]] | None = None,
) -> dict[tuple[PeriodKind, date], Totals]:
    """A player's standing results, as (day, won), to their totals per (kind, start) of
    every period they fall in (or only the periods ``only`` names). As the boards count
    them: every result is a game, a won day counts once in a streak.

    >>> totals = period_totals([(date(2026, 1, 1), True), (date(2026, 1, 2), False)])
    >>> totals[("all", ALL_TIME_START)]
    Totals(games=2, wins=1, best_streak=1)
    >>> sorted(k for k, _ in totals)
    ['all', 'month', 'week']
    """
    games: Counter[tuple[PeriodKind, date]] = Counter()
    wins: Counter[tuple[PeriodKind, date]] = Counter()
    won_days: dict[tuple[PeriodKind, date], list[date]] = defaultdict(list)
    for day, won in results:
        for kind in PERIOD_KINDS:
            key = (kind, period_start(kind=kind, day=day))
            if only is not None and key not in only:
                continue
            games[key] += 1
            if won:
                wins[key] += 1
                won_days[key].append(day)
    return {
        key: Totals(games=n, wins=wins[key], best_streak=best_streak(won_days.get(key, ())))
        for key, n in games.items()
    }
