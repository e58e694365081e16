"""What the server says on a game socket: every kind of message, defined once.

Each kind is a ``TypedDict``: mypy checks every place that builds one (the socket's
consumer and protocol, the payloads, the broadcast), and building one costs no more than
the dict literal it replaces, on the path every move takes. The same classes validate at
run time through pydantic (:func:`message_problem`, strict, no extra keys): the consumer
tests check every message a socket receives, and a test checks every example of
docs/protocol.md. docs/protocol.md, "Server to client", says why TypedDicts and not
pydantic models.

This module imports nothing of the project, so every layer may build messages with it:
the socket layer, the services, the runtime (the broadcast) and leaderboards (whose board
sockets' own kind is in ``leaderboards.messages``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, NotRequired

from pydantic import ConfigDict, with_config

# pydantic reads a TypedDict on Python 3.11 only from typing_extensions (its own dependency).
from typing_extensions import TypedDict

if TYPE_CHECKING:
    from pydantic import TypeAdapter

# Strict: a number sent as text, or a flag as a number, is a drift, not a coercion.
_WIRE = ConfigDict(strict=True, extra="forbid")

GameStatus = Literal["active", "won", "lost", "resigned"]


Role = Literal["player", "watcher"]


@with_config(_WIRE)
class DealView(TypedDict):
    """A deal as anyone may see it (``payloads.deal_payload``): the code once revealed."""

    id: int
    kind: str
    variant: str
    day: str | None
    code: str | None
    commitment: str | None
    salt: str | None
    opens_at: str | None
    closes_at: str | None
    closed: bool
    difficulty: int | None
    difficulty_stars: int | None
    has_solution: bool


@with_config(_WIRE)
class GameView(TypedDict):
    """A game's full visible state (``selectors.game_state``: ``payloads.game_payload``
    and the visitor's ``role``)."""

    id: str
    player: str
    role: Role
    mode: str
    status: GameStatus
    version: int
    score: int
    moves: int
    auto_home: bool
    deal: DealView
    board: dict[str, Any]  # the engine's view (GameState.view)
    legal_moves: list[str]
    can_undo: bool
    can_finish: bool
    hints: int
    solver_help: bool
    dead_end: bool
    started_at: str | None
    first_action_at: str | None
    finished_at: str | None


@with_config(_WIRE)
class HelloMessage(TypedDict):
    """Right after connecting: the socket's role and the full state."""

    type: Literal["hello"]
    role: Role
    game: GameView


@with_config(_WIRE)
class StateMessage(TypedDict):
    """The answer to a ``sync`` from a client behind (or ahead of) the game."""

    type: Literal["state"]
    game: GameView


@with_config(_WIRE)
class SyncedMessage(TypedDict):
    """The answer to a ``sync`` from a client up to date."""

    type: Literal["synced"]
    version: int


@with_config(_WIRE)
class PongMessage(TypedDict):
    """The answer to a ``ping`` (game and board sockets alike)."""

    type: Literal["pong"]


@with_config(_WIRE)
class ActionMessage(TypedDict):
    """An accepted action, as the game's other sockets see it (no client id)."""

    type: Literal["action"]
    version: int
    action: str
    automatic: list[str]
    changes: dict[str, Any]
    score: int
    moves: int
    status: GameStatus


@with_config(_WIRE)
class AcceptedMessage(TypedDict):
    """An accepted action, to its sender (the socket's answer and the API's)."""

    type: Literal["accepted"]
    id: str | None
    duplicate: bool
    version: int
    action: str
    automatic: list[str]
    changes: dict[str, Any]
    score: int
    moves: int
    status: GameStatus


@with_config(_WIRE)
class DeadEndMessage(TypedDict):
    """The solver's proof that no win is left from the position at ``version``."""

    type: Literal["dead_end"]
    version: int


@with_config(_WIRE)
class HintMessage(TypedDict):
    """A hint, to the socket that asked (and the API's answer, ``id`` null)."""

    type: Literal["hint"]
    id: str | None
    move: str | None
    hints: int
    version: int


@with_config(_WIRE)
class RefusedMessage(TypedDict):
    """A message refused: nothing applied. The optional keys come with some codes."""

    type: Literal["refused"]
    id: str | None
    code: str
    reason: str
    version: NotRequired[int]  # stale_version: the server's
    retry_after: NotRequired[float]  # rate_limited
    rule: NotRequired[str]  # illegal_move: the rule, for the page's own words
    params: NotRequired[dict[str, Any]]


GameMessage = (
    HelloMessage
    | StateMessage
    | SyncedMessage
    | PongMessage
    | ActionMessage
    | AcceptedMessage
    | DeadEndMessage
    | HintMessage
    | RefusedMessage
)

# Every kind a game socket sends, by its ``type``.
GAME_MESSAGES: dict[str, type[Any]] = {
    "hello": HelloMessage,
    "state": StateMessage,
    "synced": SyncedMessage,
    "pong": PongMessage,
    "action": ActionMessage,
    "accepted": AcceptedMessage,
    "dead_end": DeadEndMessage,
    "hint": HintMessage,
    "refused": RefusedMessage,
}


def message_problem(message: Any, kinds: dict[str, type[Any]] = GAME_MESSAGES) -> str | None:
    """What is wrong with ``message`` as a message of one of ``kinds``; ``None`` when it is
    one. For the tests (the server never validates what it built: mypy did).

    >>> message_problem({"type": "synced", "version": 3}) is None
    True
    >>> print(message_problem({"type": "synced", "version": "3"}))
    synced: version: Input should be a valid integer
    >>> print(message_problem({"type": "tada"}))
    no kind of message has type 'tada'
    """
    from pydantic import ValidationError

    kind = message.get("type") if isinstance(message, dict) else None
    if kind not in kinds:
        return f"no kind of message has type {kind!r}"
    try:
        _adapter(kinds[kind]).validate_python(message)
    except ValidationError as error:
        return f"{kind}: " + "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors()
        )
    return None


_adapters: dict[type[Any], TypeAdapter[Any]] = {}


def _adapter(kind: type[Any]) -> TypeAdapter[Any]:
    from pydantic import TypeAdapter

    if kind not in _adapters:
        _adapters[kind] = TypeAdapter(kind)
    return _adapters[kind]
