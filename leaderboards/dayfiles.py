"""Reads: a closed deal's day file, every ranked game of its board for anyone to re-check.

The file (schema: ``docs/protocol.md``, "Day files"; checked by
``python -m games.engine verify-day``, :mod:`games.engine.dayfile`) holds the deal's code,
salt and commitment and, for every verified ranked result on its board, the game's log with
the server's stamps, the claimed result and the rank. A held result is left out until it is
decided; a disqualified one is listed without a rank, marked ``disqualified``. Only a deal
whose close has been revealed has a file.

A file is built from the database and kept in the cache (Redis in production, so every
server process shares it) under a key naming what it was built from: how many results are
on the board and in review, the latest verification and the latest review decision. A
change to any of those (a late verification, a hold decided) makes a new key, so the next
request builds the file afresh; requests in between read the stored gzip bytes.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, QuerySet
from django.utils import timezone

from games.engine.dayfile import FORMAT, SERVER, VERSION, iso
from games.models import Action, Deal
from leaderboards.boards import ranked_results
from leaderboards.models import Result, ReviewDecision

CACHE_SECONDS = 24 * 3600
_BATCH = 500
_MS = timedelta(milliseconds=1)
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


def day_file_of(*, deal: Deal | None) -> DayFile | None:
    """The day file of a closed (revealed) competition deal; ``None`` for no deal, a
    practice deal or one still open."""
    if deal is None or not deal.is_competition or deal.revealed_at is None:
        return None
    key = f"ft:dayfile:v{VERSION}:{deal.pk}:{_freshness(deal)}"
    stored = cache.get(key)
    if stored is not None:
        return stored
    body = json.dumps(day_file_data(deal=deal), separators=(",", ":")).encode()
    built = DayFile(
        gzipped=gzip.compress(body, compresslevel=6, mtime=0),
        etag='"' + hashlib.sha256(body).hexdigest()[:32] + '"',
        filename=_filename(deal),
    )
    cache.set(key, built, timeout=CACHE_SECONDS)
    return built


def day_file_data(*, deal: Deal) -> dict[str, Any]:
    """The file as a dict: the deal, then its games in the board's order, then the
    disqualified ones (unranked)."""
    board = ranked_results(deal.day, deal.variant, deal.is_weekly).select_related("player")
    disqualified = _results(deal).filter(review=Result.Review.DISQUALIFIED).order_by("id")
    games: list[dict[str, Any]] = []
    for rank, result, actions in _with_logs(board, ranked=True):
        games.append(_game(result, actions, rank=rank))
    for _, result, actions in _with_logs(disqualified.select_related("player"), ranked=False):
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


def _results(deal: Deal) -> QuerySet[Result]:
    return Result.objects.filter(deal=deal, ranked=True, status=Result.Status.VERIFIED)


def _freshness(deal: Deal) -> str:
    """What the file depends on, in two aggregate reads (see the module's docstring)."""
    results = _results(deal).aggregate(n=Count("id"), last=Max("verified_at"), top=Max("id"))
    decisions = ReviewDecision.objects.filter(result__deal=deal).aggregate(
        n=Count("id"), last=Max("id")
    )
    parts = (results["n"], results["top"], results["last"], decisions["n"], decisions["last"])
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:24]


def _with_logs(
    results: QuerySet[Result], *, ranked: bool
) -> Iterator[tuple[int | None, Result, list[tuple]]]:
    """Each result with its game's log, read a batch of games at a time."""
    position = 0
    batch: list[Result] = []

    def flush() -> Iterator[tuple[int | None, Result, list[tuple]]]:
        nonlocal position
        logs: dict[Any, list[tuple]] = {r.game_id: [] for r in batch}
        rows = (
            Action.objects.filter(game_id__in=list(logs))
            .order_by("game_id", "seq")
            .values_list("game_id", "move", "created_at", "by_system")
        )
        for game_id, move, at, by_system in rows.iterator(chunk_size=5000):
            logs[game_id].append((move, at, by_system))
        for result in batch:
            position += 1
            yield (position if ranked else None), result, logs[result.game_id]

    for result in results.iterator(chunk_size=_BATCH):
        batch.append(result)
        if len(batch) >= _BATCH:
            yield from flush()
            batch = []
    if batch:
        yield from flush()


def _game(result: Result, actions: list[tuple], *, rank: int | None) -> dict[str, Any]:
    started = actions[0][1] if actions else result.finished_at
    log = []
    for move, at, by_system in actions:
        offset = (at - started) // _MS
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
        "actions": log,
    }


def _filename(deal: Deal) -> str:
    return f"forty-thieves-{deal.kind}-{deal.day.isoformat()}-{deal.variant}.json"
