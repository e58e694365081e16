"""A faster ``moves.legal`` for the variants where only single cards move.

:func:`games.engine.moves.legal` serves every variant and dominated the
solver's time (about 60 µs a position). In the variants without runs
(``sequences`` off) and without foundation take-back, every card move takes
the top card of a pile, so the legal moves can be listed from the tops alone:
a table says onto which cards each card may go (read from the engine's own
build table, so no rule is restated), a dict maps each column top to its
columns, and the foundations of the card's suit are checked directly.

The generator returns exactly the list ``moves.legal`` returns, in the same
order (``tests/solver`` checks this on many random positions of every such
variant); the other variants use ``moves.legal`` itself. The moves are still
played with ``moves.apply``, which refuses anything illegal, and every line
the solver returns is replayed by the engine.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from games.engine import moves as _moves
from games.engine.cards import KING
from games.engine.notation import DRAW_MOVE, REDEAL_MOVE, TO_COLUMN, TO_FOUNDATION, Move

from . import core as _core

if TYPE_CHECKING:
    from collections.abc import Callable

    from games.engine import GameState
    from games.engine.rules import RuleSet


def make_generator(game: GameState) -> Callable[[GameState], list[Move]]:
    """``legal(game) -> list[Move]`` equal to ``moves.legal`` for the game's variant
    (made once per rule set: its tables depend on nothing else)."""
    return _generator_for(game.rules, len(game.piles), _core.current())


@cache
def _generator_for(rules: RuleSet, npiles: int, backend: str) -> Callable[[GameState], list[Move]]:
    if rules.sequences or rules.takeback:
        return _moves.legal
    table = rules.build_table
    fsuit = tuple(rules.foundation_suit(k) for k in range(rules.foundations))
    columns = range(1, npiles)
    kings_only = rules.space == "kings"
    #: ``ontos[card]``: the cards ``card`` may go onto in a column.
    ontos: list[tuple[int, ...]] = [
        tuple(o for o in range(64) if table[(o << 6) | c]) for c in range(64)
    ]
    #: ``homes[card]``: (foundation, rank it must show) pairs for ``card``.
    homes: list[tuple[tuple[int, int], ...]] = [
        tuple((k, (c >> 2) - 1) for k in range(len(fsuit)) if fsuit[k] == c & 3) for c in range(64)
    ]
    #: may ``card`` fill an empty column (as the top of a pile of 2+ or the waste)?
    to_space = [not (kings_only and c >> 2 != KING) for c in range(64)]
    found_move = [[Move(TO_FOUNDATION, s, k, 1) for k in range(len(fsuit))] for s in range(npiles)]
    col_move = [[Move(TO_COLUMN, s, d, 1) for d in range(npiles)] for s in range(npiles)]
    compiled = _core.compiled() if backend == _core.COMPILED else None
    if compiled is not None:  # the same list, computed in C (games/solver/core.py)
        return _core.compiled_legal(compiled, rules, npiles, homes, to_space, found_move, col_move)

    def legal(g: GameState) -> list[Move]:
        piles, found = g.piles, g.found
        if g.stock:
            result = [DRAW_MOVE]
        elif g.redeals_left and piles[0]:
            result = [REDEAL_MOVE]
        else:
            result = []
        append = result.append
        where: dict[int, list[int]] = {}
        empties: list[int] = []
        for d in columns:
            p = piles[d]
            if p:
                top = p[-1]
                if top in where:
                    where[top].append(d)
                else:
                    where[top] = [d]
            else:
                empties.append(d)
        for src, pile in enumerate(piles):
            if not pile:
                continue
            card = pile[-1]
            fm = found_move[src]
            for k, below in homes[card]:
                if found[k] == below:
                    append(fm[k])
            dsts = None
            for onto in ontos[card]:
                hit = where.get(onto)
                if hit:
                    dsts = hit if dsts is None else dsts + hit
            if empties and to_space[card] and (src == 0 or len(pile) > 1):
                dsts = empties if dsts is None else dsts + empties
            if dsts:
                cm = col_move[src]
                if len(dsts) > 1:
                    dsts = sorted(dsts)
                for d in dsts:
                    append(cm[d])
        return result

    return legal
