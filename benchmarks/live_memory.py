"""A process's memory after the games of a storm go idle (issue 37): live entries dropped.

    .venv/bin/python benchmarks/live_memory.py                 # 2,000 games, 3 repeats
    .venv/bin/python benchmarks/live_memory.py --games 500 --repeats 2

In one process, against a scratch PostgreSQL database (``ft_bench_live``: dropped, created
and migrated here, dropped at the end; ``BENCH_DATABASE_URL`` for another): ``--games``
practice games of ~60 actions each (take-backs among them) are held as a reconnect storm's
hellos hold them (``live_game``, with a socket attached to each), then the sockets close
and ``live_evict_idle`` runs as the sweeper runs it once ``FT_LIVE_IDLE_SECONDS`` passed.
The Python heap (``tracemalloc``, what Python allocated and still holds) and the RSS are
read before the storm (the baseline), with every game held, and after the drop; then one
game is reconnected and played on, to show a dropped game goes on. Not the whole socket
stack (``load/reconnect.py`` is): only the part this change frees.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.scratch import run_header, scratch_database, scratch_drop  # noqa: E402
from benchmarks.stats import spread  # noqa: E402

DB_URL, DB_NAME = scratch_database("ft_bench_live")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connections  # noqa: E402
from django.utils import timezone  # noqa: E402

from games import services  # noqa: E402
from games.engine import UNDO, GameState  # noqa: E402
from games.models import Action, Game, User  # noqa: E402
from games.runtime import live  # noqa: E402

MB = 1024 * 1024


def rss() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def make_games(count: int) -> list:
    rng = random.Random(37)
    user = User.objects.create_user(username="storm", password="x" * 12)
    deals = [services.deal_for_code(code=f"FT1-N-M{i:06d}") for i in range(20)]
    ids = []
    for i in range(count):
        deal = deals[i % len(deals)]
        engine = GameState.from_seed(deal.seed, deal.variant, undo_limit=100)
        log: list[tuple[str, int]] = []
        for _ in range(200):  # ~60 actions, never into a stuck or won position
            if len(log) >= 60 or not engine.legal_moves():
                break
            if engine.can_undo and rng.random() < 0.1:
                engine.undo()
                log.append((UNDO, engine.score))
                continue
            move = rng.choice(engine.legal_moves())
            trial = engine.copy()
            trial.play(move)
            if trial.is_stuck() or trial.is_won():
                continue
            engine.play(move)
            log.append((move, engine.score))
        game = Game.objects.create(
            player=user, deal=deal, mode="practice", score=engine.score,
            moves=engine.moves, version=len(log), first_action_at=timezone.now(),
        )  # fmt: skip
        Action.objects.bulk_create(
            Action(game=game, seq=n, move=m, score=s, client_id=f"c{n}")
            for n, (m, s) in enumerate(log, start=1)
        )
        ids.append(game.pk)
    return ids


def heap() -> int:
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


def storm(ids: list) -> tuple[int, int, int, int, int, int]:
    base_heap, base_rss = heap(), rss()
    for pk in ids:
        live.live_game(game_id=pk)
        live.live_attach(game_id=pk)
    held_heap, held_rss = heap(), rss()
    kept = live.live_evict_idle(now=time.monotonic() + 10 * settings.FT_LIVE_IDLE_SECONDS)
    assert kept == 0, "a game with a socket was dropped"
    for pk in ids:
        live.live_detach(game_id=pk)
    dropped = live.live_evict_idle(now=time.monotonic() + 10 * settings.FT_LIVE_IDLE_SECONDS)
    assert dropped == len(ids) and not live._entries, dropped
    return base_heap, held_heap, heap(), base_rss, held_rss, rss()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    settings.FT_LIVE_GAMES = max(settings.FT_LIVE_GAMES, args.games)
    print(run_header())
    ids = make_games(args.games)
    tracemalloc.start()
    storm(ids)  # a first storm warms what stays loaded in any process (code, statements)
    runs = [storm(ids) for _ in range(args.repeats)]

    print(
        f"{args.games} games held by a storm, then idle; MB, min / median / max of {args.repeats}:"
    )
    figures = {
        "Python heap held, above before": [(h - b) / MB for b, h, *_ in runs],
        "Python heap after the drop": [(a - b) / MB for b, _, a, *_ in runs],
        "RSS held, above before": [(r[4] - r[3]) / MB for r in runs],
        "RSS after the drop, above": [(r[5] - r[3]) / MB for r in runs],
    }
    for label, values in figures.items():
        print(f"  {label + ':':31} {spread(values, '{:7.1f}')}")
    game = Game.objects.select_related("deal").get(pk=ids[0])
    entry = live.live_game(game_id=game.pk)
    assert entry.game.version == game.version and len(entry.client_ids) == game.version
    print(f"  a dropped game reconnected: version {entry.game.version}, its log whole")


if __name__ == "__main__":
    try:
        main()
    finally:
        connections.close_all()
        scratch_drop(DB_URL)
