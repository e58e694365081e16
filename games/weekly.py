"""The weekly variant challenge's calendar: ISO weeks (Monday first, UTC), the variant of
each week and its secret seed. Plain arithmetic, no Django (like ``games.daily``).

The rotation goes through every variant the engine supports **except plain forty-thieves**,
the daily deal's variant: results are denormalised with their day and variant, and the
daily board of a Monday is keyed (Monday, forty-thieves), so leaving the daily's variant out
means a weekly result can never share a key with a daily one (results also carry their own
``weekly`` mark, which every board reads; this keeps the two apart twice over).
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, date, datetime, time, timedelta

from games.engine import VARIANTS

#: The daily deal's variant (``games.services.deals.DAILY_VARIANT``), never a weekly one.
DAILY_VARIANT_NAME = "forty-thieves"

#: The weekly variants in the engine's order, the daily's own left out.
WEEKLY_ROTATION: tuple[str, ...] = tuple(
    rules.spec for name, rules in VARIANTS.items() if name != DAILY_VARIANT_NAME
)
assert DAILY_VARIANT_NAME not in WEEKLY_ROTATION and WEEKLY_ROTATION

ONE_WEEK = timedelta(days=7)


def week_monday(day: date) -> date:
    """The Monday of the ISO week holding ``day``.

    >>> week_monday(date(2026, 12, 3)), week_monday(date(2026, 11, 30))
    (datetime.date(2026, 11, 30), datetime.date(2026, 11, 30))
    """
    return day - timedelta(days=day.weekday())


def week_number(monday: date) -> int:
    """Weeks since the Monday 0001-01-01 (``date.min``): a count that never restarts,
    unlike the ISO week number, so the rotation is even across years with 53 weeks."""
    return (week_monday(monday) - date.min).days // 7


def weekly_variant(monday: date) -> str:
    """The variant of the week of ``monday``: the rotation, one step a week.

    >>> [weekly_variant(date(2026, 11, 30) + ONE_WEEK * n) for n in range(2)]
    ['number-ten', 'rank-and-file']
    """
    return WEEKLY_ROTATION[week_number(monday) % len(WEEKLY_ROTATION)]


def week_label(monday: date) -> str:
    """The ISO week as people write it: ``2026-W49``.

    >>> week_label(date(2026, 11, 30)), week_label(date(2027, 1, 1))
    ('2026-W49', '2026-W53')
    """
    year, week, _ = monday.isocalendar()
    return f"{year}-W{week:02d}"


def parse_week(text: str) -> date | None:
    """The Monday a URL names: an ISO week (``2026-W49``) or any day of it
    (``2026-12-03``); ``None`` for anything else.

    >>> parse_week("2026-W49"), parse_week("2026-12-03"), parse_week("2026-W60")
    (datetime.date(2026, 11, 30), datetime.date(2026, 11, 30), None)
    """
    try:
        if len(text) == 8 and text[4:6].upper() == "-W":
            monday = date.fromisocalendar(int(text[:4]), int(text[6:]), 1)
        elif len(text) == 10:
            monday = week_monday(date.fromisoformat(text))
        else:
            return None
    except ValueError:
        return None
    return monday


def weekly_seed(secret: str, monday: date, variant: str, candidate: int = 0) -> int:
    """A 128-bit seed: the first 16 bytes of HMAC-SHA256(secret, message), the message
    naming the week (``ft1-weekly:<variant>:<yyyy-Www>:<candidate>``); a different message
    from any daily one (``ft1-daily:...``), so no weekly seed is ever a daily's.

    >>> weekly_seed("s", date(2026, 11, 30), "lucas") < 2**128
    True
    """
    message = f"ft1-weekly:{variant}:{week_label(monday)}:{candidate}".encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:16], "big")


def week_start(monday: date) -> datetime:
    """00:00 UTC of the Monday: when the week's challenge opens."""
    return datetime.combine(monday, time.min, tzinfo=UTC)


def week_end(monday: date) -> datetime:
    """00:00 UTC of the next Monday: when the week's challenge closes."""
    return week_start(monday + ONE_WEEK)
