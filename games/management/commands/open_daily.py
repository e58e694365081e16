"""``manage.py open_daily``: open the daily deals of one or more days ahead of time.

The same service the hourly Celery task calls; opening is idempotent, so running it
again (or alongside the task) changes nothing.
"""

from __future__ import annotations

from argparse import ArgumentParser
from datetime import date, timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from games import selectors, services
from games.daily import utc_today

# A year ahead is plenty; a typo such as --days 36500 should not create a century of deals.
MAX_DAYS = 366


def parse_day(value: str | None) -> date | None:
    """A ``YYYY-MM-DD`` option as a date, or a CommandError naming the format."""
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"--date {value!r} is not a date; use the format YYYY-MM-DD") from None


class Command(BaseCommand):
    help = "Open the daily deal of a UTC day (today by default) and of the days after it."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--date", help="first UTC day to open, YYYY-MM-DD (default: today)")
        parser.add_argument(
            "--days", type=int, default=1, help=f"how many days to open (1-{MAX_DAYS}, default 1)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        first = parse_day(options["date"]) or utc_today(timezone.now())
        days = options["days"]
        if not 1 <= days <= MAX_DAYS:
            raise CommandError(f"--days {days} is out of range; use 1 to {MAX_DAYS}")
        for offset in range(days):
            day = first + timedelta(days=offset)
            existed = selectors.deal_daily_for_day(day=day) is not None
            deal = services.deal_open_daily(day=day)
            what = "already open" if existed else "opened"
            self.stdout.write(
                f"{day.isoformat()} {deal.variant}: {what} (commitment {deal.commitment})"
            )
