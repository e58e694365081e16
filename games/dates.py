"""Days, weeks and months named by a client (a URL, a query, a socket path): the one place
that turns their text into a date the site can serve, or ``None`` (a 404 or 400 for the
caller to give). No Django here: pages, sockets and the API share it.

Every date the site serves lies between :data:`FIRST_DAY` and today. The floor is not
cosmetic: ``date.min`` (0001-01-01) has no day before it, so a board's "previous day" link
or a period's start overflowed (a 500), and a week of year 1 is labelled ``1-W01``, which
no parser takes back. Nothing was ever played before the floor, so no page is lost.
"""

from __future__ import annotations

from datetime import date

from games import weekly

#: The first day any board, archive month or weekly challenge may name: a Monday, so a
#: week's page and the day before the floor are both still ordinary dates.
FIRST_DAY = date(2000, 1, 3)
assert FIRST_DAY.weekday() == 0


def day_in_range(day: date, *, today: date) -> bool:
    """Whether ``day`` is one the site serves: from :data:`FIRST_DAY` to ``today``."""
    return FIRST_DAY <= day <= today


def parse_day(text: str, *, today: date) -> date | None:
    """A day from a URL: strictly ``YYYY-MM-DD``, from :data:`FIRST_DAY` to ``today``.

    >>> parse_day("2026-11-29", today=date(2026, 11, 29))
    datetime.date(2026, 11, 29)
    >>> [parse_day(t, today=date(2026, 11, 29)) for t in ("2026-11-30", "2026-2-3", "x")]
    [None, None, None]
    >>> parse_day("0001-01-01", today=date(2026, 11, 29)) is None
    True
    """
    # fromisoformat also takes "20261129" and week dates; only the canonical form names a day.
    if len(text) != 10 or not text.isascii():
        return None
    try:
        day = date.fromisoformat(text)
    except ValueError:
        return None
    if day.isoformat() != text or not day_in_range(day, today=today):
        return None
    return day


def parse_week(text: str, *, today: date | None = None) -> date | None:
    """The Monday a URL names: an ISO week (``2026-W49``) or any day of it
    (``2026-12-03``), not before :data:`FIRST_DAY`'s week and, given ``today``, not a
    week still to come; ``None`` for anything else.

    >>> parse_week("2026-W49"), parse_week("2026-12-03"), parse_week("2026-W60")
    (datetime.date(2026, 11, 30), datetime.date(2026, 11, 30), None)
    >>> parse_week("0001-W01"), parse_week("2026-W50", today=date(2026, 12, 1))
    (None, None)
    """
    monday = weekly.parse_week(text) if text.isascii() else None
    if monday is None:
        return None
    if monday < FIRST_DAY or (today is not None and monday > today):
        return None
    return monday


def parse_month(text: str, *, today: date | None = None) -> date | None:
    """``2026-11`` as the first of that month, from :data:`FIRST_DAY`'s month to (given
    ``today``) the current one; ``None`` for anything else.

    >>> parse_month("2026-11"), parse_month("2026-13"), parse_month("x"), parse_month("0001-01")
    (datetime.date(2026, 11, 1), None, None, None)
    """
    year, dash, month = text.partition("-")
    if not dash or not (year.isascii() and month.isascii()):
        return None
    if not (year.isdigit() and month.isdigit()) or len(year) != 4 or len(month) != 2:
        return None
    try:
        first = date(int(year), int(month), 1)
    except ValueError:
        return None
    if first < FIRST_DAY.replace(day=1) or (today is not None and first > today):
        return None
    return first
