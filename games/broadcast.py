"""Telling a game's watchers what happened (called only after the commit)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

if TYPE_CHECKING:
    from games.services import ActResult


def game_group(game_id: str) -> str:
    """The channel-layer group of everyone connected to a game."""
    return f"game-{game_id}"


def action_message(result: ActResult) -> dict[str, Any]:
    """The watchers' copy of an accepted action (no client message id)."""
    return {
        "type": "action",
        "version": result.version,
        "action": result.action,
        "changes": result.changes,
        "score": result.score,
        "moves": result.moves,
        "status": result.status,
    }


def game_action(result: ActResult) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(
        game_group(result.game_id), {"type": "game.action", "message": action_message(result)}
    )
