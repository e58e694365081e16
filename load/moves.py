"""What a benchmark player knows of its game, and which move it plays next.

The policy keeps every game going for ever at 1 move/s: random legal moves, but never the
last card of the stock. While the stock holds a card, drawing is legal, so the game can be
neither stuck nor won (a win needs every card home), and a finished game would refuse even
an undo. When nothing but that last draw is left, it takes a move back instead (practice
games keep 100 of them). Redeals (``r``) only when nothing else is legal.

Consequence for the figures: a game never reaches an empty stock, so the dead-end search
the server runs after each move of a spent stock (``FT_DEAD_END_MS``) is not measured.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

REDEAL, DRAW = "r", "s"


@dataclass
class Board:
    version: int
    legal: list[str]
    stock: int
    can_undo: bool

    @classmethod
    def of(cls, game: dict[str, Any]) -> Board:
        """From the full state of a ``hello`` or ``state``."""
        board = game.get("board") or {}
        return cls(
            version=int(game["version"]),
            legal=list(game.get("legal_moves") or []),
            stock=int(board.get("stock", 0)),
            can_undo=bool(game.get("can_undo", board.get("can_undo", False))),
        )

    def apply(self, accepted: dict[str, Any]) -> None:
        """An ``accepted`` answer: its ``changes`` hold only the parts that changed."""
        self.version = int(accepted["version"])
        changes = accepted.get("changes") or {}
        if "legal_moves" in changes:
            self.legal = list(changes["legal_moves"])
        if "stock" in changes:
            self.stock = int(changes["stock"])
        if "can_undo" in changes:
            self.can_undo = bool(changes["can_undo"])


def choose(board: Board, rng: random.Random, *, strict: bool = False) -> tuple[str, str | None]:
    """The next action: ``("move", notation)`` or ``("undo", None)``. A ``strict`` game (a
    duel's, a ranked one) has no undo: when only the last draw is left, it is drawn (the
    game may then end, which a duel's time control bounds anyway).

    >>> choose(Board(3, ["s", "t1-t2"], 1, True), random.Random(0))
    ('move', 't1-t2')
    >>> choose(Board(3, ["s"], 1, True), random.Random(0))
    ('undo', None)
    >>> choose(Board(3, ["r", "s"], 9, False), random.Random(0))
    ('move', 's')
    >>> choose(Board(3, ["s"], 1, True), random.Random(0), strict=True)
    ('move', 's')
    """
    options = [m for m in board.legal if m != REDEAL and not (m == DRAW and board.stock <= 1)]
    if options:
        return "move", rng.choice(options)
    if board.can_undo and not strict:
        return "undo", None
    if board.legal:  # alone with a redeal or the last draw, and nothing to take back
        return "move", rng.choice(board.legal)
    return "undo", None
