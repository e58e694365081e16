"""Telling a game's watchers what happened (called only after the commit)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.payloads import action_message

if TYPE_CHECKING:
    from games.services import ActResult


def game_group(game_id: str) -> str:
    """The channel-layer group of everyone connected to a game."""
    return f"game-{game_id}"


def game_action(result: ActResult) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(
        game_group(result.game_id), {"type": "game.action", "message": action_message(result)}
    )
