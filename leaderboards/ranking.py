"""The order of a daily board, defined once for Redis and the database.

Won first, then higher score, fewer moves, shorter time (server-measured),
then earlier finish, then the lower result id. The first four are packed
into one integer that a double holds exactly (53 bits), so Redis can use it
as a sorted-set score; the database stores the same integer on each result.
Values past a field's width count as its limit (16,383 moves, about 37 hours;
a daily game lasts under 24 hours), in both stores alike.
"""

from __future__ import annotations

SCORE_BITS, MOVES_BITS, TIME_BITS = 11, 14, 27
MAX_SCORE, MAX_MOVES, MAX_TIME = (1 << SCORE_BITS) - 1, (1 << MOVES_BITS) - 1, (1 << TIME_BITS) - 1
FINISH_DIGITS = 16


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


ID_DIGITS = 18


def member(result_id: int, finished_ms: int) -> str:
    """The set member. Redis lists equal scores in reverse byte order under
    ZREVRANGE, so both parts are inverted and padded: ties on the key go to the
    earlier finish, then to the lower id, as in the database order.

    >>> result_id_of(member(42, 1_700_000_000_000))
    42
    >>> member(1, 5) > member(2, 5) > member(1, 6)
    True
    """
    inverted_finish = 10**FINISH_DIGITS - 1 - finished_ms
    inverted_id = 10**ID_DIGITS - 1 - result_id
    return f"{inverted_finish:0{FINISH_DIGITS}d}:{inverted_id:0{ID_DIGITS}d}"


def result_id_of(name: str | bytes) -> int:
    text = name.decode() if isinstance(name, bytes) else name
    return 10**ID_DIGITS - 1 - int(text.rsplit(":", 1)[1])
