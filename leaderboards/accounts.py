"""What leaderboards does when a person deletes their account or downloads their data
(``games.signals.account_deleting`` and ``account_exporting``)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from leaderboards import broadcast
from leaderboards.boards import board_of
from leaderboards.models import Result


def results_leave_boards(*, user_id: int, **_: Any) -> None:
    """The account's results are about to go (they cascade with its games): once the
    deletion commits, take those on a board off it (the Redis board; the database board is
    the rows themselves) and tell the boards' pages to fetch again."""
    leaving = [r for r in Result.objects.filter(player_id=user_id, day__isnull=False) if r.on_board]
    if leaving:
        transaction.on_commit(lambda: _leave(leaving), robust=True)


def _leave(results: list[Result]) -> None:
    for result in results:
        board_of(result).remove(result)
        broadcast.board_changed(result)


def results_for_export(*, user_id: int, **_: Any) -> dict[str, Any]:
    """The account's results, for its data download."""
    rows = Result.objects.filter(player_id=user_id).order_by("finished_at", "id")
    return {
        "results": [
            {
                "game": str(r.game_id),
                "day": r.day.isoformat() if r.day else None,
                "variant": r.variant,
                "ranked": r.ranked,
                "status": r.status,
                "review": r.review,
                "outcome": r.outcome,
                "score": r.score,
                "moves": r.moves,
                "duration_ms": r.duration_ms,
                "finished_at": r.finished_at.isoformat(),
            }
            for r in rows
        ]
    }
