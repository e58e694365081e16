"""Writes about fair-play sightings: recorded (as keyed digests only) and pruned.

See ``games.privacy.sightings`` for the digests and
``games.privacy.middleware.DeviceMiddleware`` for when a sighting is recorded.
Nothing raw (cookie, address, user agent) is stored or logged here.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from games.models import Sighting
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


def sighting_record_due(
    *, user_id: int, device_token: str | None, address: str | None, user_agent: str
) -> int:
    """:func:`sighting_record`, unless this (user, device, network) was recorded within
    ``FT_SIGHTING_EVERY`` seconds (noted in the cache; ``cache.add`` is atomic, so of
    concurrent sockets one records). A socket opens on every reconnect: most write nothing.
    Returns how many rows were touched."""
    digests = sighting_digests(device_token=device_token, address=address, user_agent=user_agent)
    if not digests:
        return 0
    every = settings.FT_SIGHTING_EVERY
    marker = CACHE_PREFIX + sighting_marker(user_id=user_id, digests=digests)
    if every > 0 and not cache.add(marker, 1, timeout=every):
        return 0
    return sighting_record(
        user_id=user_id, device_token=device_token, address=address, user_agent=user_agent
    )


def sightings_prune(*, now: datetime | None = None) -> int:
    """Delete the sightings not seen for ``FT_SIGHTING_DAYS`` days, and what was kept of
    deleted accounts past its ``keep_until``; returns how many sightings went."""
    from games.privacy.identity import deleted_accounts_prune

    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.FT_SIGHTING_DAYS)
    deleted, _ = Sighting.objects.filter(last_seen__lt=cutoff).delete()
    deleted_accounts_prune(now=now)
    return deleted
