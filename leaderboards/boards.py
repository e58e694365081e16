"""Daily boards: a Redis sorted set per day and variant, rebuildable from PostgreSQL; the
weekly challenge's boards the same way, one per week (its Monday) under keys of their own.

The order is defined once, in :mod:`leaderboards.ranking`: the result's
``sort_key`` (won, score, moves, time), then the earlier finish, then the
lower id. Redis holds the key as the score and the tie-breaks in the member
name; the database orders by the same stored key, so both always agree.
Without Redis (the embedded default) the board is read from the database.
Equal results share a rank (:func:`games.engine.ranking.competition_ranks`): ``rank``
is the shown rank, ``place`` the 0-based place in the order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Protocol

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db.models import Q, QuerySet

from games.engine.ranking import competition_ranks, tie_floor
from leaderboards.models import Result
from leaderboards.ranking import (
    FINISH_DIGITS,
    ID_DIGITS,
    MAX_MOVES,
    MAX_SCORE,
    MAX_TIME,
    member,
    result_id_of,
    sort_key,
)

# Re-exported: the ranking definitions are where board callers look for them.
__all__ = [
    "FINISH_DIGITS",
    "ID_DIGITS",
    "MAX_MOVES",
    "MAX_SCORE",
    "MAX_TIME",
    "member",
    "result_id_of",
    "sort_key",
]


@dataclass(frozen=True)
class Entry:
    result_id: int
    rank: int  # 1-based


class Board(Protocol):
    def add(self, result: Result) -> None: ...
    def remove(self, result: Result) -> None: ...
    def rank(self, result: Result) -> int | None: ...
    def place(self, result: Result) -> int | None: ...
    def page(self, start: int, count: int) -> list[Entry]: ...
    def size(self) -> int: ...
    def clear(self) -> None: ...
    def replace(self, results: Iterable[Result], each: Callable[[], None]) -> int: ...


def ranked_results(day: date, variant: str, weekly: bool = False) -> QuerySet[Result]:
    """The board in database order (the source of truth): verified ranked results, less
    those held for fair-play review or disqualified. ``weekly``: the week's board of the
    weekly challenge whose Monday is ``day`` (a daily board never holds a weekly result)."""
    return (
        Result.objects.filter(
            day=day, variant=variant, weekly=weekly, ranked=True, status=Result.Status.VERIFIED
        )
        .exclude(review__in=(Result.Review.HELD, Result.Review.DISQUALIFIED))
        .order_by("-sort_key", "finished_at", "id")
    )


class DatabaseBoard:
    """Ranks read from the database with COUNT queries (the embedded default)."""

    def __init__(self, day: date, variant: str, weekly: bool = False) -> None:
        self.day, self.variant, self.weekly = day, variant, weekly

    def _rows(self) -> QuerySet[Result]:
        return ranked_results(self.day, self.variant, self.weekly)

    def add(self, result: Result) -> None:  # the row itself is the board
        return None

    def remove(self, result: Result) -> None:  # so is its review state
        return None

    def rank(self, result: Result) -> int | None:
        """The shown rank: one more than the results strictly better (ties share it)."""
        rows = self._rows()
        if not rows.filter(pk=result.pk).exists():
            return None
        return self._above(result.sort_key) + 1

    def _above(self, key: int) -> int:
        return self._rows().filter(sort_key__gt=tie_floor(key)).count()

    def place(self, result: Result) -> int | None:
        """The 0-based place in the board's order (ties broken by finish, then id)."""
        rows = self._rows()
        if not rows.filter(pk=result.pk).exists():
            return None
        key, finished = result.sort_key, result.finished_at
        better = (
            Q(sort_key__gt=key)
            | Q(sort_key=key, finished_at__lt=finished)
            | Q(sort_key=key, finished_at=finished, id__lt=result.pk)
        )
        return rows.filter(better).count()

    def page(self, start: int, count: int) -> list[Entry]:
        rows = list(self._rows().values_list("id", "sort_key")[start : start + count])
        # Counted on the first page too (0 above the top): a page's queries never depend on
        # where the viewer's neighbours stand (tests/leaderboards/test_page_queries.py).
        first = self._above(rows[0][1]) + 1 if rows else None
        ranks = competition_ranks([tie_floor(k) for _, k in rows], start=start, first=first)
        return [Entry(pk, rank) for (pk, _), rank in zip(rows, ranks, strict=True)]

    def size(self) -> int:
        return self._rows().count()

    def clear(self) -> None:
        return None

    def replace(self, results: Iterable[Result], each: Callable[[], None]) -> int:
        """The rows are the board: nothing to write, only to count."""
        count = 0
        for _result in results:
            count += 1
            each()
        return count


class RedisBoard:
    """One sorted set per day and variant: ZADD to rank, ZREVRANK to read a rank."""

    def __init__(self, day: date, variant: str, weekly: bool = False) -> None:
        self.key = board_key(day, variant, weekly)
        self.redis = redis_client()

    def add(self, result: Result) -> None:
        self.redis.zadd(self.key, {entry_member(result): entry_key(result)})

    def remove(self, result: Result) -> None:
        self.redis.zrem(self.key, entry_member(result))

    def rank(self, result: Result) -> int | None:
        """The shown rank: one more than the results strictly better (ties share it)."""
        if self.redis.zscore(self.key, entry_member(result)) is None:
            return None
        return self._above(entry_key(result)) + 1

    def _above(self, key: int) -> int:
        return int(self.redis.zcount(self.key, f"({tie_floor(key)}", "+inf"))

    def place(self, result: Result) -> int | None:
        """The 0-based place in the board's order (ties broken by finish, then id)."""
        return self.redis.zrevrank(self.key, entry_member(result))

    def page(self, start: int, count: int) -> list[Entry]:
        rows = self.redis.zrevrange(self.key, start, start + count - 1, withscores=True)
        keys = [int(score) for _, score in rows]
        first = self._above(keys[0]) + 1 if rows else None  # as the database board's
        ranks = competition_ranks([tie_floor(k) for k in keys], start=start, first=first)
        return [
            Entry(result_id_of(name), rank) for (name, _), rank in zip(rows, ranks, strict=True)
        ]

    def size(self) -> int:
        return int(self.redis.zcard(self.key))

    def clear(self) -> None:
        self.redis.delete(self.key)

    def replace(
        self, results: Iterable[Result], each: Callable[[], None], batch: int = 2000
    ) -> int:
        """Fill a scratch key, then RENAME it over the board: readers never see a
        half-built board, and entries no longer in the database disappear."""
        scratch = f"{self.key}:rebuild"
        self.redis.delete(scratch)
        count, pending = 0, {}
        for result in results:
            pending[entry_member(result)] = entry_key(result)
            count += 1
            each()
            if len(pending) >= batch:
                self.redis.zadd(scratch, pending)
                pending = {}
        if pending:
            self.redis.zadd(scratch, pending)
        if count:
            self.redis.rename(scratch, self.key)
        else:
            self.redis.delete(self.key)
        return count


def board_key(day: date, variant: str, weekly: bool = False) -> str:
    kind = "weekly" if weekly else "daily"
    return f"ft:board:{kind}:{variant}:{day.isoformat()}"


def remove_redis_boards_except(keep: set[str]) -> int:
    """Delete Redis boards of days (and weeks) that no longer have any verified result."""
    client = redis_client()
    names = [
        *client.scan_iter(match="ft:board:daily:*", count=1000),
        *client.scan_iter(match="ft:board:weekly:*", count=1000),
    ]
    stale = [
        name
        for raw in names
        if (name := raw.decode() if isinstance(raw, bytes) else raw) not in keep
        and not name.endswith(":rebuild")
    ]
    if stale:
        client.delete(*stale)
    return len(stale)


def entry_key(result: Result) -> int:
    return result.sort_key


def entry_member(result: Result) -> str:
    return member(result.pk, int(result.finished_at.timestamp() * 1000))


@cache
def redis_client():  # noqa: ANN201 - redis.Redis, imported lazily for the embedded default
    import redis

    url = settings.REDIS_URL
    if url is None:  # redis_boards() is asked first
        raise ImproperlyConfigured("the Redis boards need REDIS_URL")
    return redis.Redis.from_url(url)


def redis_boards() -> bool:
    return bool(getattr(settings, "REDIS_URL", None))


def board_for(day: date, variant: str, weekly: bool = False) -> Board:
    """The configured board: Redis when ``REDIS_URL`` is set, else the database."""
    if redis_boards():
        return RedisBoard(day, variant, weekly)
    return DatabaseBoard(day, variant, weekly)


def board_of(result: Result) -> Board:
    """The board a result belongs on: its day's, or its week's for the weekly challenge."""
    assert result.day is not None, "a ranked result has its day (or its week's Monday)"
    return board_for(result.day, result.variant, result.weekly)
