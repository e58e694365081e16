"""Packing finished games' move logs (issue 37): ``manage.py compact_logs``.

A finished game's ``Action`` rows cost about 271 B an action; packed by ``games.logcodec``
the whole log costs a few bytes an action. Here (and not in ``games``) because what may be
packed depends on the result: only a verified one, whose log will not be replayed again
except to be shown, and only once the deal has closed (the fair-play reads of a deal still
open, ``games.privacy.identity``, count its rows) and ``FT_COMPACT_AFTER_HOURS`` after the
finish.

Each game is packed in a transaction of its own, its row locked: the blob is written, read
back and compared with the rows, and only then are the rows deleted. A game either keeps
its rows or has its blob, never both or neither (the readers, ``games.logs``, rely on it).
Run again, it skips what is packed: it is idempotent and resumes where it stopped.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.logcodec import LogEntry, log_pack, log_unpack
from games.models import Action, CompactLog, Game
from leaderboards.models import Result

log = logging.getLogger(__name__)


@dataclass
class Compacted:
    """What one run did: games packed, games skipped (and why, logged), bytes before/after."""

    games: int = 0
    skipped: int = 0
    blob_bytes: int = 0


def logs_compactable(
    *, now: datetime | None = None, after: uuid.UUID | None = None, limit: int = 1000
) -> list[uuid.UUID]:
    """The ids of up to ``limit`` games whose logs may be packed, in id order from after
    ``after`` (a batch's last id): finished, verified, deal closed, old enough, not packed."""
    now = now or timezone.now()
    cutoff = now - timedelta(hours=settings.FT_COMPACT_AFTER_HOURS)
    games = (
        Game.objects.filter(
            finished_at__lt=cutoff,
            result__status=Result.Status.VERIFIED,
            compact_log__isnull=True,
        )
        .filter(Q(deal__closes_at__isnull=True) | Q(deal__closes_at__lt=now))
        .exclude(status=Game.Status.ACTIVE)
        .order_by("pk")
    )
    if after is not None:
        games = games.filter(pk__gt=after)
    return list(games.values_list("pk", flat=True)[:limit])


def log_compact(*, game_id: uuid.UUID | str) -> int | None:
    """Pack one game's log in one transaction; the blob's size, or ``None`` if there was
    nothing to pack (already packed, or its log does not match its row: left as it is)."""
    with transaction.atomic():
        game = (
            Game.objects.select_for_update()
            .filter(pk=game_id)
            .exclude(status=Game.Status.ACTIVE)
            .only("pk", "version")
            .first()
        )
        if game is None or CompactLog.objects.filter(game_id=game_id).exists():
            return None
        entries = [
            LogEntry(*row)
            for row in Action.objects.filter(game_id=game_id)
            .order_by("seq")
            .values_list("seq", "move", "by_system", "score", "created_at")
        ]
        if not entries or len(entries) != game.version:
            log.warning(
                "compact_logs: game %s has %d actions at version %s: left",
                game_id,
                len(entries),
                game.version,
            )
            return None
        try:
            blob = log_pack(entries)
        except ValueError as error:
            log.warning("compact_logs: game %s cannot be packed (%s): left", game_id, error)
            return None
        if log_unpack(blob) != entries:  # never delete what the blob would not give back
            raise RuntimeError(f"game {game_id}'s packed log does not read back")
        CompactLog.objects.create(game_id=game_id, data=blob, actions=len(entries))
        Action.objects.filter(game_id=game_id).delete()
    return len(blob)


def logs_compact(
    *,
    now: datetime | None = None,
    batch: int = 500,
    limit: int | None = None,
    progress: Callable[[Compacted], None] | None = None,
) -> Compacted:
    """Pack every compactable game's log (up to ``limit`` games), ``batch`` ids read at a
    time; ``progress`` is called after each batch. Stops cleanly anywhere: what it packed
    stays packed, and the next run takes up the rest."""
    done = Compacted()
    after = None
    while limit is None or done.games + done.skipped < limit:
        room = batch if limit is None else min(batch, limit - done.games - done.skipped)
        ids = logs_compactable(now=now, after=after, limit=room)
        if not ids:
            break
        for game_id in ids:
            size = log_compact(game_id=game_id)
            if size is None:
                done.skipped += 1
            else:
                done.games += 1
                done.blob_bytes += size
        after = ids[-1]
        if progress is not None:
            progress(done)
    return done
