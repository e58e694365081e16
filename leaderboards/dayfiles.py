"""A closed deal's day file: every ranked game of its board, for anyone to re-check.

The file (schema: ``docs/protocol.md``, "Day files"; checked by
``python -m games.engine verify-day``, :mod:`games.engine.dayfile`) holds the deal's code,
salt and commitment and, for every verified ranked result on its board, the game's log with
the server's stamps, the claimed result and the rank. A held result is left out until it is
decided; a disqualified one is listed without a rank, marked ``disqualified``. Only a deal
whose close has been revealed has a file.

A file is built from the database and kept in the cache (Redis in production, so every
server process shares it) under a key naming what it was built from: how many results are
on the board, the latest verification, the latest review decision and the deal's rating (a
rating pass or a replay after the file was built). A change to any of
those (a late verification, a hold decided) makes a new key. A small day's file is built on
the request that finds it missing; a big one's (more than ``INLINE_GAMES`` results: seconds
of reading) by the ``leaderboards.build_day_file`` task on the ``solver`` queue, which the
minute's sweep queues for every deal revealed in the last two days, so it is normally ready
before anyone asks. Until a new build is ready, the previous one is served (it lags by that
one change); with none at all the answer is "being prepared, retry in a moment".
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeGuard

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Max, QuerySet
from django.utils import timezone

from games.engine.dayfile import FORMAT, SERVER, VERSION, iso
from games.engine.ranking import competition_ranks, tie_floor
from games.logs import compact_logs
from games.models import Action, Deal
from leaderboards.boards import ranked_results
from leaderboards.models import Result, ReviewDecision
from leaderboards.rating.maths import Rating, display_value
from leaderboards.rating.models import RatedMatch, RatingHistory

CACHE_SECONDS = 24 * 3600
#: Up to this many results, a missing file is built on the request itself (about a second
#: at most, benchmarks/dayfile.py); above it, in the background.
INLINE_GAMES = 200
#: How long a queued background build keeps others from queueing another.
BUILD_LOCK_SECONDS = 600
#: How long after its reveal the sweep keeps a deal's file built ahead of the requests.
PREBUILD_DAYS = 2
_BATCH = 500
_MS = timedelta(milliseconds=1)
_US = timedelta(microseconds=1)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
ORDER = "won first, then higher score, fewer moves, less time_ms, earlier finished_at, lower result"


@dataclass(frozen=True)
class DayFile:
    """A built file: its gzip bytes and the ETag that names its content."""

    gzipped: bytes
    etag: str
    filename: str

    @property
    def body(self) -> bytes:
        return gzip.decompress(self.gzipped)


@dataclass(frozen=True)
class DayFileAnswer:
    """What a request gets: the file (possibly the previous build, while a new one is
    made) or, for a big day not built yet, ``pending`` with a retry hint; both ``None``
    and ``False`` when the deal has no file (none, practice, or still open)."""

    file: DayFile | None
    pending: bool = False
    retry_after: int = 0


def day_file_of(*, deal: Deal | None) -> DayFileAnswer:
    """The day file of a closed (revealed) competition deal, as a request should get it."""
    if not _published(deal):
        return DayFileAnswer(None)
    key = _key(deal)
    stored = cache.get(key)
    if stored is not None:
        return DayFileAnswer(stored)
    if _results(deal).count() <= INLINE_GAMES:
        return DayFileAnswer(_build(deal, key))
    _queue_build(deal)
    previous = cache.get(_latest_key(deal))
    if previous is not None:
        return DayFileAnswer(previous)
    return DayFileAnswer(None, pending=True, retry_after=30)


def day_file_build(*, deal_id: int) -> bool:
    """Build a deal's file now unless the cache holds it as it stands (the background
    task, and the sweep's prebuild); ``True`` if one was built."""
    deal = Deal.objects.filter(pk=deal_id).first()
    if not _published(deal):
        return False
    try:
        key = _key(deal)
        if cache.get(key) is not None:
            return False
        _build(deal, key)
        return True
    finally:
        cache.delete(_lock_key(deal))


def day_files_due(*, now: datetime | None = None) -> list[int]:
    """Deals revealed in the last ``PREBUILD_DAYS`` days whose file is not built as their
    results stand now: what the sweep queues."""
    since = (now or timezone.now()) - timedelta(days=PREBUILD_DAYS)
    recent = Deal.objects.filter(
        kind__in=(Deal.Kind.DAILY, Deal.Kind.WEEKLY), revealed_at__gte=since
    )
    return [deal.pk for deal in recent if cache.get(_key(deal)) is None]


def _published(deal: Deal | None) -> TypeGuard[Deal]:
    return deal is not None and deal.is_competition and deal.revealed_at is not None


def _key(deal: Deal) -> str:
    return f"ft:dayfile:v{VERSION}:{deal.pk}:{_freshness(deal)}"


def _latest_key(deal: Deal) -> str:
    return f"ft:dayfile:v{VERSION}:{deal.pk}:latest"


def _lock_key(deal: Deal) -> str:
    return f"ft:dayfile:v{VERSION}:{deal.pk}:building"


def _build(deal: Deal, key: str) -> DayFile:
    body = json.dumps(day_file_data(deal=deal), separators=(",", ":")).encode()
    built = DayFile(
        gzipped=gzip.compress(body, compresslevel=6, mtime=0),
        etag='"' + hashlib.sha256(body).hexdigest()[:32] + '"',
        filename=_filename(deal),
    )
    cache.set(key, built, timeout=CACHE_SECONDS)
    cache.set(_latest_key(deal), built, timeout=CACHE_SECONDS * 7)
    return built


def _queue_build(deal: Deal) -> None:
    """Queue one background build (the lock keeps every request from queueing its own)."""
    if cache.add(_lock_key(deal), 1, timeout=BUILD_LOCK_SECONDS):
        from leaderboards.tasks import build_day_file  # the tasks call this module

        build_day_file.delay(deal.pk)


def day_file_data(*, deal: Deal) -> dict[str, Any]:
    """The file as a dict: the deal, then its games in the board's order, then the
    disqualified ones (unranked)."""
    # Published: a competition's deal (it has its day), opened and closed.
    assert deal.day and deal.opens_at and deal.closes_at, "only a published deal has a file"
    board = ranked_results(deal.day, deal.variant, deal.is_weekly).select_related("player", "game")
    disqualified = _results(deal).filter(review=Result.Review.DISQUALIFIED).order_by("id")
    games: list[dict[str, Any]] = []
    ratings = _ratings_after(deal)
    for rank, result, actions in _with_logs(board, ranked=True):
        games.append(_game(result, actions, rank=rank, rating=ratings.get(result.player_id)))
    for _, result, actions in _with_logs(
        disqualified.select_related("player", "game"), ranked=False
    ):
        games.append(_game(result, actions, rank=None))
    return {
        "format": FORMAT,
        "version": VERSION,
        "kind": deal.kind,
        "day": deal.day.isoformat(),
        "variant": deal.variant,
        "code": deal.code,
        "salt": deal.salt,
        "commitment": deal.commitment,
        "opens_at": iso(deal.opens_at),
        "closes_at": iso(deal.closes_at),
        "generated_at": iso(timezone.now()),
        "order": ORDER,
        "games": games,
    }


def _ratings_after(deal: Deal) -> dict[int, dict[str, Any]]:
    """Each player's rating after this deal, if the deal is rated (one query: the deal's
    history rows; a replay rewrites them, and :func:`_freshness` notices)."""
    rows = RatingHistory.objects.filter(deal=deal).values_list("user_id", "mu", "sigma")
    return {
        user_id: {"value": display_value(Rating(mu, sigma)), "mu": mu, "sigma": sigma}
        for user_id, mu, sigma in rows.iterator(chunk_size=5000)
    }


def _results(deal: Deal) -> QuerySet[Result]:
    return Result.objects.filter(deal=deal, ranked=True, status=Result.Status.VERIFIED)


def _freshness(deal: Deal) -> str:
    """What the file depends on, in three reads (see the module's docstring)."""
    results = _results(deal).aggregate(n=Count("id"), last=Max("verified_at"), top=Max("id"))
    decisions = ReviewDecision.objects.filter(result__deal=deal).aggregate(
        n=Count("id"), last=Max("id")
    )
    # The rating pass comes after the close (once every result is decided), and a replay
    # re-rates the deal: the match's id and time name the ratings the file carries.
    rated = RatedMatch.objects.filter(deal=deal).values_list("pk", "rated_at").first()
    parts = (
        results["n"],
        results["top"],
        results["last"],
        decisions["n"],
        decisions["last"],
        rated,
    )
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:24]


def _with_logs(
    results: QuerySet[Result], *, ranked: bool
) -> Iterator[tuple[int | None, Result, list[tuple]]]:
    """Each result with its game's log, read a batch of games at a time; ``ranked``: with
    its rank on the board (equal results share one: competition_ranks)."""
    position = 0
    rank = 0
    last_tie: int | None = None
    batch: list[Result] = []

    def flush() -> Iterator[tuple[int | None, Result, list[tuple]]]:
        nonlocal position, rank, last_tie
        logs: dict[Any, list[tuple]] = {r.game_id: [] for r in batch}
        for game_id, move, ms, by_system in _log_rows(list(logs)):
            logs[game_id].append((move, ms, by_system))
        for game_id, ms_log in _packed_rows([g for g, log in logs.items() if not log]):
            logs[game_id] = ms_log
        for result in batch:
            tie = tie_floor(result.sort_key)
            # One entry at a time, continuing the ranks of the entries before it.
            first = rank if position and tie == last_tie else None
            rank = competition_ranks([tie], start=position, first=first)[0]
            position, last_tie = position + 1, tie
            yield (rank if ranked else None), result, logs[result.game_id]

    for result in results.iterator(chunk_size=_BATCH):
        batch.append(result)
        if len(batch) >= _BATCH:
            yield from flush()
            batch = []
    if batch:
        yield from flush()


def _packed_rows(game_ids: list[Any]) -> Iterator[tuple[Any, list[tuple]]]:
    """The logs of those of ``game_ids`` packed by compact_logs (read after their rows,
    as ``games.logs`` says), as :func:`_log_rows` gives them: milliseconds rounded as
    PostgreSQL's ``round`` rounds there, floored elsewhere, so a day file reads the same."""
    half = 500 if connection.vendor == "postgresql" else 0
    for game_id, entries in compact_logs(game_ids=game_ids).items():
        yield (
            game_id,
            [
                (e.move, ((e.created_at - _EPOCH) // _US + half) // 1000, e.by_system)
                for e in entries
            ],
        )


def _log_rows(game_ids: list[Any]) -> Iterator[tuple[Any, str, int, bool]]:
    """``(game_id, move, stamp in epoch ms, by_system)`` of these games' logs, in order.

    On PostgreSQL the stamp comes as whole milliseconds from the database: parsing a
    datetime per action was half the cost of a build (``benchmarks/dayfile.py``)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT game_id, move,"
                " round(extract(epoch FROM created_at) * 1000)::bigint, by_system"
                f" FROM {Action._meta.db_table} WHERE game_id = ANY(%s) ORDER BY game_id, seq",
                [game_ids],
            )
            yield from cursor.fetchall()  # one batch of games: a few hundred thousand rows
        return
    rows = (
        Action.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "seq")
        .values_list("game_id", "move", "created_at", "by_system")
    )
    for game_id, move, at, by_system in rows.iterator(chunk_size=5000):
        yield game_id, move, (at - _EPOCH) // _MS, by_system


def _game(
    result: Result,
    actions: list[tuple],
    *,
    rank: int | None,
    rating: dict[str, Any] | None = None,
) -> dict[str, Any]:
    first = actions[0][1] if actions else (result.finished_at - _EPOCH) // _MS
    started = _EPOCH + first * _MS
    log = []
    for move, ms, by_system in actions:
        offset = ms - first
        log.append([move, offset, SERVER] if by_system else [move, offset])
    return {
        "rank": rank,
        "result": result.pk,
        "player": result.player.public_name,
        "status": result.outcome,
        "won": result.won,
        "score": result.score,
        "moves": result.moves,
        "time_ms": result.duration_ms,
        "started_at": iso(started),
        "finished_at": iso(result.finished_at),
        "review": result.review,
        # The player's skill rating after this deal (docs/ratings.md), null until rated.
        "rating": rating,
        # Played with safe cards sent home: its "server" moves are the engine's safe ones.
        "auto_home": result.game.auto_home,
        "actions": log,
    }


def _filename(deal: Deal) -> str:
    assert deal.day is not None, "only a competition's deal (which has its day) has a file"
    return f"forty-thieves-{deal.kind}-{deal.day.isoformat()}-{deal.variant}.json"
