"""Writes about fair-play sightings: recorded (as keyed digests only) and pruned.

See ``games.privacy.sightings`` for the digests and
``games.privacy.middleware.DeviceMiddleware`` for when a sighting is recorded.
Nothing raw (cookie, address, user agent) is stored or logged here.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from games.models import Sighting, User
from games.privacy.sightings import sighting_digests


def sighting_record(
    *,
    user_id: int,
    device_token: str | None,
    address: str | None,
    user_agent: str,
    now: datetime | None = None,
) -> int:
    """Note that ``user_id`` was seen on this device and this network+browser: insert each
    sighting or move its ``last_seen`` to ``now``. Returns how many rows were touched (0 to
    2). A missing or malformed device token, or an address that is not an IP address, only
    leaves that kind out. Idempotent, and safe against a concurrent record of the same rows:
    one ``INSERT … ON CONFLICT DO UPDATE``.
    """
    now = now or timezone.now()
    digests = sighting_digests(device_token=device_token, address=address, user_agent=user_agent)
    rows = [
        Sighting(user_id=user_id, kind=kind, digest=digest, first_seen=now, last_seen=now)
        for kind, digest in digests.items()
    ]
    if not rows:
        return 0
    Sighting.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["user", "kind", "digest"],
        update_fields=["last_seen"],
    )
    return len(rows)


CACHE_PREFIX = "ft-sighting:"


def sighting_marker(*, user_id: int, digests: dict[str, str]) -> str:
    """What says "this (user, device, network) was recorded lately" (a hash: no digest,
    let alone anything raw, is a cache key)."""
    parts = [str(user_id), digests.get("device", ""), digests.get("network", "")]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]


# Markers this process recorded, or found recorded, lately: marker -> when (time.monotonic)
# it stops counting. A reconnect storm after a deploy opens every player's socket at once;
# each connect asked Redis (cache.add) whether its sighting was due, about 1 ms of the
# process's one core a socket for an answer that was almost always "no". Bounded (oldest
# dropped first), and never an access decision: at worst a sighting is written once more.
_recent: OrderedDict[str, float] = OrderedDict()
_recent_lock = threading.Lock()
RECENT_MARKERS = 50_000


def _marker_of(*, user_id: int, digests: dict[str, str]) -> str:
    return CACHE_PREFIX + sighting_marker(user_id=user_id, digests=digests)


def sighting_seen_lately(
    *, user_id: int, device_token: str | None, address: str | None, user_agent: str
) -> bool:
    """Whether this process recorded this (user, device, network), or found it recorded,
    within ``FT_SIGHTING_EVERY`` seconds: :func:`sightings_record_due_many` would write
    nothing, so a socket's connect need not queue it (no thread, no Redis round trip).
    Memory only."""
    every = settings.FT_SIGHTING_EVERY
    if every <= 0:
        return False
    digests = sighting_digests(device_token=device_token, address=address, user_agent=user_agent)
    if not digests:
        return True  # nothing to record
    marker = _marker_of(user_id=user_id, digests=digests)
    with _recent_lock:
        until = _recent.get(marker)
    return until is not None and until > time.monotonic()


def _note_recent(marker: str, every: int) -> None:
    with _recent_lock:
        _recent[marker] = time.monotonic() + every
        _recent.move_to_end(marker)
        while len(_recent) > RECENT_MARKERS:
            _recent.popitem(last=False)


def sightings_forget_recent() -> None:
    """Forget the markers noted in memory (tests; the shared cache's are separate)."""
    with _recent_lock:
        _recent.clear()


@dataclass(frozen=True)
class Seen:
    """One visit of a signed-in user, as :func:`sighting_record` takes it (nothing here is
    stored or logged raw)."""

    user_id: int
    device_token: str | None
    address: str | None
    user_agent: str


def sightings_record_due_many(*, seen: list[Seen]) -> int:
    """Record the visits (the sockets a process opened lately) whose (user, device, network)
    was not recorded within ``FT_SIGHTING_EVERY`` seconds: one cache read and one cache
    write for the markers, one upsert for the rows that are due. Every marker read or
    written is also noted in this process's memory (:func:`sighting_seen_lately`), so a
    row's ``last_seen`` may lag by up to twice the period while its player plays on. Two
    processes may both find a marker missing and both write: the upsert is idempotent, so
    that costs a write, never a wrong row. Returns the rows touched."""
    every = settings.FT_SIGHTING_EVERY
    now = timezone.now()
    # (user, digests) by marker; the rows are made only for the markers found due.
    visits: dict[str, tuple[int, dict[str, str]]] = {}
    for visit in seen:
        digests = sighting_digests(
            device_token=visit.device_token, address=visit.address, user_agent=visit.user_agent
        )
        if digests:
            visits[_marker_of(user_id=visit.user_id, digests=digests)] = (visit.user_id, digests)
    if every > 0 and visits:
        for marker in cache.get_many(list(visits)):
            del visits[marker]
            _note_recent(marker, every)
    if not visits:
        return 0
    # An account deleted since its socket connected has nothing more recorded (its deletion
    # kept what fair play needs): its rows would break the foreign key and lose the batch.
    # The users' rows are locked (in key order) so none goes between the check and the insert.
    users = sorted({user_id for user_id, _digests in visits.values()})
    with transaction.atomic():
        alive = set(
            User.objects.select_for_update()
            .filter(pk__in=users)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        due = [marker for marker, (user_id, _digests) in visits.items() if user_id in alive]
        # One row per (user, kind, digest): an upsert may not touch a row twice.
        rows = {
            (user_id, k, d): Sighting(
                user_id=user_id, kind=k, digest=d, first_seen=now, last_seen=now
            )
            for user_id, digests in (visits[marker] for marker in due)
            for k, d in digests.items()
        }
        if rows:
            Sighting.objects.bulk_create(
                list(rows.values()),
                update_conflicts=True,
                unique_fields=["user", "kind", "digest"],
                update_fields=["last_seen"],
            )
    if every > 0:  # noted only once written: a failed write is tried again next time
        cache.set_many(dict.fromkeys(due, 1), timeout=every)
        for marker in due:
            _note_recent(marker, every)
    return len(rows)


def sightings_prune(*, now: datetime | None = None) -> int:
    """Delete the sightings not seen for ``FT_SIGHTING_DAYS`` days, and what was kept of
    deleted accounts past its ``keep_until``; returns how many sightings went."""
    from games.privacy.identity import deleted_accounts_prune

    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.FT_SIGHTING_DAYS)
    deleted, _ = Sighting.objects.filter(last_seen__lt=cutoff).delete()
    deleted_accounts_prune(now=now)
    return deleted
