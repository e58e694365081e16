"""``manage.py rebuild_duel_ratings``: recompute every duel rating from the finished duels
and their verified results, in the order they ended (docs/ratings.md, "The duel rating")."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from leaderboards.rating.duels import duel_ratings_rebuild


class Command(BaseCommand):
    help = "Recompute every duel rating from the finished duels, in the order they ended."

    def handle(self, *args: Any, **options: Any) -> None:
        began = time.monotonic()
        count = duel_ratings_rebuild()
        seconds = time.monotonic() - began
        self.stdout.write(self.style.SUCCESS(f"Rated {count} duels again in {seconds:.1f}s."))
