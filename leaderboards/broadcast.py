"""Telling live board pages that a day's board changed (after the commit), the global one
and the leagues' boards of the result's player."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ftsite.group_send import group_nudge
from ftsite.pagecache import pages_stale
from leaderboards.leagues.broadcast import member_result_changed
from leaderboards.messages import BoardMessage

if TYPE_CHECKING:
    from leaderboards.models import Result


def board_group(day: str, variant: str, weekly: bool = False) -> str:
    # One weekly challenge a week: its group needs no variant (nor a read to find it).
    return f"board-weekly-{day}" if weekly else f"board-{variant}-{day}"


def board_changed(result: Result) -> None:
    # Every board and scorecard a visitor reads from the page store may show it: all stale.
    pages_stale()
    if result.day is None:
        return
    group_nudge(
        board_group(result.day.isoformat(), result.variant, result.weekly),
        {"type": "board.changed", "message": BoardMessage(type="board", result_id=result.pk)},
    )
    # The player's league boards are the same board filtered to members: they change too.
    member_result_changed(result)
