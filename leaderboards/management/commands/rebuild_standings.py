"""``manage.py rebuild_standings``: recompute every player's week, month and all-time
standings (what the period boards read) from the results in the database, the source of
truth. Run it after a restore, after results were changed or deleted by hand, or after
``MIN_GAMES_FOR_RATE`` changed; the boards show the old table until it commits, and a
result placed meanwhile waits for it (docs/operations.md: best with the workers stopped).
"""

from __future__ import annotations

import time
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from leaderboards.management.commands.rebuild_boards import progress_bar
from leaderboards.standings.services import REBUILD_BATCH, standings_rebuild


class Command(BaseCommand):
    help = "Recompute the period boards' standings from the verified ranked daily results."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--batch", type=int, default=REBUILD_BATCH, help="rows written per round trip"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["batch"] < 1:
            raise CommandError("--batch must be at least 1")
        began = time.monotonic()

        def progress(done: int, total: int) -> None:
            self.stdout.write("\r" + progress_bar(done, total), ending="")
            self.stdout.flush()

        count = standings_rebuild(progress=progress, batch=options["batch"])
        self.stdout.write("")
        seconds = time.monotonic() - began
        self.stdout.write(
            self.style.SUCCESS(f"Rebuilt the standings: {count} rows in {seconds:.1f}s.")
        )
