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

The table key
-------------
The searches (:mod:`.search`) and their :class:`~.search.LostTable` use
:func:`make_table_key`: the same positions up to the same symmetries, but the
columns enter as the *sum* of their hashes, each column's cards hashed as bytes
(SipHash; a multiset hash: the sum does not depend on the columns' order, so no
sort; tuples' hashes are not random enough for a sum: two columns swapping their
top cards often kept it, ``tests/solver/test_key.py``), so that a search can keep
the sum as it plays and update only the one or two columns a move touches
(making every column's tuple and sorting them was 15 % of the exhaustive
search's time). The sum is an integer, hashed with the stock and the waste as
above; two positions whose column multisets differ collide when their sums
agree modulo ``2**61 - 1`` (Python hashes an int modulo that prime), about as
likely as the 64-bit collision above. :func:`make_key_function` keeps the
sorted form: the beam breaks ties of its scores by the key, so its choices
(and the certification's cached verdicts) stay as they were. The beam computes
that same key from parts it keeps up to date (:func:`make_beam_key_parts`).
"""

from __future__ import annotations

from bisect import insort
from functools import cache
from typing import TYPE_CHECKING

from games.engine.notation import (
    DRAW,
    FROM_FOUNDATION,
    REDEAL,
    TO_COLUMN,
    TO_FOUNDATION,
    WASTE,
)

from . import core as _core

if TYPE_CHECKING:
    from collections.abc import Callable, Hashable
    from typing import TypeAlias

    from games.engine import GameState
    from games.engine.notation import Move
    from games.engine.rules import RuleSet

    #: The sorted column entries of :func:`make_beam_key_parts`.
    Entries: TypeAlias = list[tuple[int, ...]]
    #: ``columns(game, cols)``: the entries of the piles ``cols``.
    Columns: TypeAlias = Callable[[GameState, list[tuple[int, ...]]], Entries]
    #: ``recolumn(game, entries, old, cols, changed)``: the same from the entries of the
    #: piles ``old``, where only the piles ``changed`` differ from ``cols``.
    Recolumn: TypeAlias = Callable[
        [GameState, Entries, list[tuple[int, ...]], list[tuple[int, ...]], tuple[int, ...]],
        Entries,
    ]


def make_key_function(game: GameState) -> Callable[[GameState], int]:
    """A fast ``key(game) -> int`` specialised for the game's variant (one per rule set)."""
    return _key_for(game.rules)


def _stock_part(rules: RuleSet) -> Callable[[GameState], Hashable]:
    """The stock's part of a key: its length alone with one pass (the order is the deal's),
    the cards and the redeals left when the waste is turned over again."""
    if rules.redeals:

        def stock(g: GameState) -> Hashable:
            return (g.redeals_left, *g.stock)

    else:

        def stock(g: GameState) -> Hashable:
            return len(g.stock)

    return stock


@cache
def _key_for(rules: RuleSet) -> Callable[[GameState], int]:
    stock = _stock_part(rules)
    if rules.face_down:

        def key(g: GameState) -> int:
            p, d = g.piles, g.down
            cols = sorted([(d[i], *p[i]) for i in range(1, len(p))])
            return hash((stock(g), tuple(p[0]), *cols))

    elif not rules.redeals:

        def key(g: GameState) -> int:
            p = g.piles
            return hash((len(g.stock), tuple(p[0]), *sorted(map(tuple, p[1:]))))

    else:

        def key(g: GameState) -> int:
            p = g.piles
            return hash((stock(g), tuple(p[0]), *sorted(map(tuple, p[1:]))))

    return key


def make_table_key(game: GameState) -> Callable[[GameState], int]:
    """``key(game) -> int`` of the searches' tables (see "The table key"): the key
    :meth:`~.search.Search.run` keeps up to date move by move, computed whole."""
    return _table_key_for(game.rules)


def make_table_key_parts(
    game: GameState,
) -> tuple[Callable[[GameState, int], int], Callable[[GameState, int], int]]:
    """``(column, whole)``: ``column(game, i)`` the hash of column ``i`` (pile ``i`` of
    ``game.piles``, with its face-down count where the variant deals any), and
    ``whole(game, s)`` the table key of ``game`` whose columns' hashes sum to ``s``."""
    backend = _core.current()
    return _column_hash_for(game.rules, backend), _whole_for(game.rules, backend)


@cache
def _column_hash_for(
    rules: RuleSet, backend: str = _core.PYTHON
) -> Callable[[GameState, int], int]:
    compiled = _core.compiled_key(rules) if backend == _core.COMPILED else None
    if compiled is not None:  # the same hashes, computed in C (games/solver/core.py)
        return compiled[0]
    if rules.face_down:

        def column(g: GameState, i: int) -> int:
            return hash(bytes((g.down[i], *g.piles[i])))

    else:

        def column(g: GameState, i: int) -> int:
            return hash(bytes(g.piles[i]))

    return column


@cache
def _whole_for(rules: RuleSet, backend: str = _core.PYTHON) -> Callable[[GameState, int], int]:
    compiled = _core.compiled_key(rules) if backend == _core.COMPILED else None
    if compiled is not None:
        return compiled[1]
    if rules.redeals:

        def whole(g: GameState, s: int) -> int:
            return hash(((g.redeals_left, *g.stock), tuple(g.piles[0]), s))

    else:

        def whole(g: GameState, s: int) -> int:
            return hash((len(g.stock), tuple(g.piles[0]), s))

    return whole


def make_beam_key_parts(
    game: GameState,
) -> tuple[Callable[[GameState], Hashable], Columns, Recolumn]:
    """``(stock, columns, recolumn)`` of :func:`make_key_function`'s key, for a caller
    that keeps the piles as tuples (``cols[i] == tuple(game.piles[i])``): the key is
    ``hash((stock(game), cols[0], *columns(game, cols)))``. The sorted column entries do
    not change while only the stock and the waste do, so the beam reuses them after a
    draw, and ``recolumn`` redoes them for a move's columns alone (sorting every column
    was a twentieth of the beam's time); ``tests/solver/test_beam_same.py`` checks that
    the keys agree."""
    return _beam_key_parts_for(game.rules)


@cache
def _beam_key_parts_for(
    rules: RuleSet,
) -> tuple[Callable[[GameState], Hashable], Columns, Recolumn]:
    stock = _stock_part(rules)
    if rules.face_down:

        def columns(g: GameState, cols: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
            d = g.down
            return sorted([(d[i], *cols[i]) for i in range(1, len(cols))])

        def recolumn(
            g: GameState,
            entries: list[tuple[int, ...]],
            old: list[tuple[int, ...]],
            cols: list[tuple[int, ...]],
            changed: tuple[int, ...],
        ) -> list[tuple[int, ...]]:
            return columns(g, cols)  # a move may turn a card face up: entries remade

    else:

        def columns(g: GameState, cols: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
            return sorted(cols[1:])

        def recolumn(
            g: GameState,
            entries: list[tuple[int, ...]],
            old: list[tuple[int, ...]],
            cols: list[tuple[int, ...]],
            changed: tuple[int, ...],
        ) -> list[tuple[int, ...]]:
            entries = entries.copy()
            for p in changed:
                if p:  # a column (the waste is no entry)
                    entries.remove(old[p])  # an equal entry: the same sorted list after
                    insort(entries, cols[p])
            return entries

    return stock, columns, recolumn


@cache
def _table_key_for(rules: RuleSet) -> Callable[[GameState], int]:
    column, whole = _column_hash_for(rules), _whole_for(rules)

    def key(g: GameState) -> int:
        return whole(g, sum([column(g, i) for i in range(1, len(g.piles))]))

    return key


class PilesTouched(dict["Move", tuple[int, ...]]):
    """``touched[move]``: the piles (the waste 0, the columns from 1) whose cards ``move``
    changes, filled on first use: a card moving between piles its source and destination,
    a card going home its source, a card taken back its destination, a draw or a redeal
    the waste. A face-down count changes only on a pile a move takes cards from, which is
    touched."""

    def __missing__(self, move: Move) -> tuple[int, ...]:
        kind, src, dst, _ = move
        piles: tuple[int, ...]
        if kind == TO_COLUMN:
            piles = (src, dst)
        elif kind == TO_FOUNDATION:
            piles = (src,)
        elif kind == FROM_FOUNDATION:
            piles = (dst,)
        elif kind in (DRAW, REDEAL):
            piles = (WASTE,)
        else:  # a card from one foundation to another: no pile
            piles = ()
        self[move] = piles
        return piles


#: The one table of :class:`PilesTouched` (a move's piles depend on the move alone).
PILES_TOUCHED = PilesTouched()


class ColumnsTouched(dict["Move", tuple[int, ...]]):
    """``touched[move]``: the columns (pile indexes from 1) whose contents or face-down
    count ``move`` changes, filled on first use (the search asks for every move it
    plays): :class:`PilesTouched` without the waste."""

    def __missing__(self, move: Move) -> tuple[int, ...]:
        self[move] = cols = tuple(p for p in PILES_TOUCHED[move] if p != WASTE)
        return cols
