"""The daily deal's secret seed, derived from a server secret and the date."""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, date, datetime, time, timedelta


def daily_seed(secret: str, day: date, variant: str, candidate: int = 0) -> int:
    """A 128-bit seed: the first 16 bytes of HMAC-SHA256(secret, message).

    The message names the day, the variant and a candidate number (a later
    candidate is used when an earlier one is rejected, e.g. as unwinnable).
    Without the secret nobody can compute it, and it is never revealed before
    the day closes.

    >>> daily_seed("s", date(2026, 11, 29), "forty-thieves") < 2**128
    True
    """
    message = f"ft1-daily:{variant}:{day.isoformat()}:{candidate}".encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:16], "big")


def day_start(day: date) -> datetime:
    """00:00 UTC of ``day``: when its deal opens."""
    return datetime.combine(day, time.min, tzinfo=UTC)


def day_end(day: date) -> datetime:
    """00:00 UTC of the next day: when the day's deal closes."""
    return day_start(day + timedelta(days=1))


def utc_today(now: datetime) -> date:
    return now.astimezone(UTC).date()
