"""Telling live board pages that a day's board changed (after the commit)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.broadcast import group_nudge

if TYPE_CHECKING:
    from leaderboards.models import Result


def board_group(day: str, variant: str, weekly: bool = False) -> str:
    # One weekly challenge a week: its group needs no variant (nor a read to find it).
    return f"board-weekly-{day}" if weekly else f"board-{variant}-{day}"


def board_changed(result: Result) -> None:
    if result.day is None:
        return
    group_nudge(
        board_group(result.day.isoformat(), result.variant, result.weekly),
        {"type": "board.changed", "message": {"type": "board", "result_id": result.pk}},
    )
