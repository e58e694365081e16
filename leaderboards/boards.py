"""Daily boards: a Redis sorted set per day and variant, rebuildable from PostgreSQL.

The order is: won first, then higher score, fewer moves, shorter time, and
earlier finish. The first four are packed into one integer sort key that a
double holds exactly (53 bits); the last breaks ties through the member name,
since Redis orders equal scores by member. Without Redis (the embedded
default) the same order is read from the database.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Protocol

from django.conf import settings
from django.db.models import Q, QuerySet

from leaderboards.models import Result

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


@dataclass(frozen=True)
class Entry:
    result_id: int
    rank: int  # 1-based


class Board(Protocol):
    def add(self, result: Result) -> None: ...
    def rank(self, result: Result) -> int | None: ...
    def page(self, start: int, count: int) -> list[Entry]: ...
    def size(self) -> int: ...
    def clear(self) -> None: ...


def ranked_results(day: date, variant: str) -> QuerySet[Result]:
    """The board in database order (the source of truth)."""
    return Result.objects.filter(
        day=day, variant=variant, ranked=True, status=Result.Status.VERIFIED
    ).order_by("-won", "-score", "moves", "duration_ms", "finished_at", "id")


class DatabaseBoard:
    """Ranks read from the database with COUNT queries (the embedded default)."""

    def __init__(self, day: date, variant: str) -> None:
        self.day, self.variant = day, variant

    def add(self, result: Result) -> None:  # the row itself is the board
        return None

    def rank(self, result: Result) -> int | None:
        rows = ranked_results(self.day, self.variant)
        if not rows.filter(pk=result.pk).exists():
            return None
        better = (
            Q(won__gt=result.won)
            | Q(won=result.won, score__gt=result.score)
            | Q(won=result.won, score=result.score, moves__lt=result.moves)
            | Q(
                won=result.won,
                score=result.score,
                moves=result.moves,
                duration_ms__lt=result.duration_ms,
            )
            | Q(
                won=result.won,
                score=result.score,
                moves=result.moves,
                duration_ms=result.duration_ms,
                finished_at__lt=result.finished_at,
            )
            | Q(
                won=result.won,
                score=result.score,
                moves=result.moves,
                duration_ms=result.duration_ms,
                finished_at=result.finished_at,
                id__lt=result.pk,
            )
        )
        return rows.filter(better).count() + 1

    def page(self, start: int, count: int) -> list[Entry]:
        ids = ranked_results(self.day, self.variant).values_list("id", flat=True)
        return [Entry(pk, start + i + 1) for i, pk in enumerate(ids[start : start + count])]

    def size(self) -> int:
        return ranked_results(self.day, self.variant).count()

    def clear(self) -> None:
        return None


class RedisBoard:
    """One sorted set per day and variant: ZADD to rank, ZREVRANK to read a rank."""

    def __init__(self, day: date, variant: str) -> None:
        self.key = f"ft:board:daily:{variant}:{day.isoformat()}"
        self.redis = redis_client()

    def add(self, result: Result) -> None:
        self.redis.zadd(self.key, {entry_member(result): entry_key(result)})

    def rank(self, result: Result) -> int | None:
        rank = self.redis.zrevrank(self.key, entry_member(result))
        return None if rank is None else rank + 1

    def page(self, start: int, count: int) -> list[Entry]:
        names = self.redis.zrevrange(self.key, start, start + count - 1)
        return [Entry(result_id_of(name), start + i + 1) for i, name in enumerate(names)]

    def size(self) -> int:
        return int(self.redis.zcard(self.key))

    def clear(self) -> None:
        self.redis.delete(self.key)


def entry_key(result: Result) -> int:
    return sort_key(
        won=result.won, score=result.score, moves=result.moves, duration_ms=result.duration_ms
    )


def entry_member(result: Result) -> str:
    return member(result.pk, int(result.finished_at.timestamp() * 1000))


@cache
def redis_client():  # noqa: ANN201 - redis.Redis, imported lazily for the embedded default
    import redis

    return redis.Redis.from_url(settings.REDIS_URL)


def board_for(day: date, variant: str) -> Board:
    """The configured board: Redis when ``REDIS_URL`` is set, else the database."""
    if getattr(settings, "REDIS_URL", None):
        return RedisBoard(day, variant)
    return DatabaseBoard(day, variant)
