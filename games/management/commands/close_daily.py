"""``manage.py close_daily``: reveal a finished day's deals and end its unfinished games.

The same service the per-minute Celery task calls. Closing a day that has not ended
is refused; closing one that is already closed changes nothing.
"""

from __future__ import annotations

from argparse import ArgumentParser
from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from games import services
from games.daily import utc_today
from games.errors import ServiceError
from games.management.commands.open_daily import parse_day


class Command(BaseCommand):
    help = "Close the daily deals of a UTC day (yesterday by default, the last day that ended)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--date", help="UTC day to close, YYYY-MM-DD (default: yesterday)")

    def handle(self, *args: Any, **options: Any) -> None:
        day = parse_day(options["date"]) or utc_today(timezone.now()) - timedelta(days=1)
        try:
            closed = services.deal_close_daily(day=day)
        except ServiceError as err:
            raise CommandError(err.reason) from None
        if closed:
            self.stdout.write(f"{day.isoformat()}: closed {closed} deal(s), codes revealed")
        else:
            self.stdout.write(
                f"{day.isoformat()}: nothing to close (already closed or never opened)"
            )
