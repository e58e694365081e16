"""Telling live league board pages that their board changed (after the commit).

A league board is the global day board filtered to members, so it changes when a member's
result joins or leaves the global board (:func:`leaderboards.broadcast.board_changed` calls
:func:`member_result_changed`) and when a member joins or leaves (:func:`league_changed`).
Like the global board's, the nudge carries no board data: the page refetches its rows,
which checks membership again.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING

from django.utils import timezone

from ftsite.group_send import group_nudge
from games.daily import utc_today
from leaderboards.messages import BoardMessage

if TYPE_CHECKING:
    from leaderboards.models import Result


def league_group(league_id: int, day: str) -> str:
    return f"league-{league_id}-{day}"


def _nudge(league_id: int, day: date, result_id: int | None) -> None:
    group_nudge(
        league_group(league_id, day.isoformat()),
        {"type": "board.changed", "message": BoardMessage(type="board", result_id=result_id)},
    )


def member_result_changed(result: Result) -> None:
    """``result`` joined or left its day's board: tell the boards of its player's leagues."""
    # Imported here: leaderboards.broadcast (which imports this module) loads before the
    # app registry is ready in some entry points (the ASGI application).
    from leaderboards.leagues.models import Membership

    if result.day is None:
        return
    league_ids = Membership.objects.filter(user_id=result.player_id).values_list(
        "league_id", flat=True
    )
    for league_id in league_ids:
        _nudge(league_id, result.day, result.pk)


def leagues_nudge(*, league_ids: list[int], day: date, result_id: int | None = None) -> None:
    for league_id in league_ids:
        _nudge(league_id, day, result_id)


def league_changed(*, league_id: int) -> None:
    """A member joined or left: the live league boards (today's, and yesterday's until its
    deal is revealed) may change."""
    today = utc_today(timezone.now())
    for day in (today, today - timedelta(days=1)):
        _nudge(league_id, day, None)
