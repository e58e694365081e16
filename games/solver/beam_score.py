"""The beam's score (:func:`.beam.score`) kept pile by pile, so a move rescores two piles.

:func:`.beam.score` walks every card of every pile; the beam scores every position it
lists (most of them one draw or one move from a position it scored already), and that
walk was the largest share of a beam's time (docs/benchmarks.md, round ten). Here each
pile has a :data:`PileInfo`: what the score needs from that pile alone, made from the
pile below it plus the card on top (:func:`push`), and holding that pile's info
(``below``), so a card leaving the top goes back to an info already made. A position's
score is then a sum over its piles' infos (:func:`score_of`), equal to
:func:`.beam.score` to the last bit: the same integers, combined by the same float
operations in the same order (``tests/solver/test_beam_same.py``).

Every move of the family changes piles only at their tops (a draw adds to the waste, a
redeal empties it, a card moves from the top of one pile to the top of another), so
:func:`moved` turns a pile's old info into its new one by popping and pushing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TypeAlias

    from .beam import Weights

    #: (burial, card mask, records, the pile without its top card's info or None):
    #: burial is the pile's term of :func:`.beam.score` (the sum of depth * (14 - rank)
    #: over the cards lower than every card above them), the mask has bit ``card`` set
    #: for each card in the pile, the records are those cards as (depth, rank) pairs
    #: from the top (ranks falling as the depth grows).
    PileInfo: TypeAlias = "tuple[int, int, tuple[tuple[int, int], ...], PileInfo | None]"

#: The info of an empty pile.
EMPTY: PileInfo = (0, 0, (), None)


def push(info: PileInfo, card: int) -> PileInfo:
    """The info of the pile ``info`` describes with ``card`` put on top."""
    r = card >> 2
    records = [(0, r)]
    bury = 0
    for d, q in info[2]:
        if q < r:  # lower than the new top card and every card above it: a record still
            d += 1
            records.append((d, q))
            bury += d * (14 - q)
    return (bury, info[1] | (1 << card), tuple(records), info)


def pile_info(cards: tuple[int, ...] | list[int]) -> PileInfo:
    """The info of a pile holding ``cards`` (bottom first)."""
    info = EMPTY
    for card in cards:
        info = push(info, card)
    return info


def moved(info: PileInfo, old: tuple[int, ...], new: tuple[int, ...]) -> PileInfo:
    """The info of ``new``, a pile that was ``old`` (described by ``info``) before a move
    took cards off its top or put cards on it."""
    n, o = len(new), len(old)
    while o > n:
        info = info[3]  # type: ignore[assignment]  # a pile of o cards has a below
        o -= 1
    while o < n:
        info = push(info, new[o])
        o += 1
    return info


class Needs(dict[tuple[int, ...], tuple[int, tuple[int, ...]]]):
    """``needs[found]``: (mask, order) of the cards the foundations ``found`` need next:
    the mask of those cards, and the card of each foundation not yet full in foundation
    order (the order :func:`.beam.score` subtracts their depths in)."""

    def __init__(self, fsuit: list[int] | tuple[int, ...]) -> None:
        super().__init__()
        self.fsuit = tuple(fsuit)

    def __missing__(self, found: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        order = tuple(
            ((rank + 1) << 2) | self.fsuit[k] for k, rank in enumerate(found) if rank < 13
        )
        mask = 0
        for card in order:
            mask |= 1 << card
        self[found] = value = (mask, order)
        return value


def base_of(cols: list[tuple[int, ...]], bury: int, home: int, weights: Weights) -> float:
    """:func:`.beam.score` but for the depths of the cards the foundations need next, of the
    position whose piles are ``cols`` (waste first), with ``bury`` the sum of its piles'
    burials: an upper bound of the score when those depths weigh ``>= 0`` (each only
    subtracts, and a float less a float ``>= 0`` is never more)."""
    w_home, w_empty, w_bury, _, w_waste = weights
    total = w_home * home - w_waste * len(cols[0])
    empty = cols.count(()) - (not cols[0])  # empty columns; the waste is no column
    return total + (w_empty * empty - w_bury * bury)


def score_from(
    base: float,
    cols: list[tuple[int, ...]],
    infos: list[PileInfo],
    need: tuple[int, tuple[int, ...]],
    w_next: float,
) -> float:
    """:func:`.beam.score` of the position ``base`` is :func:`base_of`, with pile infos
    ``infos`` and ``need = needs[found]``, ``w_next`` the weight of the depths."""
    nmask, order = need
    depth: dict[int, int] = {}
    i = 0
    for info in infos:
        hit = info[1] & nmask
        if hit:
            # cards a foundation needs are in this pile: their shallowest copies' depths
            top_first = cols[i][::-1]
            while hit:
                card = hit.bit_length() - 1
                hit ^= 1 << card
                d = top_first.index(card)
                if d < depth.get(card, 99):
                    depth[card] = d
        i += 1  # noqa: SIM113 - cheaper than enumerate in this hot loop
    total = base
    if depth:
        for card in order:
            if card in depth:
                total -= w_next * depth[card]
    return total


def score_of(
    cols: list[tuple[int, ...]],
    infos: list[PileInfo],
    home: int,
    need: tuple[int, tuple[int, ...]],
    weights: Weights,
) -> float:
    """:func:`.beam.score` of the position whose piles are ``cols`` (waste first) with
    infos ``infos``, ``home`` cards home and ``need = needs[found]``."""
    bury = sum([info[0] for info in infos])
    return score_from(base_of(cols, bury, home, weights), cols, infos, need, weights[3])
