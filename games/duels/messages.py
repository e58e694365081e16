"""What the server says on a duel socket (``/ws/duels/<id>/``): every kind, defined once,
as ``games.messages`` defines the game socket's (TypedDicts, validated in the tests).

None of them ever carries a card: a seat's position is told in counts (cards home, stock
left, score, moves), so neither the opponent nor a watcher learns a card the player has
turned (docs/protocol.md, "The duel socket"; tests/games/test_duel_socket.py checks it).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import with_config
from typing_extensions import TypedDict

from games.messages import _WIRE, GameStatus, PongMessage, RefusedMessage

DuelState = Literal["waiting", "running", "finished", "cancelled"]


@with_config(_WIRE)
class SeatView(TypedDict):
    """One seat as everyone sees it: counts, never a card."""

    seat: int
    name: str
    rating: int
    home: int
    stock: int
    score: int
    moves: int
    version: int
    status: GameStatus | None
    time_ms: int | None  # from the start to the game's finish, once it has finished
    connected: bool
    forfeited: bool
    place: int | None
    # The seat's game, for its replay: only once the deal is revealed (both games over).
    replay_game_id: str | None


@with_config(_WIRE)
class DuelView(TypedDict):
    """A duel's state (``games.duels.selectors.duel_view``)."""

    id: str
    state: DuelState
    rated: bool
    variant: str
    time_control: int
    started_at: str | None
    ends_at: str | None
    ended_at: str | None
    server_now: str
    outcome: str
    role: Literal["player", "watcher"]
    seat: int | None  # the viewer's
    game_id: str | None  # the viewer's own game, never the other's
    commitment: str | None  # the deal's, from the start; its code once every game is over
    code: str | None
    grace_seconds: int
    seats: list[SeatView]


@with_config(_WIRE)
class DuelMessage(TypedDict):
    """On connecting and on a ``sync``: the whole duel."""

    type: Literal["duel"]
    duel: DuelView


@with_config(_WIRE)
class ProgressMessage(TypedDict):
    """After each committed action of a seat's game: its counts."""

    type: Literal["progress"]
    seat: int
    home: int
    stock: int
    score: int
    moves: int
    version: int
    status: GameStatus
    time_ms: int | None


@with_config(_WIRE)
class PresenceMessage(TypedDict):
    """A seat's duel sockets: some open (connected) or none (the grace period runs)."""

    type: Literal["presence"]
    seat: int
    connected: bool


@with_config(_WIRE)
class DuelEndMessage(TypedDict):
    """The duel is decided (``places`` in seat order; ``[1, 1]`` a tie)."""

    type: Literal["duel_end"]
    outcome: str
    places: list[int]


@with_config(_WIRE)
class StartedMessage(TypedDict):
    """A waiting duel has its two players: the clock starts at ``started_at``."""

    type: Literal["started"]
    started_at: str


@with_config(_WIRE)
class RematchMessage(TypedDict):
    """One player offered a rematch: the new duel's id (its page, its socket)."""

    type: Literal["rematch"]
    duel_id: str


DUEL_MESSAGES: dict[str, type[Any]] = {
    "started": StartedMessage,
    "rematch": RematchMessage,
    "duel": DuelMessage,
    "progress": ProgressMessage,
    "presence": PresenceMessage,
    "duel_end": DuelEndMessage,
    "pong": PongMessage,
    "refused": RefusedMessage,
}
