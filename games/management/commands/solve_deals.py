"""``manage.py solve_deals``: run the solver over deals in a batch, with a progress bar.

``--days N`` certifies (opens) the next N days' daily deals, today included; ``--rate-practice``
rates the practice deals not rated yet. The same loops the Celery tasks
``games.certify_upcoming`` and ``games.rate_practice_deals`` run.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.management.commands.open_daily import MAX_DAYS, parse_day
from games.tasks import certify_days, rate_practice

BAR_WIDTH = 10


def progress_bar(done: int, total: int, width: int = BAR_WIDTH) -> str:
    """``[###-------] 3/10``.

    >>> progress_bar(3, 10)
    '[###-------] 3/10'
    >>> progress_bar(0, 0)
    '[----------] 0/0'
    """
    filled = width * done // total if total else 0
    return f"[{'#' * filled}{'-' * (width - filled)}] {done}/{total}"


class Command(BaseCommand):
    help = "Certify the next days' daily deals and/or rate practice deals with the solver."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--days", type=int, default=0, help=f"certify the next N days' deals (1-{MAX_DAYS})"
        )
        parser.add_argument("--date", help="first UTC day to certify, YYYY-MM-DD (default: today)")
        parser.add_argument(
            "--rate-practice", action="store_true", help="rate the unrated practice deals"
        )
        parser.add_argument(
            "--limit", type=int, default=None, help="rate at most this many practice deals"
        )
        parser.add_argument(
            "--seconds",
            type=float,
            default=None,
            help="solver budget per deal or candidate (default: the settings')",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        days, rate, seconds = options["days"], options["rate_practice"], options["seconds"]
        if not days and not rate:
            raise CommandError("nothing to do: give --days N and/or --rate-practice")
        if days and not 1 <= days <= MAX_DAYS:
            raise CommandError(f"--days {days} is out of range; use 1 to {MAX_DAYS}")
        if seconds is not None and not 0 < seconds <= 600:
            raise CommandError(f"--seconds {seconds:g} is out of range; use more than 0 to 600")
        if days:
            self.stdout.write("Certifying daily deals")
            result = certify_days(
                days=days, first=parse_day(options["date"]), seconds=seconds, progress=self.bar
            )
            self.stdout.write("")
            for item in result["opened"]:
                self.stdout.write(
                    f"{item['day']}: candidate {item['candidate']}, difficulty {item['difficulty']}"
                )
            for day in result["failed"]:
                self.stderr.write(f"{day}: no candidate won within the budget; not opened")
        if rate:
            self.stdout.write("Rating practice deals")
            result = rate_practice(seconds=seconds, limit=options["limit"], progress=self.bar)
            self.stdout.write("")
            self.stdout.write(f"rated {len(result['rated'])} practice deals")

    def bar(self, done: int, total: int) -> None:
        self.stdout.write("\r" + progress_bar(done, total), ending="")
        self.stdout.flush()
