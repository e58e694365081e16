"""Games played through the services for tests: the recorded lost game and a helper that
plays a log (resign included) with the commit callbacks run."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from games import services
from games.models import Game, User

Capture = Callable[..., Any]
#: A practice game lost after its stock ran out, with its known losing move.
LOST = json.loads((Path(__file__).parents[1] / "data" / "lost_game.json").read_text())


def play_all(user: User, game: Game, moves: list[str]) -> Game:
    """Play ``moves`` through the service (what each commit announces is left unrun)."""
    for move in moves:
        services.game_play(user=user, game_id=game.pk, move=move)
    game.refresh_from_db()
    return game


def play(user: User, game: Game, moves: list[str], capture: Capture) -> Game:
    """Play ``moves`` (a ``resign`` ends the game) and run what each commit announces."""
    with capture(execute=True):
        for move in moves:
            if move == "resign":
                services.game_resign(user=user, game_id=game.pk)
            else:
                services.game_play(user=user, game_id=game.pk, move=move)
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
