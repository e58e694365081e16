"""What the server says on an arena socket (``/ws/arenas/<id>/``): every kind, defined
once, as ``games.messages`` defines the game socket's (TypedDicts, validated in the
tests). Names, points and rounds only: never a card, never a game's link."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import with_config
from typing_extensions import TypedDict

from games.messages import _WIRE, PongMessage, RefusedMessage

ArenaState = Literal["upcoming", "running", "finished"]


@with_config(_WIRE)
class StandingRow(TypedDict):
    """One row of the table: ``entry`` is the entry's opaque number, so a page can mark
    its viewer's row without the socket saying who is watching."""

    entry: int
    rank: int
    name: str
    points: int
    rounds_played: int
    left: bool


@with_config(_WIRE)
class StandingsMessage(TypedDict):
    """The table as it stands: on connecting, at each round's open and each settling. The
    top :data:`games.arenas.selectors.LIVE_ROWS` rows, and the viewer's own row after them
    when it is further down (``top`` says how many rows are the top's: a row after them is
    the viewer's own); ``entrants`` counts every row."""

    type: Literal["standings"]
    state: ArenaState
    rounds: int
    entrants: int
    top: int
    rows: list[StandingRow]


ARENA_MESSAGES: dict[str, type[Any]] = {
    "standings": StandingsMessage,
    "pong": PongMessage,
    "refused": RefusedMessage,
}
