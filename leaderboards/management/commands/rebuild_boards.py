"""``manage.py rebuild_boards``: rebuild every Redis daily board from the database.

The database is the source of truth; run this after a Redis flush or loss, or to tidy a
board after results were deleted. Without ``REDIS_URL`` there is nothing to rebuild: the
database itself is the board.
"""

from __future__ import annotations

import time
from argparse import ArgumentParser
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from redis.exceptions import RedisError  # a dependency of channels-redis and celery[redis]

from leaderboards import services

BAR_WIDTH = 30


def progress_bar(done: int, total: int, *, width: int = BAR_WIDTH) -> str:
    """``[#####-----] 1234/5000``, the line redrawn in place as the rebuild goes.

    >>> progress_bar(1, 4, width=8)
    '[##------] 1/4'
    >>> progress_bar(0, 0, width=4)
    '[####] 0/0'
    """
    filled = width if total <= 0 else min(width, width * done // total)
    return f"[{'#' * filled}{'-' * (width - filled)}] {done}/{total}"


class Command(BaseCommand):
    help = "Rebuild the Redis daily boards from the verified results in the database."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--batch",
            type=int,
            default=2000,
            help="results read per database round trip, and between progress updates",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["batch"] < 1:
            raise CommandError("--batch must be at least 1")
        if not getattr(settings, "REDIS_URL", None):
            self.stdout.write(
                "Nothing to rebuild: REDIS_URL is not set, so the database is the board."
            )
            return
        began = time.monotonic()
        drawn = False

        def progress(done: int, total: int) -> None:
            nonlocal drawn
            # "\r" and no newline: the bar is redrawn on one line. ending="" stops Django
            # from adding a newline; flush so it shows while the rebuild runs.
            self.stdout.write("\r" + progress_bar(done, total), ending="")
            self.stdout.flush()
            drawn = True

        try:
            count = services.boards_rebuild(progress=progress, batch=options["batch"])
        except RedisError as err:  # Redis unreachable, most likely: say so, without a trace
            if drawn:
                self.stdout.write("")
            raise CommandError(f"rebuilding the boards failed: {err}") from err
        if drawn:
            self.stdout.write("")  # end the bar's line
        seconds = time.monotonic() - began
        self.stdout.write(
            self.style.SUCCESS(f"Rebuilt the daily boards: {count} results in {seconds:.1f}s.")
        )
