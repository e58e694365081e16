"""What the play services hand back: plain records the payloads and the broadcast build
their messages from. They live below the services so that those modules need not import
the services (which import them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class DeadEndCheck:
    """A position to ask the solver about after the action was answered: whether any win
    is left (``games.solver.is_dead``). ``state`` is the engine's dump, for the pool."""

    game_id: str
    version: int
    state: dict[str, Any]


@dataclass(frozen=True)
class Origin:
    """Where an action came from, for what follows it (``game_act_follow_up``): the
    socket's channel, which answered its sender itself and never gets its own action back
    from the game's group, and whether any other socket listens (a socket alone on its
    game saves the group's round trip). The API and the form have no channel: everyone
    listening hears of their actions."""

    channel: str = ""
    peers: bool = True


@dataclass(frozen=True)
class ActOutcome:
    """What an accepted action did, for the player's acknowledgement and the watchers."""

    game_id: str
    version: int
    action: str
    score: int
    moves: int
    status: str
    changes: dict[str, Any] = field(default_factory=dict)
    duplicate: bool = False
    # The server's own actions the action brought, in the log's order after (for an undo:
    # before) it: safe cards sent home, or their take-back. ``version`` counts them too.
    automatic: tuple[str, ...] = ()
    # Set when the new position may be a dead end: the interface that answered the action
    # has the solver decide it afterwards (never on the move path).
    dead_end_check: DeadEndCheck | None = None
    # A duel's game: the counts the opponent and the watchers see (cards home, stock
    # left), never a card (games.services.duels.duel_progress).
    progress: DuelCounts | None = None


@dataclass(frozen=True)
class DuelCounts:
    """What a duel game's position shows the other side: counts only."""

    home: int
    stock: int


@dataclass(frozen=True)
class HintOutcome:
    """A hint: the move (``None`` when there is none), the hints taken so far, and the
    version of the game the hint was computed for."""

    game_id: str
    move: str | None
    hints: int
    version: int
