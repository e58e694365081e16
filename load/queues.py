"""Queue isolation: how long a finished ranked game waits for its verification while a
thousand background ratings are queued (issue 11: at most a second more than with idle
queues).

Three phases on the real stack (PostgreSQL, Redis, the Celery workers of compose.yaml):

* ``idle``: the ``celery`` queue's worker (verification) and the ``solver`` queue's worker
  (ratings), nothing queued;
* ``ratings queued``: ``--ratings`` rating tasks queued on the ``solver`` queue first, as
  a flood of practice starts would queue them;
* ``one queue`` (the baseline, what the platform did before the queues were split): the
  same ratings queued on the ``celery`` queue, ahead of the verifications.

In each, ``--games`` ranked daily games are finished one after another (a few moves, then
a resign: the finishing action enqueues the verification after its commit) and the time
from the finish to the verified result is measured by polling the database.

    .venv/bin/python -m load.queues --games 20 --ratings 1000 --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from load.stack import RESULTS, Worker, flush_redis, load_env, prepare_database, start_worker

WAIT_LIMIT = 15.0  # seconds a verification may take before the phase counts it as stuck


def _django(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()


def _ranked_games(count: int) -> list[tuple[Any, Any]]:
    """``count`` players with today's ranked game, a few moves in (not finished yet)."""
    from games import services
    from games.models import User

    tag = uuid.uuid4().hex[:8]
    players = []
    for i in range(count):
        user = User.objects.create_user(username=f"q{tag}{i}", password=None)
        game = services.game_start_daily(user=user)
        for move in ("s", "s", "s"):
            services.game_act(kind="move", user=user, game_id=game.pk, move=move)
        players.append((user, game))
    return players


def _queue_ratings(count: int, queue: str) -> None:
    """``count`` unrated practice deals, and a rating task for each on ``queue``."""
    from games.models import Deal
    from games.tasks import rate_deal

    tag = uuid.uuid4().int
    deals = Deal.objects.bulk_create(
        Deal(
            kind=Deal.Kind.PRACTICE,
            variant="forty-thieves",
            seed_hex=f"{(tag + i) % 2**128:032x}",
            code=f"Q-{tag:x}-{i}",
        )
        for i in range(count)
    )
    for deal in deals:
        rate_deal.apply_async(args=(deal.pk,), queue=queue)


def _verification_waits(players: list[tuple[Any, Any]]) -> list[float]:
    """Finish each game in turn; seconds from its finish to its verified result. Once one
    waits past ``WAIT_LIMIT`` the rest are counted as stuck too (they queue behind it)."""
    from games import services
    from leaderboards.models import Result

    waits = []
    for user, game in players:
        start = time.perf_counter()
        services.game_act(kind="resign", user=user, game_id=game.pk)
        while True:
            status = Result.objects.filter(game_id=game.pk).values_list("status", flat=True)
            if status and status[0] != Result.Status.PENDING:
                break
            if time.perf_counter() - start > WAIT_LIMIT:
                break
            time.sleep(0.005)
        waits.append(time.perf_counter() - start)
        if waits[-1] >= WAIT_LIMIT:
            return waits + [WAIT_LIMIT] * (len(players) - len(waits))
    return waits


def _phase(name: str, env: dict[str, str], games: int, ratings: int, queue: str | None) -> dict:
    from ftsite.celery import app

    app.control.purge()
    players = _ranked_games(games)
    if queue is not None:
        _queue_ratings(ratings, queue)
    waits = _verification_waits(players)
    app.control.purge()  # what is left of the ratings must not spill into the next phase
    waits.sort()
    row = {
        "phase": name,
        "games": games,
        "ratings": ratings if queue else 0,
        "queue": queue or "",
        "median_s": statistics.median(waits),
        "max_s": waits[-1],
        "stuck": sum(w >= WAIT_LIMIT for w in waits),
    }
    print(json.dumps(row), flush=True)
    return row


def run(games: int, ratings: int, repeat: int) -> list[dict]:
    # A database and Redis of its own: the other load runs flush theirs.
    env = load_env(
        database_url="postgres://postgres@127.0.0.1:5432/fortythieves_queues",
        redis_url="redis://127.0.0.1:6379/11",
        FT_RATE_SECONDS="2",
        FT_RATE_PRACTICE_ON_START="false",
    )
    prepare_database(env)
    flush_redis(env["REDIS_URL"])
    _django(env)
    workers: list[Worker] = [
        start_worker(env, queue="celery", concurrency=2),
        start_worker(env, queue="solver", concurrency=1),
    ]
    rows = []
    try:
        for _ in range(repeat):
            rows.append(_phase("idle", env, games, ratings, None))
            rows.append(_phase("ratings queued", env, games, ratings, "solver"))
            rows.append(_phase("one queue (baseline)", env, games, ratings, "celery"))
    finally:
        for worker in workers:
            worker.stop()
    return rows


def table(rows: list[dict]) -> str:
    lines = [
        "| phase | verification wait: median (min / median / max of runs) | worst | stuck |",
        "|---|---|---|---|",
    ]
    for phase in dict.fromkeys(r["phase"] for r in rows):
        mine = [r for r in rows if r["phase"] == phase]
        medians = sorted(r["median_s"] * 1000 for r in mine)
        worst = max(r["max_s"] for r in mine) * 1000
        stuck = sum(r["stuck"] for r in mine)
        lines.append(
            f"| {phase} | {medians[0]:.0f} / {statistics.median(medians):.0f} /"
            f" {medians[-1]:.0f} ms | {worst:.0f} ms | {stuck} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="ranked games finished per phase")
    parser.add_argument("--ratings", type=int, default=1000, help="rating tasks queued")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, default=RESULTS / "queues.json")
    args = parser.parse_args(argv)
    rows = run(args.games, args.ratings, args.repeat)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(rows, indent=1))
    print(table(rows))
    isolated = [r for r in rows if r["phase"] == "ratings queued"]
    idle = [r for r in rows if r["phase"] == "idle"]
    worst_extra = max(r["max_s"] for r in isolated) - statistics.median(r["median_s"] for r in idle)
    print(f"worst extra wait with {args.ratings} ratings queued: {worst_extra * 1000:.0f} ms")
    return 0 if worst_extra <= 1.0 and not any(r["stuck"] for r in isolated) else 1


if __name__ == "__main__":
    sys.exit(main())
