"""The board's order in the site's two stores: the key itself is the engine's
(:mod:`games.engine.ranking`, where the published day files are checked with it too);
here only how Redis holds it (the key as the sorted-set score, the tie-breaks in the
member name) and how the database stores it (the same integer on each result).
"""

from __future__ import annotations

from games.engine.ranking import (
    MAX_MOVES,
    MAX_SCORE,
    MAX_TIME,
    MOVES_BITS,
    SCORE_BITS,
    TIME_BITS,
    board_order,
    sort_key,
)

__all__ = [
    "FINISH_DIGITS",
    "ID_DIGITS",
    "MAX_MOVES",
    "MAX_SCORE",
    "MAX_TIME",
    "MOVES_BITS",
    "SCORE_BITS",
    "TIME_BITS",
    "board_order",
    "member",
    "result_id_of",
    "sort_key",
]

FINISH_DIGITS = 16
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
