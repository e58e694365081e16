"""The values behind the foresight analysis (see :mod:`.foresight`): pure, no Django.

``next_card_values(game, cards)`` answers, for one position and every card
that may be turned next, "how good is the position once that card is turned
and placed as well as it can be at once": the :func:`~.beam.score` after the
card goes to its best immediate place (a foundation or a column top), or
onto the waste when it fits nowhere. ``settle(game)`` plays the moves a
sensible player would make before turning the next card (it climbs the same
score, safe foundation moves first), so a candidate move is valued by where
it leads, not by its first step alone.

Both are deterministic functions of the visible position and the card: they
never read the stock, which is what makes the statistic calibrated.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.engine import moves as _moves
from games.engine.notation import DRAW, TO_FOUNDATION

from .beam import W_WASTE, score

if TYPE_CHECKING:
    from collections.abc import Callable

    from games.engine import Game
    from games.engine.notation import Move

    from .heuristics import Knowledge

#: Most moves :func:`settle` plays (a strict climb ends anyway; this bounds the time).
SETTLE_STEPS = 12


def settle(game: Game, know: Knowledge, legal: Callable[[Game], list[Move]]) -> list:
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


def undo(game: Game, records: list) -> None:
    for record in reversed(records):
        _moves.revert(game, record)


def next_card_values(game: Game, know: Knowledge, cards: list[int]) -> list[float]:
    """For each card, the score once it is turned and placed at once (see above).

    A card that fits nowhere lands on the waste: a fixed penalty for all such
    cards (where it lands in the waste changes nothing else at once)."""
    piles, found, fsuit = game._piles, game._found, game._fsuit
    base = score(game)
    miss = base - W_WASTE
    homes: dict[int, int] = {}
    for k, rank in enumerate(found):
        if rank < 13:
            homes.setdefault(((rank + 1) << 2) | fsuit[k], k)
    ontos: dict[int, list[int]] = {}
    for d in range(1, len(piles)):
        pile = piles[d]
        if pile:
            for card in know.onto[pile[-1]]:
                ontos.setdefault(card, []).append(d)
    values = []
    for card in cards:
        value = miss
        k = homes.get(card)
        if k is not None:
            found[k] += 1
            game._home += 1
            value = max(value, score(game))
            found[k] -= 1
            game._home -= 1
        for d in ontos.get(card, ()):
            piles[d].append(card)
            value = max(value, score(game))
            piles[d].pop()
        values.append(value)
    return values
