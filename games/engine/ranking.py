"""The order of a competition board (the daily deal's, the weekly challenge's), defined
once: the site's boards (``leaderboards.ranking``, Redis and the database alike) and the
published day files (``python -m games.engine verify-day``) both rank with this.

Won first, then higher score, fewer moves, shorter time (server-measured, first action
to finish), then earlier finish, then the lower result id. Equal results (won, score,
moves and the time in whole seconds, as every board shows it) share a rank, standard
competition ranking ("1, 1, 3"): :func:`tie_floor` and :func:`competition_ranks` are the
only place a displayed rank comes from. The first four are packed
into one integer that a double holds exactly (53 bits), so Redis can use it as a
sorted-set score; the database stores the same integer on each result. Values past a
field's width count as its limit (16,383 moves, about 37 hours; a daily game lasts
under 24 hours), in both stores alike.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

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


def tie_floor(key: int) -> int:
    """The best :func:`sort_key` that shares ``key``'s rank: the same won, score and moves
    and the same time in whole seconds. A result's rank is one more than the number of
    results whose key is above its floor.

    >>> a = sort_key(won=False, score=300, moves=90, duration_ms=63_200)
    >>> b = sort_key(won=False, score=300, moves=90, duration_ms=63_900)
    >>> c = sort_key(won=False, score=300, moves=90, duration_ms=64_000)
    >>> tie_floor(a) == tie_floor(b) != tie_floor(c), a <= tie_floor(a)
    (True, True)
    """
    duration = MAX_TIME - (key & MAX_TIME)
    return (key & ~MAX_TIME) | (MAX_TIME - (duration - duration % 1000))


def competition_ranks(
    ties: Sequence[Hashable], *, start: int = 0, first: int | None = None
) -> list[int]:
    """The ranks of consecutive entries of a board in its order, from each entry's tie
    value (a result's :func:`tie_floor`; any value for other boards): equal values share
    the rank of the first of them, the next value takes its place ("1, 1, 3").
    ``start``: the 0-based place of the first entry; ``first``: its rank when it shares
    one with entries before ``start`` (one more than the entries strictly better).

    >>> competition_ranks([9, 9, 7, 7, 7, 5])
    [1, 1, 3, 3, 3, 6]
    >>> competition_ranks([7, 7, 5], start=3, first=2)
    [2, 2, 6]
    """
    ranks: list[int] = []
    for index, tie in enumerate(ties):
        if index and tie == ties[index - 1]:
            ranks.append(ranks[-1])
        else:
            ranks.append(first if index == 0 and first is not None else start + index + 1)
    return ranks
