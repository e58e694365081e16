"""Daily streaks: pure arithmetic over (UTC day, won) pairs, no Django.

A streak is a run of consecutive UTC days, each with a won ranked daily game.
A day without a game, or a day whose game was lost (or resigned), ends it.
The current streak is still alive while its last win is today or yesterday:
the player may not have played today yet.

>>> from datetime import date
>>> days = [(date(2026, 12, 30), True), (date(2026, 12, 31), True), (date(2027, 1, 1), True)]
>>> streaks(days, today=date(2027, 1, 2))
Streaks(current=3, best=3)
>>> streaks(days, today=date(2027, 1, 3))
Streaks(current=0, best=3)
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta
from typing import NamedTuple

ONE_DAY = timedelta(days=1)


class Streaks(NamedTuple):
    current: int
    best: int


def day_outcomes(results: Iterable[tuple[date, bool]]) -> dict[date, bool]:
    """One outcome per day. Several games on one day (several daily variants)
    make a won day only if every one of them was won: "a loss breaks it".

    >>> day_outcomes([(date(2026, 1, 1), True), (date(2026, 1, 1), False)])
    {datetime.date(2026, 1, 1): False}
    """
    outcomes: dict[date, bool] = {}
    for day, won in results:
        outcomes[day] = outcomes.get(day, True) and bool(won)
    return outcomes


def streaks(results: Iterable[tuple[date, bool]], *, today: date) -> Streaks:
    """The current and the best streak as of ``today`` (a UTC date).

    Days after ``today`` are ignored: a clock skew must not grow a streak.
    """
    outcomes = {d: w for d, w in day_outcomes(results).items() if d <= today}
    won_days = sorted(d for d, w in outcomes.items() if w)
    best = run = 0
    previous: date | None = None
    for day in won_days:
        # A gap of more than one day is a missed day; a lost day is not in won_days,
        # so it is a gap too.
        run = run + 1 if previous is not None and day - previous == ONE_DAY else 1
        best = max(best, run)
        previous = day
    return Streaks(current=current_streak(outcomes, today=today), best=best)


def current_streak(outcomes: dict[date, bool], *, today: date) -> int:
    """The run of won days ending today, or ending yesterday when today has no game yet."""
    day = today
    if day not in outcomes:
        # Not played today (yet): yesterday's streak is still alive.
        day -= ONE_DAY
    run = 0
    while outcomes.get(day) is True:
        run += 1
        day -= ONE_DAY
    return run
