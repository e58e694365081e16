"""A round's places and points, pure (no Django): the board's order over the round's
verified results, and the scheme docs/arenas.md argues.

Places: the board's order (``games.engine.ranking.sort_key``: won first, then the higher
score, then fewer moves, then the shorter time, measured from the round's open, the same
instant for all), equal on the board's tie rule (``tie_floor``: won, score, moves and
whole seconds) sharing a place ("1, 1, 3"). Points: up to :data:`PLACE_POINTS` for the
share of the round's other players one finished ahead of, rounded down, so every round
weighs the same however many played it (a tie counts half a player beaten each way, so
the tied share their places' points); and :data:`WIN_BONUS` for winning the deal (each
round's deal is certified winnable). Equal results get equal points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.ranking import sort_key, tie_floor

#: Points for finishing ahead of every other player of the round.
PLACE_POINTS = 10
#: Points for winning the round's deal, on top.
WIN_BONUS = 5


@dataclass(frozen=True)
class RoundResult:
    """One entrant's verified game of a round, as the round's ranking reads it."""

    won: bool
    score: int
    moves: int
    duration_ms: int


def round_places(results: Sequence[RoundResult]) -> list[tuple[int, int]]:
    """Each result's ``(place, points)``, in the results' order.

    >>> win = RoundResult(True, 1360, 200, 200_000)
    >>> slow = RoundResult(True, 1360, 200, 250_000)
    >>> lost = RoundResult(False, 400, 120, 300_000)
    >>> round_places([lost, win, slow])
    [(3, 0), (1, 15), (2, 10)]
    >>> round_places([win, win, lost])
    [(1, 12), (1, 12), (3, 0)]
    >>> round_places([lost]), round_places([win])
    ([(1, 0)], [(1, 5)])
    """
    keys = [
        tie_floor(sort_key(won=r.won, score=r.score, moves=r.moves, duration_ms=r.duration_ms))
        for r in results
    ]
    others = len(keys) - 1
    placed = []
    for result, key in zip(results, keys, strict=True):
        ahead = sum(other > key for other in keys)
        behind = sum(other < key for other in keys)
        tied = len(keys) - 1 - ahead - behind
        # A tie counts half a player beaten each way: the tied share their places' points.
        share = PLACE_POINTS * (2 * behind + tied) // (2 * others) if others else 0
        placed.append((1 + ahead, share + (WIN_BONUS if result.won else 0)))
    return placed
