"""``manage.py seed_scale``: fill an empty database with a copy of the site at scale.

For measuring the read path (benchmarks/pages.py, docs/benchmarks.md): ``--players``
players, ``--days`` closed daily deals ending yesterday, about ``--results`` verified
ranked results. It refuses a database that already has users unless ``--force``: an
operator must not seed production by mistake. Point ``DATABASE_URL`` at a database of
its own (``createdb ft_scale``; ``manage.py migrate``) and drop it afterwards.
"""

from __future__ import annotations

import time
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from leaderboards.scale import SeedRefused, scale_seed


class Command(BaseCommand):
    help = "Seed an empty database with N players, D closed dailies and R ranked results."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--players", type=int, default=100_000)
        parser.add_argument("--days", type=int, default=365)
        parser.add_argument("--results", type=int, default=1_000_000)
        parser.add_argument("--seed", type=int, default=0, help="the random seed (reruns agree)")
        parser.add_argument(
            "--force", action="store_true", help="seed even though the database has users"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        began = time.monotonic()
        try:
            done = scale_seed(
                players=options["players"],
                days=options["days"],
                results=options["results"],
                seed=options["seed"],
                force=options["force"],
                progress=self.stdout.write,
            )
        except SeedRefused as err:
            raise CommandError(
                f"refusing to seed: {err}. Seed an empty database of its own "
                "(never production), or pass --force."
            ) from err
        except ValueError as err:
            raise CommandError(str(err)) from err
        self.stdout.write(
            self.style.SUCCESS(
                f"Seeded {done.players} players, {done.deals} deals and {done.results} "
                f"results in {time.monotonic() - began:.0f}s."
            )
        )
