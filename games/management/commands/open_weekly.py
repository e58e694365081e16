"""``manage.py open_weekly``: open this ISO week's challenge (and, with ``--weeks``, the
ones after it) ahead of time.

The same service beat's ``games.open_weekly_deals`` calls; opening is idempotent, so
running it again (or alongside the task) changes nothing. ``make run`` calls it, as it
calls ``open_daily``: the embedded defaults run no beat.
"""

from __future__ import annotations

from argparse import ArgumentParser
from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from games import services
from games.daily import utc_today
from games.models import Deal
from games.weekly import week_label, week_monday

MAX_WEEKS = 53


class Command(BaseCommand):
    help = "Open this ISO week's weekly challenge (UTC) and, with --weeks, the weeks after."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--weeks", type=int, default=1, help=f"how many weeks to open (1-{MAX_WEEKS})"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        weeks = options["weeks"]
        if not 1 <= weeks <= MAX_WEEKS:
            raise CommandError(f"--weeks {weeks} is out of range; use 1 to {MAX_WEEKS}")
        first = week_monday(utc_today(timezone.now()))
        for offset in range(weeks):
            monday = first + timedelta(weeks=offset)
            existed = Deal.objects.filter(kind=Deal.Kind.WEEKLY, day=monday).exists()
            deal = services.deal_open_weekly(monday=monday)
            what = "already open" if existed else "opened"
            self.stdout.write(
                f"{week_label(monday)} {deal.variant}: {what} (commitment {deal.commitment})"
            )
