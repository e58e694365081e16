"""A duel's result, pure (no Django): the board's order between the two games.

A player who forfeited (left past the grace period) loses. Otherwise the two games are
ordered as every board orders results (``games.engine.ranking.sort_key``: won first,
then the higher score, then fewer moves, then the shorter time), the time measured from
the duel's start, the same instant for both, to the game's finish (the flag for a game
the server resigned at it). Equal results on the board's tie rule (the same won, score,
moves and whole seconds) share first place: a tie. The page's result and the rating use
this one function: the page on the games' rows at once, the rating on the verified
results (leaderboards.rating.duels).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.ranking import sort_key, tie_floor


@dataclass(frozen=True)
class Standing:
    """One seat's game as the duel's result reads it."""

    forfeited: bool
    won: bool
    score: int
    moves: int
    duration_ms: int


def duel_places(standings: Sequence[Standing]) -> list[int]:
    """Each seat's place (1 or 2; ``[1, 1]`` a tie), in the seats' order.

    >>> fast = Standing(False, True, 1360, 200, 300_000)
    >>> slow = Standing(False, True, 1360, 200, 400_000)
    >>> duel_places([slow, fast]), duel_places([fast, fast])
    ([2, 1], [1, 1])
    >>> duel_places([Standing(True, True, 1360, 1, 1), Standing(False, False, 0, 0, 0)])
    [2, 1]
    >>> duel_places([Standing(True, False, 9, 9, 9), Standing(True, False, 0, 0, 0)])
    [1, 1]
    """
    keys = [
        (
            not s.forfeited,
            0
            if s.forfeited
            else tie_floor(
                sort_key(won=s.won, score=s.score, moves=s.moves, duration_ms=s.duration_ms)
            ),
        )
        for s in standings
    ]
    return [1 + sum(other > key for other in keys) for key in keys]
