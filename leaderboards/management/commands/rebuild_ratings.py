"""``manage.py rebuild_ratings``: recompute every skill rating from the results in the
database (the source of truth), every closed deal again in deal order, as the minute's pass
would have rated them (docs/ratings.md). Safe while the site runs: the pass's lock keeps
the periodic rating waiting until the rebuild has committed its forgetting, and each deal
is then rated once whichever of the two gets to it.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from leaderboards.rating.services import ratings_rebuild


class Command(BaseCommand):
    help = "Recompute every skill rating from the ranked results, in deal order."

    def handle(self, *args: Any, **options: Any) -> None:
        began = time.monotonic()
        count = ratings_rebuild()
        seconds = time.monotonic() - began
        self.stdout.write(self.style.SUCCESS(f"Rated {count} deals again in {seconds:.1f}s."))
