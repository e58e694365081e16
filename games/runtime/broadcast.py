"""Telling a game's watchers what happened (called only after the commit), through the
project's one way of sending to a group (``ftsite.group_send``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ftsite.group_send import group_send, group_send_soon
from games.messages import DeadEndMessage
from games.payloads import action_message

if TYPE_CHECKING:
    from games.outcomes import ActOutcome, DeadEndCheck


def game_group(game_id: str) -> str:
    """The channel-layer group of everyone connected to a game."""
    return f"game-{game_id}"


def game_action(result: ActOutcome, *, origin: str = "") -> None:
    """An accepted action to every socket of the game but ``origin``, the channel of the
    socket it came from (which answered its sender itself); "" for the API, a form, the
    server."""
    event = {"type": "game.action", "message": action_message(result), "origin": origin}
    group_send(game_group(result.game_id), event)


def game_dead_end(check: DeadEndCheck) -> None:
    """The solver's proof that no win is left from the game's position ``check.version``."""
    message = DeadEndMessage(type="dead_end", version=check.version)
    group_send(game_group(check.game_id), {"type": "game.action", "message": message})


def duel_group(duel_id: str) -> str:
    """The channel-layer group of a duel's sockets (both players' and the watchers')."""
    return f"duel-{duel_id}"


def duel_event(duel_id: str, message: Mapping[str, Any]) -> None:
    """A duel's message (``games.duels.messages``) to all its sockets, after the commit;
    not waited for (``group_send_soon``): a move's answer does not wait for its progress,
    which the clients order by its version."""
    group_send_soon(duel_group(duel_id), {"type": "duel.event", "message": dict(message)})


def arena_group(arena_id: int | str) -> str:
    """The channel-layer group of an arena's sockets (its page's live table)."""
    return f"arena-{arena_id}"


def arena_event(arena_id: int | str, message: Mapping[str, Any]) -> None:
    """An arena's message (``games.arenas.messages``) to all its sockets, after the commit."""
    group_send(arena_group(arena_id), {"type": "arena.event", "message": dict(message)})
