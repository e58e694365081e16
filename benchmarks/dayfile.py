"""What a closed day's file costs: building it on the site, and re-checking it with the engine.

    .venv/bin/python benchmarks/dayfile.py                 # 2,000 games, about a minute
    .venv/bin/python benchmarks/dayfile.py --games 10000   # a busy day, several minutes

Runs against a scratch PostgreSQL database (``ft_bench_dayfile``: dropped, created and
migrated here, dropped at the end; ``BENCH_DATABASE_URL`` for another) with the local memory
cache (no Redis is touched). ``--games`` ranked daily games of about 300 actions each (the
engine benchmark's policy, stamped 1.5 s apart, resigned) are written and verified through
``leaderboards.services.result_verify`` (so each is on the board as the site ranks it), the
deal is revealed, and then:

- the build: ``day_file_build`` (what the background task runs) on a cold cache (the
  database reads, the JSON, the gzip), ``--repeat`` times, min/median/max; and a warm read
  through ``day_file_of`` (the freshness check and a cache hit), as a request makes it;
- the file: its size as JSON and gzipped;
- the check: ``games.engine.dayfile.verify_day`` on the parsed file (what
  ``python -m games.engine verify-day`` does after reading it), min/median/max.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import random
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.scratch import scratch_database, scratch_drop  # noqa: E402
from benchmarks.stats import spread  # noqa: E402

DB_URL, DB_NAME = scratch_database(
    "ft_bench_dayfile",
    FT_DAILY_CERTIFY_SECONDS="0",
    FT_FORESIGHT_SECONDS="0",
    FT_PACE_CHECK="false",  # the stamps here are a regular 1.5 s: the beat of a script
    CELERY_TASK_ALWAYS_EAGER="true",
)

import django  # noqa: E402

django.setup()

from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connections  # noqa: E402
from django.utils import timezone  # noqa: E402

from benchmarks.engine import play_policy  # noqa: E402
from games import services  # noqa: E402
from games.engine import GameState  # noqa: E402
from games.engine.dayfile import verify_day  # noqa: E402
from games.models import Action, Deal, Game, User  # noqa: E402
from leaderboards.dayfiles import day_file_build, day_file_of  # noqa: E402
from leaderboards.models import Result  # noqa: E402
from leaderboards.services import result_verify  # noqa: E402

STEP = timedelta(milliseconds=1500)


def make_day(count: int, rng: random.Random) -> Deal:
    deal = services.deal_open_daily(day=timezone.now().date())
    users = User.objects.bulk_create(User(username=f"d{i}") for i in range(count))
    start = deal.opens_at + timedelta(minutes=5)
    for i, user in enumerate(users):
        engine = GameState.from_seed(deal.seed, deal.variant, undo_limit=0)
        log = play_policy(engine, rng, rng.randint(60, 300))
        replay = GameState.from_seed(deal.seed, deal.variant, undo_limit=0)
        actions = []
        for move in log:
            replay.play(move)
            actions.append((move, replay.score))
        status = "won" if engine.is_won() else "lost" if engine.is_stuck() else "resigned"
        if status == "resigned":
            actions.append(("resign", engine.score))
        first = start + timedelta(seconds=i)
        game = Game.objects.create(
            player=user,
            deal=deal,
            mode="ranked",
            status=status,
            score=engine.score,
            moves=engine.moves,
            version=len(actions),
            first_action_at=first,
            finished_at=first + STEP * (len(actions) - 1),
        )
        Action.objects.bulk_create(
            Action(game=game, seq=seq, move=move, score=score, created_at=first + STEP * (seq - 1))
            for seq, (move, score) in enumerate(actions, start=1)
        )
        result = result_verify(game_id=game.pk)
        assert result is not None and result.status == "verified", result.reason
    Deal.objects.filter(pk=deal.pk).update(revealed_at=timezone.now())
    deal.refresh_from_db()
    return deal


#: How the day file's timings are written.
SECONDS = "min {} s, median {} s, max {} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(
        f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} CPUs;"
        f" scratch database {DB_NAME}; load average {os.getloadavg()[0]:.1f}"
    )
    try:
        call_command("migrate", verbosity=0)
        t0 = time.perf_counter()
        deal = make_day(args.games, random.Random(19))
        with connections["default"].cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
        on_board = Result.objects.filter(deal=deal, review="").count()
        actions = Action.objects.filter(game__deal=deal).count()
        print(
            f"{args.games} ranked games, {actions:,} actions, {on_board} on the board"
            f" (made and verified in {time.perf_counter() - t0:.0f} s)"
        )
        cold = []
        for _ in range(args.repeat):
            cache.clear()
            t0 = time.perf_counter()
            assert day_file_build(deal_id=deal.pk)  # what the background task does
            cold.append(time.perf_counter() - t0)
        warm = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            built = day_file_of(deal=deal).file
            warm.append(time.perf_counter() - t0)
        assert built is not None
        body = built.body
        print(f"build on a cold cache (day_file_build): {spread(cold, template=SECONDS)}")
        print(f"read on a warm cache (freshness check + hit): {spread(warm, template=SECONDS)}")
        print(
            f"file: {len(body) / 1e6:.1f} MB JSON, {len(built.gzipped) / 1e6:.1f} MB gzip"
            f" ({len(body) / args.games / 1024:.1f} KiB a game)"
        )
        data = json.loads(gzip.decompress(built.gzipped))
        checks = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            report = verify_day(data)
            checks.append(time.perf_counter() - t0)
            assert report.clean, report.problems[:5]
        print(f"verify_day (engine only, clean): {spread(checks, template=SECONDS)}")
    finally:
        connections.close_all()
        scratch_drop(DB_URL)


if __name__ == "__main__":
    main()
