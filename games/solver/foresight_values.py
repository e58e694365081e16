"""The values behind the foresight analysis (see :mod:`.foresight`): pure, no Django.

``settle(game)`` plays the moves a plain player would make before turning the
next card (it climbs :func:`~.beam.score`, safe foundation moves first), so a
candidate move is valued by where it leads, not by its first step alone.
``rollout(game, cards)`` then turns the given cards one by one onto the waste
of a copy of the position and places what fits at once (waste top to a
foundation or a column top, column tops to the foundations), and scores how
well the cards fitted.

Both are deterministic functions of the visible position and the cards they
are given: they never read the stock, which is what lets the analysis weigh
the real coming cards and invented ones alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from games.engine import moves as _moves
from games.engine.notation import DRAW, TO_FOUNDATION

from .beam import score

if TYPE_CHECKING:
    from collections.abc import Callable

    from games.engine import GameState
    from games.engine.moves import Record
    from games.engine.notation import Move

    from .heuristics import Knowledge

#: Most moves :func:`settle` plays (a strict climb ends anyway; this bounds the time).
SETTLE_STEPS = 12


def settle(
    game: GameState, know: Knowledge, legal: Callable[[GameState], list[Move]]
) -> list[Record]:
    """Climb the position score without drawing; returns the undo records
    (revert them in reverse order to get the position back)."""
    records = []
    current = score(game)
    for _ in range(SETTLE_STEPS):
        moves = know.ordered(game, legal(game), None)
        if len(moves) == 1 and moves[0].kind == TO_FOUNDATION:
            records.append(_moves.apply(game, moves[0]))  # safe: loses nothing
            current = score(game)
            continue
        best, best_value = None, current + 1e-9
        for move in moves:
            if move.kind == DRAW:
                continue
            record = _moves.apply(game, move)
            value = score(game)
            _moves.revert(game, record)
            if value > best_value:
                best, best_value = move, value
        if best is None:
            break
        records.append(_moves.apply(game, best))
        current = best_value
    return records


def undo(game: GameState, records: list[Record]) -> None:
    for record in reversed(records):
        _moves.revert(game, record)


def rollout(game: GameState, know: Knowledge, cards: Sequence[int]) -> float:
    """Turn ``cards`` one by one onto the waste of a copy of the position and
    place what fits at once (waste top to a foundation or a column top,
    column tops to the foundations), as a quick player would; returns
    ``2 * cards sent home - waste growth``: how well the cards fitted."""
    cols = [list(p) for p in game.piles[1:]]
    waste = list(game.piles[0])
    found = list(game.found)
    fsuit = game.fsuit
    onto = know.onto
    start = len(waste)
    home = 0
    need: dict[int, int] = {}  # card -> foundation that takes it next
    for k, rank in enumerate(found):
        if rank < 13:
            need.setdefault(((rank + 1) << 2) | fsuit[k], k)
    for card in cards:
        waste.append(card)
        moved = True
        while moved:
            moved = False
            if waste:
                top = waste[-1]
                slot = need.get(top)
                if slot is not None:
                    waste.pop()
                    home += _send_home(found, need, fsuit, slot, top)
                    moved = True
                    continue
                for col in cols:
                    if col and top in onto[col[-1]]:
                        col.append(waste.pop())
                        moved = True
                        break
                if moved:
                    continue
            for col in cols:
                if col:
                    slot = need.get(col[-1])
                    if slot is not None:
                        home += _send_home(found, need, fsuit, slot, col.pop())
                        moved = True
    return 2.0 * home - (len(waste) - start)


def _send_home(
    found: list[int], need: dict[int, int], fsuit: Sequence[int], k: int, card: int
) -> int:
    del need[card]
    found[k] += 1
    if found[k] < 13:
        need.setdefault(((found[k] + 1) << 2) | fsuit[k], k)
    # the other foundation of the suit may want the same card next
    for j, rank in enumerate(found):
        if fsuit[j] == fsuit[k] and rank < 13:
            need.setdefault(((rank + 1) << 2) | fsuit[j], j)
    return 1
