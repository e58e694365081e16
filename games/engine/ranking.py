"""The order of a competition board (the daily deal's, the weekly challenge's), defined
once: the site's boards (``leaderboards.ranking``, Redis and the database alike) and the
published day files (``python -m games.engine verify-day``) both rank with this.

Won first, then higher score, fewer moves, shorter time (server-measured, first action
to finish), then earlier finish, then the lower result id. The first four are packed
into one integer that a double holds exactly (53 bits), so Redis can use it as a
sorted-set score; the database stores the same integer on each result. Values past a
field's width count as its limit (16,383 moves, about 37 hours; a daily game lasts
under 24 hours), in both stores alike.
"""

from __future__ import annotations

SCORE_BITS, MOVES_BITS, TIME_BITS = 11, 14, 27
MAX_SCORE, MAX_MOVES, MAX_TIME = (1 << SCORE_BITS) - 1, (1 << MOVES_BITS) - 1, (1 << TIME_BITS) - 1


def sort_key(*, won: bool, score: int, moves: int, duration_ms: int) -> int:
    """Higher is better: won, then score, then fewer moves, then less time.

    >>> sort_key(won=True, score=0, moves=999, duration_ms=10**8) > sort_key(
    ...     won=False, score=1360, moves=1, duration_ms=1)
    True
    >>> sort_key(won=True, score=1185, moves=MAX_MOVES + 5, duration_ms=0) < 2**53
    True
    """
    return (
        (int(won) << (SCORE_BITS + MOVES_BITS + TIME_BITS))
        | (min(score, MAX_SCORE) << (MOVES_BITS + TIME_BITS))
        | ((MAX_MOVES - min(moves, MAX_MOVES)) << TIME_BITS)
        | (MAX_TIME - min(duration_ms, MAX_TIME))
    )


def board_order(
    *, won: bool, score: int, moves: int, duration_ms: int, finished_ms: int, result_id: int
) -> tuple[int, int, int]:
    """The key a board sorts by, ascending: the better result first, ties on
    :func:`sort_key` to the earlier finish (epoch milliseconds), then to the lower id.

    >>> fast = board_order(won=False, score=300, moves=90, duration_ms=5_000,
    ...                    finished_ms=2_000, result_id=9)
    >>> slow = board_order(won=False, score=300, moves=90, duration_ms=6_000,
    ...                    finished_ms=1_000, result_id=1)
    >>> fast < slow
    True
    """
    key = sort_key(won=won, score=score, moves=moves, duration_ms=duration_ms)
    return (-key, finished_ms, result_id)
