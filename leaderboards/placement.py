"""A verified result on its board and off it: the one place the verdict
(``leaderboards.services``) and fair play (``leaderboards.fairplay.services``: a hold, a
clearance) both go through, so neither needs the other to move a result. Each move also
refreshes the player's period standings (``leaderboards.standings``), which the week,
month and all-time boards read."""

from __future__ import annotations

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from leaderboards import broadcast
from leaderboards.boards import board_of
from leaderboards.models import Result

#: Reviews that keep a verified result off every board.
OFF_BOARD = (Result.Review.HELD, Result.Review.DISQUALIFIED)


def daily_results_on_board(*, variant: str) -> QuerySet[Result]:
    """The daily deals' results that stand on their boards: ranked, verified, neither held
    nor disqualified. ``weekly=False`` names the daily results without joining the deals
    (a ranked result's flag is its deal's kind). Callers narrow it (a day, a month, a
    player, the wins)."""
    return Result.objects.filter(
        weekly=False, variant=variant, ranked=True, status=Result.Status.VERIFIED
    ).exclude(review__in=OFF_BOARD)


def result_rank(*, result_id: int) -> bool:
    """Put a verified ranked result on its board (once); True if it was added now."""
    result = Result.objects.filter(pk=result_id, status=Result.Status.VERIFIED, ranked=True).first()
    return False if result is None else board_place(result)


def board_place(result: Result) -> bool:
    """The sorted-set add is idempotent (same member, same score), and
    ``ranked_at`` is set by a conditional update, so however often this runs
    the result is on its board once and announced once. Like a verdict, the
    stamp is recomputable (the sweep re-ranks), so its commit skips the flush. A result
    held for review (or disqualified) is not added: clearing it ranks it then.
    """
    if not result.on_board:
        return False
    board_of(result).add(result)
    with transaction.atomic():
        skip_commit_flush()
        added = Result.objects.filter(pk=result.pk, ranked_at__isnull=True).update(
            ranked_at=timezone.now()
        )
        # With the stamp, or neither: a result the sweep ranks again is refreshed again.
        _standings(result)
        if added:
            transaction.on_commit(lambda: broadcast.board_changed(result))
    return bool(added)


def board_leave(result: Result) -> None:
    """Take a result off its board (a hold, a disqualification) and tell the pages."""
    board_of(result).remove(result)
    _standings(result)
    broadcast.board_changed(result)


def board_return(result: Result) -> None:
    """Put a cleared result back on its board; one held before it was ever ranked is
    ranked now, once."""
    if result.ranked_at is None:
        result_rank(result_id=result.pk)
        return
    board_of(result).add(result)
    _standings(result)
    broadcast.board_changed(result)


def _standings(result: Result) -> None:
    # Here, not at the top: the standings' service reads this module's definitions.
    from leaderboards.standings.services import result_standings_refresh

    result_standings_refresh(result=result)


def skip_commit_flush() -> None:
    """Let this transaction commit without waiting for its WAL flush (PostgreSQL).

    A verdict is recomputable: if the database crashed before the flush, the
    result would be missing and the sweep would verify the game again. The
    moves themselves are never committed this way. It saves the fsync, which
    on a disk that takes milliseconds to flush would outweigh the verification.
    """
    connection = transaction.get_connection()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit = off")
