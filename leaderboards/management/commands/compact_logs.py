"""``manage.py compact_logs``: pack finished, verified games' move logs into one blob each
(``leaderboards.compaction``). Safe to run at any time and as often as wanted (for example
nightly from cron): each game is packed in a transaction of its own, and a run stopped
anywhere is taken up by the next."""

from __future__ import annotations

import time
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from leaderboards.compaction import Compacted, logs_compact


class Command(BaseCommand):
    help = "Pack the move logs of finished, verified games whose deal has closed."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--batch", type=int, default=500, help="game ids read at a time")
        parser.add_argument(
            "--limit", type=int, default=None, help="at most this many games in this run"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        batch, limit = options["batch"], options["limit"]
        if batch < 1:
            raise CommandError("--batch must be at least 1")
        if limit is not None and limit < 1:
            raise CommandError("--limit must be at least 1")
        began = time.monotonic()

        def progress(done: Compacted) -> None:
            self.stdout.write(f"  {done.games} packed, {done.skipped} left as they were")

        done = logs_compact(batch=batch, limit=limit, progress=progress)
        seconds = time.monotonic() - began
        average = done.blob_bytes // done.games if done.games else 0
        self.stdout.write(
            self.style.SUCCESS(
                f"Packed {done.games} games' logs ({average} B a game) in {seconds:.1f}s;"
                f" {done.skipped} left as they were."
            )
        )
