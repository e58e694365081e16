"""Writes of the standings table: one player's periods again when a result goes on or off
its board, and every standing again from the results (``manage.py rebuild_standings``).

A refresh recomputes, never adds: it reads the player's standing daily results (the
period boards' own definition, :func:`leaderboards.placement.daily_results_on_board`) and
writes the week, month and all-time rows of the changed day. So it is idempotent, a
retried task or the sweep may run it again, and a hold, a release or a disqualification
is the same call as a new result. Two refreshes of one player take turns on the player's
row: the later one reads after the earlier committed, so the last write is never stale.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import date

from django.db import transaction

from games.models import User
from leaderboards.models import Result
from leaderboards.periods import (
    PERIOD_KINDS,
    PeriodKind,
    Totals,
    period_start,
    period_totals,
    rate_key,
)
from leaderboards.placement import OFF_BOARD, daily_results_on_board
from leaderboards.standings.models import PeriodStanding

REBUILD_BATCH = 5_000
_FIELDS = ["games", "wins", "best_streak", "rate"]


def standings_refresh(*, player_id: int, variant: str, day: date) -> None:
    """Recompute the player's standings of the week, the month and all time holding
    ``day`` in ``variant`` from their results as they stand now (a period left without a
    result loses its row)."""
    keys = {(kind, period_start(kind=kind, day=day)) for kind in PERIOD_KINDS}
    # No savepoint of its own inside a caller's transaction (the ranking's: the stamp and
    # the standings together, or neither): two statements fewer a ranked result, and an
    # error here still rolls the whole of it back.
    with transaction.atomic(savepoint=False):
        # The player's row as the lock: a second refresh of this player waits here, then
        # reads what the first one read and more.
        User.objects.select_for_update().filter(pk=player_id).values_list("pk").first()
        results = daily_results_on_board(variant=variant).filter(player_id=player_id)
        played = [(d, won) for d, won in results.values_list("day", "won") if d is not None]
        totals = period_totals(played, only=keys)
        rows = [_row(player_id, variant, key, found) for key, found in totals.items()]
        if rows:
            PeriodStanding.objects.bulk_create(
                rows,
                update_conflicts=True,
                unique_fields=["player", "variant", "kind", "start"],
                update_fields=_FIELDS,
            )
        empty = keys - totals.keys()
        for kind, start in empty:  # at most three, and usually none
            PeriodStanding.objects.filter(
                player_id=player_id, variant=variant, kind=kind, start=start
            ).delete()


def result_standings_refresh(*, result: Result) -> None:
    """The refresh for a result that went on or off its board; nothing for a result that
    is no daily game (a weekly challenge, a practice or archive game)."""
    if result.ranked and not result.weekly and result.day is not None:
        standings_refresh(player_id=result.player_id, variant=result.variant, day=result.day)


def standings_rebuild(
    *, progress: Callable[[int, int], None] | None = None, batch: int = REBUILD_BATCH
) -> int:
    """Every standing again from the results, in one transaction (readers see the old
    table until it commits); returns the rows written. ``progress(done, total)`` is told
    the results read so far."""
    standing = (
        Result.objects.filter(
            weekly=False, ranked=True, status=Result.Status.VERIFIED, day__isnull=False
        )
        .exclude(review__in=OFF_BOARD)
        .order_by("player_id", "variant")
    )
    written = done = 0
    with transaction.atomic():
        total = standing.count()
        PeriodStanding.objects.all().delete()
        pending: list[PeriodStanding] = []
        rows = standing.values_list("player_id", "variant", "day", "won").iterator(batch)
        for (player_id, variant), group in itertools.groupby(rows, key=lambda r: r[:2]):
            played = [(day, won) for _, _, day, won in group if day is not None]
            done += len(played)
            totals = period_totals(played)
            pending += [_row(player_id, variant, key, found) for key, found in totals.items()]
            if len(pending) >= batch:
                written += _write(pending, batch)
                pending = []
                if progress is not None:
                    progress(done, total)
        written += _write(pending, batch)
    if progress is not None:
        progress(done, total)
    return written


def _write(rows: list[PeriodStanding], batch: int) -> int:
    PeriodStanding.objects.bulk_create(rows, batch_size=batch)
    return len(rows)


def _row(
    player_id: int, variant: str, key: tuple[PeriodKind, date], totals: Totals
) -> PeriodStanding:
    kind, start = key
    return PeriodStanding(
        player_id=player_id,
        variant=variant,
        kind=kind,
        start=start,
        games=totals.games,
        wins=totals.wins,
        best_streak=totals.best_streak,
        rate=rate_key(games=totals.games, wins=totals.wins),
    )
