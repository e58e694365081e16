"""The period boards (week, month, all time; the site's and a league's) from the standings
table: two queries whatever the period holds.

The table keeps each player's games, wins and best streak of each period
(:mod:`leaderboards.standings.services`), and an index per ordering in the board's order.
A page reads its ``limit`` rows by that index, then the rows tied with the last of them
(names order players tied on the whole key, in the reader's language, so they are sorted
here). How many players the period has is a count of its rows, which grows with them: no
page asks it (:func:`period_board_size`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from datetime import date
from typing import Any

from django.db.models import QuerySet

from games.engine.ranking import competition_ranks
from games.models import User
from games.services import DAILY_VARIANT
from leaderboards.periods import (
    ALL_TIME_START,
    BOARD_LIMIT,
    SORT_KEYS,
    Period,
    PeriodBoard,
    PeriodKind,
    PlayerStats,
    SortBy,
    period_of,
)
from leaderboards.rating.selectors import JOIN_FIELDS, ShownRating
from leaderboards.standings.models import ORDERS, PeriodStanding

# What a board reads of each standing, as values (no model instances: a tie across the
# page's end may bring hundreds of rows, of which only the page's are kept).
_VALUES = (
    "player_id",
    "games",
    "wins",
    "best_streak",
    "rate",
    *(f"player__{name}" for name in User.PUBLIC_NAME_FIELDS),
    *(f"player__{name}" for name in JOIN_FIELDS),
)
Values = tuple[Any, ...]


def period_board(
    *,
    kind: PeriodKind,
    start: date | None,
    by: SortBy = "wins",
    variant: str = DAILY_VARIANT,
    limit: int = BOARD_LIMIT,
    players: Collection[int] | None = None,
) -> PeriodBoard:
    """Players' daily wins, win rate and best winning streak over a period, best first.

    ``start`` is any day of the period (``None`` only for ``all``); ``players``, when
    given, keeps only those players (a league's board). Ties on the whole key share a
    rank; the name (casefolded), then the player's id, orders them on the page.
    """
    if by not in ORDERS:
        raise ValueError(f"unknown order {by!r}")
    period, standings = _standings(kind=kind, start=start, variant=variant, players=players)
    order = [f"-{column}" for column in ORDERS[by]]
    top = list(standings.order_by(*order).values_list(*_VALUES)[:limit])
    candidates = {row[0]: row for row in top}
    if top:
        # The players tied with the last shown on the whole key may sort before it by name.
        _, _, wins, streak, rate, *_rest = top[-1]
        tied = standings.filter(wins=wins, rate=rate, best_streak=streak).values_list(*_VALUES)
        for row in tied:
            candidates.setdefault(row[0], row)
    key = SORT_KEYS[by]
    named = sorted(
        (_stats(row) for row in candidates.values()),
        key=lambda s: (key(s), s.player_name.casefold(), s.player_id),
    )
    shown = named[:limit]
    ranks = competition_ranks([key(stats) for stats in shown])
    rows = [
        replace(stats, rank=rank, rating=_rating(candidates[stats.player_id]))
        for stats, rank in zip(shown, ranks, strict=True)
    ]
    return PeriodBoard(period=period, by=by, rows=rows)


def period_board_size(
    *,
    kind: PeriodKind,
    start: date | None,
    variant: str = DAILY_VARIANT,
    players: Collection[int] | None = None,
) -> int:
    """How many players have a standing result in the period (of ``players``, if given):
    a count of index entries, one per player, so not for a page."""
    return _standings(kind=kind, start=start, variant=variant, players=players)[1].count()


def _standings(
    *, kind: PeriodKind, start: date | None, variant: str, players: Collection[int] | None
) -> tuple[Period, QuerySet[PeriodStanding]]:
    if kind != "all" and start is None:
        raise ValueError(f"a {kind} board needs a start day")
    period = period_of(kind=kind, day=start or date.min)
    standings = PeriodStanding.objects.filter(
        variant=variant, kind=kind, start=period.start or ALL_TIME_START
    )
    if players is not None:
        standings = standings.filter(player_id__in=list(players))
    return period, standings


def _stats(row: Values) -> PlayerStats:
    player_id, games, wins, streak, _rate, username, display_name, is_guest, *_rating = row
    name = User.public_name_of(username=username, display_name=display_name, is_guest=is_guest)
    return PlayerStats(player_id, name, games=games, wins=wins, best_streak=streak)


def _rating(row: Values) -> ShownRating | None:
    mu, sigma, matches = row[-3:]
    return None if mu is None else ShownRating.of(mu=mu, sigma=sigma, matches=matches)
