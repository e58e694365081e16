"""An arena round opening for thousands of entrants at one instant (issue 40).

    nice -n 10 .venv/bin/python benchmarks/arena_open.py            # 2,000 entrants, 5 repeats
    nice -n 10 .venv/bin/python benchmarks/arena_open.py --entrants 500 --repeats 3

Runs against a scratch PostgreSQL database (``ft_bench_arena_open``: dropped, created and
migrated here, dropped at the end; ``BENCH_DATABASE_URL`` chooses another), no Redis (the
live table goes to the in-process channel layer). Each repeat is a fresh arena of the same
entrants with a deal waiting in the duel reserve (the solver queue fills it ahead, so its
certification is not part of an open). Two figures a repeat:

- committed: from the call to ``arena_round_open`` to its return, every entrant's game and
  play committed;
- a board: on top of that, an entrant's board read by ``selectors.game_state`` (what the
  game page renders from): what a player waits, the web workers serving the boards;
- all boards: every entrant's board read so, one after another in this one process (the
  reads' cost, were a single worker to serve them all).

The baseline in the same run: the open as it was before, one ``game_create`` and one play
insert an entrant (``open_one_by_one``), on the same entrants.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.scratch import run_header, scratch_database, scratch_drop  # noqa: E402
from benchmarks.stats import spread  # noqa: E402

DB_URL, DB_NAME = scratch_database("ft_bench_arena_open", FT_DUEL_COUNTDOWN_SECONDS="0")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connections, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from games import selectors, services  # noqa: E402
from games.arenas.models import Arena, ArenaEntry, ArenaPlay, ArenaRound  # noqa: E402
from games.engine import format_code, parse_variant  # noqa: E402
from games.models import Deal, Game, User  # noqa: E402
from games.services.arenas import arena_slot  # noqa: E402
from games.services.duel_deals import duel_deal_draw  # noqa: E402
from games.services.starts import game_create  # noqa: E402

VARIANT = "forty-thieves"


def open_one_by_one(*, arena: Arena, number: int) -> ArenaRound:
    """The baseline: the open before issue 40, a game and a play inserted an entrant."""
    start, end = arena_slot(arena, number)
    with transaction.atomic():
        deal = duel_deal_draw(variant=arena.variant, opens_at=start, closes_at=end)
        played = ArenaRound.objects.create(
            arena=arena, number=number, deal=deal, opens_at=start, closes_at=end
        )
        for entry in arena.entries.filter(left_at__isnull=True).select_related("player"):
            game = game_create(user=entry.player, deal=deal, mode=Game.Mode.ARENA)
            ArenaPlay.objects.create(round=played, entry=entry, game=game)
    return played


def open_now(*, arena: Arena, number: int) -> ArenaRound:
    played = services.arena_round_open(arena=arena, number=number)
    assert played is not None
    return played


def reserve(rng: random.Random) -> None:
    """One unopened duel deal, as the reserve holds them (its certificate faked)."""
    seed = rng.getrandbits(64)
    Deal.objects.create(
        kind=Deal.Kind.DUEL,
        variant=VARIANT,
        seed_hex=f"{seed:032x}",
        code=f"{format_code(parse_variant(VARIANT), seed)}-duel-{rng.getrandbits(32):08x}",
        commitment="c" * 64,
        solver_verdict="win",
    )


def arena_of(players: list[User]) -> Arena:
    arena = services.arena_create(starts_at=timezone.now(), minutes=15, round_minutes=5)
    ArenaEntry.objects.bulk_create(
        ArenaEntry(arena=arena, player=p, joined_at=timezone.now()) for p in players
    )
    return arena


def one(
    opener: Callable[..., ArenaRound], players: list[User], rng: random.Random
) -> tuple[float, float, float]:
    """Seconds to every game committed, to the last entrant's board read as well (a
    player's wait), and to every board read one after another (one process serving all)."""
    reserve(rng)
    arena = arena_of(players)
    t0 = time.perf_counter()
    played = opener(arena=arena, number=1)
    committed = time.perf_counter() - t0
    games = list(ArenaPlay.objects.filter(round=played).values_list("entry__player_id", "game_id"))
    by_id = {p.pk: p for p in players}
    t1 = time.perf_counter()
    selectors.game_state(user=by_id[games[-1][0]], game_id=games[-1][1])
    one_board = committed + time.perf_counter() - t1
    for player_id, game_id in games:
        state = selectors.game_state(user=by_id[player_id], game_id=game_id)
        assert state["role"] == "player" and state["deal"], state
    boards = time.perf_counter() - t0
    assert len(games) == len(players)
    return committed, one_board, boards


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entrants", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    print(run_header())
    players = User.objects.bulk_create(
        User(username=f"entrant{i}", email=f"e{i}@example.org") for i in range(args.entrants)
    )
    players = list(User.objects.filter(pk__in=[p.pk for p in players]))
    rng = random.Random(40)
    print(f"{args.entrants} entrants, s (min / median / max of {args.repeats}):")
    for label, opener in (("one by one (baseline)", open_one_by_one), ("in bulk", open_now)):
        runs = [one(opener, players, rng) for _ in range(args.repeats)]
        print(f"  {label:22} committed {spread([r[0] for r in runs])}"
              f"   + a board {spread([r[1] for r in runs])}"
              f"   + all {len(players)} boards in turn {spread([r[2] for r in runs])}")  # fmt: skip
    games = Game.objects.filter(mode=Game.Mode.ARENA).count()
    print(f"  ({games} arena games made; every one read back with its deal)")


if __name__ == "__main__":
    try:
        main()
    finally:
        connections.close_all()
        scratch_drop(DB_URL)
