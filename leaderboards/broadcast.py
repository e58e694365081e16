"""Telling live board pages that a day's board changed (after the commit)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

if TYPE_CHECKING:
    from leaderboards.models import Result


def board_group(day: str, variant: str) -> str:
    return f"board-{variant}-{day}"


def board_changed(result: Result) -> None:
    layer = get_channel_layer()
    if layer is None or result.day is None:
        return
    async_to_sync(layer.group_send)(
        board_group(result.day.isoformat(), result.variant),
        {"type": "board.changed", "message": {"type": "board", "result_id": result.pk}},
    )
