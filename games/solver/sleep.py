"""Moves that commute: a one-step sleep set for the exhaustive search.

Two moves *commute* at a position ``G`` when both are legal there and playing them in
either order is legal and ends in the same position. Where single cards move and the
foundations never give a card back (the variants :mod:`.movegen` serves, the same ones
as :mod:`.deadlock`'s cuts), a move reads and writes only the piles it names: its
source (a column, or the waste), its destination (a column, or one foundation), and a
draw the stock and the waste. Whether a card move is legal depends only on its source's
top, its destination's top (or emptiness) and the rules; a draw only on the stock. So
two moves that touch disjoint piles commute (:func:`touches` gives each move's piles as
bits). A draw touches the waste, so it never commutes with a move from the waste; two
moves to the same foundation never commute; a redeal (and anything else) touches
everything.

The rule
--------
The search reaches ``P`` from ``G`` by the move ``c``, the ``i``-th child of ``G``'s
list. A move ``m`` among the children ``G`` tried before ``c`` that commutes with ``c``
is *asleep* at ``P``: ``P`` does not try it, because ``P·m = G·c·m = G·m·c`` is one move
from ``G·m``, which ``G`` tried first. Only the moves of ``P``'s own parent are put to
sleep (not, as in a full sleep set, those inherited from further up: the argument below
needs a position one move from the sleeping one).

Soundness (the argument of :mod:`.prove`, with one more kind of edge)
---------------------------------------------------------------------
Give ``P`` a *virtual edge* to ``G·m`` for each asleep move ``m``: when ``P`` is entered,
``G·m``'s key (kept by ``G``'s frame when ``G`` tried ``m``) is either proved lost (in the
table) or still open in Tarjan's bookkeeping, and then ``P``'s ``low`` takes its index,
as for an edge to a position on the search's stack. So, as for every other edge, a
finished component's virtual edges lead into it or into the table.

Suppose a position of a finished component ``C`` had a win. Among those, take one with
the shortest win ``d``, and among them the one found first (smallest index), ``P``. By
the module docstring of :mod:`.prove`, some legal move of ``P`` leads to a position with
a win of length at most ``d - 1`` that the filter keeps, or that the re-move rule skips
(then ``P``'s parent, in ``C`` by the extra edge and found before ``P``, has a win of
length at most ``d``), or that other rules replace by a kept move with the same
property. A kept move ``m`` that is asleep: ``G·m`` has the win ``c`` then ``P·m``'s win,
of length at most ``d``; it is in ``C`` or in the table (the virtual edge), and was found
before ``P`` (``G`` tried ``m`` before ``c``, so its key had its index, or was proved lost,
before ``P`` was entered). In the table it has no win; in ``C`` it has a win no longer
than ``d`` and was found before ``P``: either contradicts the choice of ``P``. A kept move
that is not asleep leads into ``C`` or the table with a win shorter than ``d``: again a
contradiction. So no position of ``C`` has a win. (The measure is the pair shortest win,
index: the re-move rule and the sleeping rule keep the first and lower the second; every
other case lowers the first.)

What it saves: the search re-reaches positions by transposed move orders (round six in
docs/benchmarks.md: half the moves of a 10-s search of deal 5 led to positions already
proved lost); the moves put to sleep are one kind of them, and a position one only an
asleep move led to is not searched at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.engine.notation import DRAW, TO_COLUMN, TO_FOUNDATION, Move

if TYPE_CHECKING:
    from games.engine import GameState

#: The bit of the stock; foundation ``k``'s is ``1 << (FOUNDATION_BIT + k)``; pile ``p``'s
#: (the waste 0, the columns from 1) is ``1 << p``.
STOCK_BIT = 1 << 40
FOUNDATION_BIT = 41
#: What a move no rule above covers touches: everything.
EVERYTHING = -1


def make_touches(game: GameState) -> dict[Move, int] | None:
    """``touches[move] -> bits`` for the game's variant (two moves commute when their bits
    are disjoint; a dict, filled on first use, because the search asks for every move it
    tries), or ``None`` where runs move or foundations give cards back (there a move's
    legality can depend on other piles: no move is put to sleep)."""
    rules = game.rules
    if rules.sequences or rules.takeback:
        return None
    return _Touches()


class _Touches(dict[Move, int]):
    def __missing__(self, move: Move) -> int:
        bits = self[move] = _bits(move)
        return bits


def _bits(move: Move) -> int:
    kind, src, dst, count = move
    if kind == DRAW:
        return STOCK_BIT | 1  # the stock and the waste
    if count != 1:
        return EVERYTHING
    if kind == TO_COLUMN:
        return (1 << src) | (1 << dst)
    if kind == TO_FOUNDATION:
        return (1 << src) | (1 << (FOUNDATION_BIT + dst))
    return EVERYTHING
