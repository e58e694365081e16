"""Position keys for the transposition table.

A key identifies a position up to the symmetries that cannot change its
outcome, so that two move orders reaching the "same" position are searched
once:

* **Columns are interchangeable.** No rule refers to a column's number (every
  rule in :mod:`games.engine.moves` treats columns alike), so the columns are
  sorted in the key: a position and any permutation of its columns have the
  same winning lines up to renaming the columns. Empty columns become equal
  empty tuples, so "which empty column" never splits the search.
* **Foundations are left out.** Every card is somewhere; the cards not in a
  pile, the waste or the stock are home. For each suit the home cards fix the
  multiset of the ranks of that suit's foundations (the ranks where both
  copies are home are below the lower foundation, ...), and the two
  foundations of a suit are interchangeable like columns.
* **The stock is its length** when the variant has no redeal: the stock's
  order never changes (only a draw touches it), so within one search its
  length says which cards remain. A redeal rebuilds the stock from the
  waste, so with redeals the stock's cards and the redeals left are keyed.
* **Face-down counts** are part of a column's entry when the variant deals
  face-down cards (a face-down card cannot move, so two columns holding the
  same cards but different numbers face down differ).

The key kept in the table is Python's 64-bit ``hash`` of the tuple, not the
tuple: a few hundred bytes less per position. Two different positions collide
with probability about ``n**2 / 2**64`` for ``n`` stored positions (below
1e-7 for a million), the one way a "lost" verdict could be wrong; a "win" is
never affected (every line is replayed by the engine).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Hashable

    from games.engine import GameState
    from games.engine.rules import RuleSet


def make_key_function(game: GameState) -> Callable[[GameState], int]:
    """A fast ``key(game) -> int`` specialised for the game's variant (one per rule set)."""
    return _key_for(game.rules)


@cache
def _key_for(rules: RuleSet) -> Callable[[GameState], int]:
    if rules.redeals:

        def stock(g: GameState) -> Hashable:
            return (g._redeals_left, *g._stock)

    else:

        def stock(g: GameState) -> Hashable:
            return len(g._stock)

    if rules.face_down:

        def key(g: GameState) -> int:
            p, d = g._piles, g._down
            cols = sorted([(d[i], *p[i]) for i in range(1, len(p))])
            return hash((stock(g), tuple(p[0]), *cols))

    elif not rules.redeals:

        def key(g: GameState) -> int:
            p = g._piles
            return hash((len(g._stock), tuple(p[0]), *sorted(map(tuple, p[1:]))))

    else:

        def key(g: GameState) -> int:
            p = g._piles
            return hash((stock(g), tuple(p[0]), *sorted(map(tuple, p[1:]))))

    return key
