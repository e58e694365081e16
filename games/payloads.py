"""What clients receive about a game: built from the engine's player view only.

The engine's full dump (with the stock's order and face-down cards) never
leaves the server; every payload here starts from ``Game.view()``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from games.engine import GameState
from games.messages import AcceptedMessage, ActionMessage, GameStatus
from games.models import Game
from games.runtime.live import engine_for, live_position, live_position_keep

if TYPE_CHECKING:
    from games.outcomes import ActOutcome


def game_payload(game: Game, engine: GameState | None = None) -> dict[str, Any]:
    """The whole state of a game as its player (or a watcher) may see it; its position
    from ``engine`` if given, else this process's (see :func:`_position`)."""
    deal = game.deal
    finished = game.is_finished
    return {
        "id": str(game.pk),
        "player": game.player.public_name,
        "mode": game.mode,
        "status": game.status,
        "version": game.version,
        "score": game.score,
        "moves": game.moves,
        # Fixed at the start: the server sends safe cards home after each move.
        "auto_home": game.auto_home,
        "deal": deal_payload(deal),
        **(_position_of(game, engine) if engine is not None else _position(game)),
        "hints": game.hints,
        # Hints and the dead-end notice: practice only, and on a daily deal only once its
        # day has closed (services.game_hint refuses them with day_open until then).
        "solver_help": not game.is_strict and deal.solver_help_open,
        # True only when the solver proved no win is left (see services._act).
        "dead_end": bool(game.dead_end) and not finished,
        "started_at": _iso(game.created_at),
        "first_action_at": _iso(game.first_action_at),
        "finished_at": _iso(game.finished_at),
    }


def _position(game: Game) -> dict[str, Any]:
    """The position's part of a payload, made once a version in this process.

    Every socket's hello carries it: in a reconnect storm (a deploy, a network blip) the
    same games' positions were made again for each socket, the engine's copy, view,
    legal moves and finishing check, a third of a connect thread's work (py-spy,
    docs/benchmarks.md "Session 9"). Kept on the game's live entry
    (``games.runtime.live``) with the version and status it is of, so a move (a new
    version) can never leave an older one to be served. Its lists are shared by the
    payloads that carry it, which are only ever serialised, never changed."""
    held = live_position(game)
    if held is not None:
        return held
    position = _position_of(game, engine_for(game))
    live_position_keep(game, position)
    return position


def _position_of(game: Game, engine: GameState) -> dict[str, Any]:
    finished = game.is_finished
    return {
        "board": engine.view(),
        "legal_moves": [] if finished else engine.legal_moves(),
        "can_undo": not game.is_strict and not finished and engine.can_undo,
        # Every card left can go home with no choice to make: the board offers to finish.
        "can_finish": not finished and bool(engine.finishing_moves()),
    }


def deal_payload(deal: Any) -> dict[str, Any]:
    """A deal as anyone may see it: the code only once it is revealed."""
    revealed = deal.is_revealed
    return {
        "id": deal.pk,
        "kind": deal.kind,
        "variant": deal.variant,
        "day": deal.day.isoformat() if deal.day else None,
        "code": deal.code if revealed else None,
        "commitment": deal.commitment or None,
        "salt": deal.salt if revealed and deal.is_competition else None,
        "opens_at": _iso(deal.opens_at),
        "closes_at": _iso(deal.closes_at),
        "closed": deal.revealed_at is not None,
        # The solver's rating: 1-5 stars, 0 when it found no win in its budget, None when
        # not rated yet. The winning line itself never goes in a payload.
        "difficulty": deal.difficulty,
        "difficulty_stars": deal.difficulty_stars,
        "has_solution": deal.solution_revealed,
    }


def board_changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The parts of the board view that changed: whole piles, keyed by where they are.

    >>> board_changes({"stock": 3, "waste": [], "columns": [{"down": 0, "cards": ["KS"]}]},
    ...               {"stock": 2, "waste": ["QH"], "columns": [{"down": 0, "cards": ["KS"]}]})
    {'stock': 2, 'waste': ['QH']}
    """
    changes: dict[str, Any] = {}
    for key, value in after.items():
        old = before.get(key)
        if value == old:
            continue
        if key in ("columns", "foundations") and isinstance(old, list) and len(old) == len(value):
            changes[key] = {
                str(i): v for i, (o, v) in enumerate(zip(old, value, strict=True)) if o != v
            }
        else:
            changes[key] = value
    return changes


def action_message(result: ActOutcome) -> ActionMessage:
    """An accepted action as everyone connected to the game sees it (no client id)."""
    return ActionMessage(
        type="action",
        version=result.version,
        action=result.action,
        # The server's safe home moves after it (its take-backs before an undo): the
        # version moves on by one for each, and a replay shows them.
        automatic=list(result.automatic),
        changes=result.changes,
        score=result.score,
        moves=result.moves,
        status=cast(GameStatus, result.status),  # a Game.Status value
    )


def accepted_message(result: ActOutcome, client_id: str | None) -> AcceptedMessage:
    """The sender's acknowledgement, the same on the socket and in the API."""
    return {
        **action_message(result),
        "type": "accepted",
        "id": client_id or None,
        "duplicate": result.duplicate,
    }


def _iso(moment: Any) -> str | None:
    return moment.isoformat() if moment else None
