"""The full state of a game as JSON-ready data, and back.

Unlike :meth:`GameState.view`, a dump holds the hidden cards (the stock's order,
face-down cards) and the undo history: it is for the server's storage, never
for a player.

>>> from games.engine import GameState
>>> game = GameState.from_seed(3)
>>> game.play("s")
>>> again = GameState.load(game.dump())
>>> again.dump() == game.dump()
True
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from .cards import format_card, parse_card
from .errors import EngineError, InvalidLayout
from .notation import format_move, parse_move
from .rules import parse_variant

if TYPE_CHECKING:
    from .game import GameState

FORMAT = 1


def dump(game: GameState, *, history: bool = True) -> dict[str, Any]:
    kept = game._history if history else None
    return {
        "format": FORMAT,
        "variant": game.rules.spec,
        "seed": game.seed,
        "columns": [[format_card(c) for c in pile] for pile in game.piles[1:]],
        "down": game.down[1:],
        "waste": [format_card(c) for c in game.piles[0]],
        "stock": [format_card(c) for c in reversed(game.stock)],
        "foundations": list(game.found),
        "score": game.score,
        "moves": game._moves,
        "redeals_left": game.redeals_left,
        "undo_limit": kept.maxlen if kept is not None else 0,
        "history": [[format_move(m), s, d] for m, s, d in kept or ()],
    }


def load(cls: type[GameState], data: dict[str, Any]) -> GameState:
    try:
        if data.get("format") != FORMAT:
            raise InvalidLayout(f"a dump of format {FORMAT} was expected")
        rules = parse_variant(data["variant"])
        game = cls(
            rules,
            [[parse_card(c) for c in col] for col in data["columns"]],
            [parse_card(c) for c in data["stock"]],
            waste=[parse_card(c) for c in data["waste"]],
            foundations=[int(r) for r in data["foundations"]],
            down=[int(d) for d in data["down"]],
            undo_limit=int(data["undo_limit"]),
        )
        game.seed = data["seed"]
        game.score = int(data["score"])
        game._moves = int(data["moves"])
        game.redeals_left = int(data["redeals_left"])
        if game._history is not None:
            game._history.extend((parse_move(m), int(s), int(d)) for m, s, d in data["history"])
        elif data["history"]:
            raise InvalidLayout("a dump without undo cannot carry an undo history")
    except EngineError:
        raise
    except (KeyError, TypeError, ValueError) as err:
        raise InvalidLayout(f"not a dump of a game: {err!r}") from None
    return game


def copy(game: GameState) -> GameState:
    """What ``load(dump(game))`` gives, slot by slot: beside them, so a new slot is added
    to all three in one place."""
    new = type(game).__new__(type(game))
    new.rules = game.rules
    new.seed = game.seed
    new.piles = [pile[:] for pile in game.piles]
    new.down = game.down[:]
    new.stock = game.stock[:]
    new.found = game.found[:]
    new.fsuit = game.fsuit
    new._table = game._table
    new.home = game.home
    new.score = game.score
    new._moves = game._moves
    new.redeals_left = game.redeals_left
    # Records are tuples of a NamedTuple and ints: shared safely.
    history = game._history
    new._history = None if history is None else deque(history, maxlen=history.maxlen)
    return new


__all__ = ["FORMAT", "copy", "deque", "dump", "load"]
