"""Reads of a game's move log, whichever form it is in: its ``Action`` rows, or after
``manage.py compact_logs`` its ``CompactLog`` blob (``games.logcodec``).

Every reader asks the rows first and the blob only when the rows are not there. That
order is what makes a read safe while a game is being compacted: the compaction deletes
the rows and writes the blob in one transaction, so a read of the rows sees either all of
them (before its commit) or none, and a read of the blob after an empty read of the rows
finds it (after the commit). Reading the blob first could see neither.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.logcodec import LogEntry, log_unpack
from games.models import Action, CompactLog


def game_log(*, game_id: Any) -> list[LogEntry]:
    """The game's whole log in order (an empty list for a game with no action)."""
    rows = list(
        Action.objects.filter(game_id=game_id)
        .order_by("seq")
        .values_list("seq", "move", "by_system", "score", "created_at")
    )
    if rows:
        return [LogEntry(*row) for row in rows]
    return compact_log(game_id=game_id)


def compact_log(*, game_id: Any) -> list[LogEntry]:
    """The game's packed log, or an empty list if it has none (callers that read its rows
    first: see the module's docstring)."""
    data = CompactLog.objects.filter(game_id=game_id).values_list("data", flat=True).first()
    return [] if data is None else log_unpack(data)


def compact_logs(*, game_ids: Iterable[Any]) -> dict[Any, list[LogEntry]]:
    """The packed logs of those of ``game_ids`` that have one, by game id: one query."""
    ids = list(game_ids)
    if not ids:
        return {}
    rows = CompactLog.objects.filter(game_id__in=ids).values_list("game_id", "data")
    return {game_id: log_unpack(data) for game_id, data in rows}
