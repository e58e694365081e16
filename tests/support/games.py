"""Games played through the services for tests: one action by kind (``game_play``,
``game_undo``, ``game_resign``: the service every interface calls, ``game_act``, as the
API and the socket call it), the recorded lost game and a helper that plays a log (resign
included) with the commit callbacks run."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from games import services
from games.models import Game, User
from games.outcomes import ActOutcome

Capture = Callable[..., Any]


def game_play(
    *, user: User, game_id: object, move: str, client_id: str = "", version: int | None = None
) -> ActOutcome:
    """Play one move in the engine's notation."""
    return services.game_act(
        user=user, game_id=game_id, kind="move", move=move, client_id=client_id, version=version
    )


def game_undo(
    *, user: User, game_id: object, client_id: str = "", version: int | None = None
) -> ActOutcome:
    """Take back the last action (practice games only)."""
    return services.game_act(
        user=user, game_id=game_id, kind="undo", client_id=client_id, version=version
    )


def game_resign(
    *, user: User, game_id: object, client_id: str = "", version: int | None = None
) -> ActOutcome:
    """End the game; it counts as a loss."""
    return services.game_act(
        user=user, game_id=game_id, kind="resign", client_id=client_id, version=version
    )


#: A practice game lost after its stock ran out, with its known losing move.
LOST = json.loads((Path(__file__).parents[1] / "data" / "lost_game.json").read_text())


def play_all(user: User, game: Game, moves: list[str]) -> Game:
    """Play ``moves`` through the service (what each commit announces is left unrun)."""
    for move in moves:
        game_play(user=user, game_id=game.pk, move=move)
    game.refresh_from_db()
    return game


def play(user: User, game: Game, moves: list[str], capture: Capture) -> Game:
    """Play ``moves`` (a ``resign`` ends the game) and run what each commit announces."""
    with capture(execute=True):
        for move in moves:
            if move == "resign":
                game_resign(user=user, game_id=game.pk)
            else:
                game_play(user=user, game_id=game.pk, move=move)
    game.refresh_from_db()
    return game


def apply_changes(view: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """The view after ``changes`` (as :func:`games.payloads.board_changes` gives them):
    what the browser's apply-changes module does, written here as the tests' reference."""
    after = dict(view)
    for key, value in changes.items():
        if key in ("columns", "foundations") and isinstance(value, dict):
            piles = list(after[key])
            for index, pile in value.items():
                piles[int(index)] = pile
            after[key] = piles
        else:
            after[key] = value
    return after
