"""``manage.py fill_practice_pool``: add proven-winnable deals to the practice pool
("winnable deals only"), as the hourly ``games.fill_practice_pool`` task does.

``--variant V --count N`` adds up to N deals of one variant; without ``--variant`` every
variant is topped up towards ``--target`` (``FT_POOL_TARGET``). ``--nodes`` is the solver's
node budget per seed (``FT_POOL_NODES``): a node budget, so a seed's verdict repeats.
``--starter`` adds the proven deals shipped with the code (games/data/starter_pool.json, a
few of every star), each line replayed to a win first: what ``make run`` does on a fresh
install, so "winnable deals only" has deals before the hourly fill has run.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games import services
from games.errors import ServiceError


class Command(BaseCommand):
    help = "Fill the pool of practice deals the solver proved winnable."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--variant", help="one variant (default: every variant)")
        parser.add_argument("--count", type=int, default=10, help="deals to add (one variant)")
        parser.add_argument("--target", type=int, default=None, help="pool size per variant")
        parser.add_argument("--nodes", type=int, default=None, help="solver nodes per seed")
        parser.add_argument("--tries", type=int, default=None, help="seeds to try at most")
        parser.add_argument(
            "--starter", action="store_true", help="add the shipped proven deals (a few per star)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["starter"]:
                fills = [services.practice_pool_load_starter()]
            elif options["variant"]:
                fills = [
                    services.practice_pool_fill(
                        variant=options["variant"],
                        count=options["count"],
                        max_nodes=options["nodes"],
                        tries=options["tries"],
                    )
                ]
            else:
                if options["nodes"] is not None or options["tries"] is not None:
                    raise CommandError("--nodes and --tries go with --variant")
                fills = services.practice_pool_top_up(target=options["target"])
        except ServiceError as err:
            raise CommandError(err.reason) from None
        for fill in fills:
            self.stdout.write(
                f"{fill.variant}: {fill.added} added of {fill.tried} tried; pool {fill.size}"
            )
