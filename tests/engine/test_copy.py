"""``GameState.copy``: the same position and history as ``load(dump())``, and independent of
the original (a socket's hello copies its game's held engine while actions play on it)."""

from __future__ import annotations

import random

from games.engine import GameState
from tests.support.engine import random_walk


def _played(seed: int, moves: int, *, undo_limit: int = 100) -> GameState:
    return random_walk(GameState.from_seed(seed, undo_limit=undo_limit), random.Random(seed), moves)


#: Every slot of a game, its view's (``SearchView``) and its own: a copy must carry them all.
SLOTS = [name for cls in GameState.__mro__ for name in getattr(cls, "__slots__", ())]


def _slots(game: GameState) -> dict[str, object]:
    values = {name: getattr(game, name) for name in SLOTS}
    history = values["_history"]
    values["_history"] = None if history is None else (list(history), history.maxlen)
    return values


def test_it_copies_every_slot_as_load_of_dump_does() -> None:
    for seed, moves, undo in [(1, 0, 100), (7, 40, 100), (11, 150, 5), (3, 60, 0)]:
        game = _played(seed, moves, undo_limit=undo)
        copied = game.copy()
        assert _slots(copied) == _slots(game) == _slots(GameState.load(game.dump()))
        assert copied.dump() == game.dump()


def test_the_copy_and_the_original_change_apart() -> None:
    game = _played(5, 30)
    before = game.dump()
    copied = game.copy()
    for _ in range(20):
        legal = copied.legal_moves()
        if not legal:
            break
        copied.play(legal[-1])
    if copied.can_undo:
        copied.undo()
    assert game.dump() == before
    # (the history too: the dump compared above holds it)
    for name in ("piles", "down", "stock", "found"):
        assert getattr(copied, name) is not getattr(game, name)
    assert all(a is not b for a, b in zip(copied.piles, game.piles, strict=True))
