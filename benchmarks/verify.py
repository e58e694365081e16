"""Verification throughput and submission-to-rank latency.

    .venv/bin/python benchmarks/verify.py             # about two minutes
    .venv/bin/python benchmarks/verify.py --games 200 --drain 400 --e2e 20
    .venv/bin/python benchmarks/verify.py --no-sync-commit # what the commit's fsync costs

Runs against a scratch PostgreSQL database (``ft_bench_verify``: dropped,
created and migrated here, dropped at the end) and a scratch Redis database
(/13, flushed before and after); set ``BENCH_DATABASE_URL`` / ``BENCH_REDIS_URL``
to use others. Never the real or the test databases.

(a) ``result_verify`` in this process, one game after another: finished games
    with real logs (the three winning practice logs of tests/data/won_games.json
    and ~300-move resigned games, ranked daily ones included, so the on-commit
    ranking into the Redis board is part of the cost). Reported as results/s.
(c) Per worker process: ``--drain`` finished games of the same mix, their
    ``verify_game`` tasks queued first, then one real ``celery worker`` (prefork,
    concurrency 1) drains the queue; results/s from the first verdict to the last.
(b) End to end with a real ``celery worker`` (prefork, one process): a ranked
    daily game is resigned through ``games.services`` every ``--interval`` s; the
    time from the call (its commit enqueues ``verify_game``) until the result is
    ranked and ZREVRANK on the board returns its rank, polled every 2 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402

from benchmarks.scratch import SITE_ENV, admin, scratch_database, scratch_drop  # noqa: E402
from benchmarks.stats import spread  # noqa: E402

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
DB_URL, DB_NAME = scratch_database("ft_bench_verify", redis_url=REDIS_URL)
# What the worker process it starts is given (the same settings).
ENV = {**SITE_ENV, "DATABASE_URL": DB_URL, "REDIS_URL": REDIS_URL}
if "--no-sync-commit" in sys.argv:  # what the WAL flush at each commit costs (scratch DB only)
    admin(DB_URL, f'ALTER DATABASE "{DB_NAME}" SET synchronous_commit = off')
redis.Redis.from_url(REDIS_URL).flushdb()

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connections  # noqa: E402
from django.utils import timezone  # noqa: E402

from benchmarks.engine import play_policy  # noqa: E402
from games import services  # noqa: E402
from games.engine import GameState  # noqa: E402
from games.models import Action, Deal, Game, User  # noqa: E402
from games.runtime.live import engine_for  # noqa: E402
from leaderboards.boards import board_for  # noqa: E402
from leaderboards.models import Result  # noqa: E402
from leaderboards.services import result_verify  # noqa: E402

WON = json.loads((ROOT / "tests" / "data" / "won_games.json").read_text())["games"]


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def human_stamps(count: int, *, rng: random.Random, end: datetime) -> list[datetime]:
    """``count`` action stamps at a person's pace (0.5-7 s apart, to the microsecond), the
    last at ``end``."""
    gaps = [timedelta(microseconds=rng.randint(500_000, 7_000_000)) for _ in range(count)]
    return [end - sum(gaps[i + 1 :], timedelta()) for i in range(count)]


def finished_game(player: User, deal: Deal, mode: str, log: list[str] | None, rng) -> Game:
    """A finished game with its action log, written as the services would have left it."""
    engine = GameState.from_seed(deal.seed, deal.variant, undo_limit=0 if mode == "ranked" else 100)
    actions: list[tuple[str, int]] = []
    if log is None:
        log = play_policy(engine, rng, 300)
        actions = []
        replay = GameState.from_seed(deal.seed, deal.variant, undo_limit=0)
        for move in log:
            replay.play(move)
            actions.append((move, replay.score))
    else:
        for move in log:
            engine.play(move)
            actions.append((move, engine.score))
    status = (
        Game.Status.WON
        if engine.is_won()
        else Game.Status.LOST
        if engine.is_stuck()
        else Game.Status.RESIGNED
    )
    if status == Game.Status.RESIGNED:
        actions.append(("resign", engine.score))
    # Stamped at a human pace (0.5-7 s between actions, to the microsecond), as a player's
    # socket leaves a log: all at one instant, the fair-play pace check rightly held every
    # ranked game, and the benchmark ranked none of them.
    stamps = human_stamps(len(actions), rng=rng, end=timezone.now())
    game = Game.objects.create(
        player=player,
        deal=deal,
        mode=mode,
        status=status,
        score=engine.score,
        moves=engine.moves,
        version=len(actions),
        first_action_at=stamps[0],
        finished_at=stamps[-1],
    )
    Action.objects.bulk_create(
        Action(game=game, seq=seq, move=move, score=score, created_at=at)
        for seq, ((move, score), at) in enumerate(zip(actions, stamps, strict=True), start=1)
    )
    return game


def bench_in_process(count: int, rounds: int = 1) -> None:
    """(a), ``rounds`` times on fresh games of the same mix: min / median / max of the
    rounds' results/s, and how many ranked results went on the board or were held."""
    rates = [_in_process_round(count, "vtsrqp"[r], 5 + r) for r in range(min(rounds, 6))]
    if rounds > 1:
        print(f"    (a) over {rounds} rounds: {spread(rates, '{:,.0f}')} results/s"
              " (min / median / max)")  # fmt: skip


def _in_process_round(count: int, prefix: str, seed: int) -> float:
    games = make_games(count, prefix, seed)
    settle()
    actions = Action.objects.filter(game_id__in=[game.pk for _kind, game in games]).count()
    print(f"(a) {count} finished games, {actions:,} actions ({actions / count:.0f} a game):")
    by_kind: dict[str, list[float]] = {}
    started = time.perf_counter()
    for kind, game in games:
        t0 = time.perf_counter()
        result = result_verify(game_id=game.pk)
        by_kind.setdefault(kind, []).append(time.perf_counter() - t0)
        assert result is not None and result.status == Result.Status.VERIFIED, result.reason
    total = time.perf_counter() - started
    ids = [game.pk for _kind, game in games]
    mine = Result.objects.filter(game_id__in=ids, ranked=True)
    ranked = mine.filter(ranked_at__isnull=False).count()
    held = mine.filter(review=Result.Review.HELD).count()
    print(f"    result_verify: {count / total:,.0f} results/s in one process ({total:.2f} s),"
          f" {ranked} ranked onto the Redis board on commit, {held} held for review")  # fmt: skip
    for kind, times in sorted(by_kind.items()):
        mean = sum(times) / len(times)
        print(f"    {kind:<18} {len(times):4d}  mean {mean * 1000:6.2f} ms"
              f"  p99 {percentile(times, 0.99) * 1000:6.2f} ms  ({1 / mean:,.0f}/s)")  # fmt: skip
    print("    target >= 50 results/s per process:", "met" if count / total >= 50 else "MISSED")
    return count / total


def make_games(count: int, prefix: str, seed: int) -> list[tuple[str, Game]]:
    """``count`` finished games: a quarter practice wins (the recorded winning logs), a
    quarter practice resignations, half ranked daily resignations (~300 moves each)."""
    rng = random.Random(seed)
    daily = services.deal_open_daily(day=timezone.now().date())
    won_deals = [services.deal_for_code(code=g["code"]) for g in WON]
    users = User.objects.bulk_create(User(username=f"{prefix}{i}") for i in range(count))
    games: list[tuple[str, Game]] = []
    for i, user in enumerate(users):
        kind = ("ranked resigned", "practice resigned", "practice won", "ranked resigned")[i % 4]
        if kind == "practice won":
            won = WON[i % len(WON)]
            game = finished_game(
                user, won_deals[i % len(WON)], "practice", won["moves"].split(), rng
            )
        elif kind == "practice resigned":
            practice = services.deal_for_code(code=f"FT1-N-{prefix.upper()}{i:06d}")
            game = finished_game(user, practice, "practice", None, rng)
        else:
            game = finished_game(user, daily, "ranked", None, rng)
        games.append((kind, game))
    return games


def settle() -> None:
    """VACUUM ANALYZE and CHECKPOINT after loading the games, so the timed part does not
    share the two cores with autovacuum catching up on ~100,000 fresh rows (a running
    site's tables are not loaded in bulk seconds before it verifies)."""
    with connections["default"].cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
        cursor.execute("CHECKPOINT")


def bench_worker_drain(count: int) -> None:
    """(c) A real worker process draining ``count`` queued ``verify_game`` tasks."""
    from ftsite.celery import app
    from leaderboards.tasks import verify_game

    app.control.purge()
    games = make_games(count, "w", 7)
    for _kind, game in games:  # queued before the worker starts: it never waits for work
        verify_game.delay(str(game.pk))
    settle()
    log = Path(f"/tmp/ft-bench-drain-{os.getpid()}.log")
    worker = start_worker(log)
    try:
        ids = [game.pk for _kind, game in games]
        decided = Result.objects.filter(game_id__in=ids).exclude(status=Result.Status.PENDING)
        deadline = time.monotonic() + 120
        while decided.count() < count and time.monotonic() < deadline:
            time.sleep(0.1)
        stamps = sorted(decided.values_list("verified_at", flat=True))
        rejected = decided.exclude(status=Result.Status.VERIFIED).count()
        assert len(stamps) == count and not rejected, f"{len(stamps)}/{count}, {rejected} rejected"
        # From the first verdict to the last: the worker's start-up is left out.
        span = (stamps[-1] - stamps[0]).total_seconds()
        rate = (count - 1) / span
        ranked = Result.objects.filter(game_id__in=ids, ranked=True, ranked_at__isnull=False)
        print(f"(c) one prefork worker process (concurrency 1) draining {count} queued"
              f" verify_game tasks ({ranked.count()} ranked on commit):")  # fmt: skip
        print(f"    {rate:,.0f} results/s ({span:.2f} s from the first verdict to the last)")
        print("    target >= 50 results/s per worker process:", "met" if rate >= 50 else "MISSED")
    finally:
        stop_worker(worker)
        log.unlink(missing_ok=True)


def stop_worker(worker: subprocess.Popen[bytes]) -> None:
    worker.terminate()
    try:
        worker.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(worker.pid, 9)
        worker.wait()


def start_worker(log: Path) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "ftsite", "worker", "--pool=prefork",
         "--concurrency=1", "--loglevel=info", "-Q", "celery", "-n", f"bench-{os.getpid()}@%h",
         "--without-mingle", "--without-gossip"],
        cwd=ROOT, env={**os.environ, **ENV}, stdout=log.open("wb"), stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while " ready." not in log.read_text(errors="replace"):
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(log.read_text(errors="replace")[-3000:])
        time.sleep(0.1)
    return process


def _human_pace(game: Game, rng: random.Random) -> None:
    """Restamp a game played here at machine pace as a person plays: 0.5-7 s between its
    actions, the last a moment ago. Left at one instant, every one of them is held by the
    fair-play pace check and never ranked, and (b) would measure nothing."""
    actions = list(Action.objects.filter(game=game).order_by("seq"))
    if not actions:
        return
    stamps = human_stamps(len(actions), rng=rng, end=timezone.now() - timedelta(seconds=1))
    for action, at in zip(actions, stamps, strict=True):
        action.created_at = at
    Action.objects.bulk_update(actions, ["created_at"])
    Game.objects.filter(pk=game.pk).update(first_action_at=actions[0].created_at)


def bench_end_to_end(count: int, interval: float, warmup: int = 3) -> None:
    from ftsite.celery import app

    app.control.purge()
    rng = random.Random(9)
    users = User.objects.bulk_create(User(username=f"e{i}") for i in range(count + warmup))
    # Ranked daily games played ~60 moves in, each to be resigned (the finishing move).
    games = []
    for user in users:
        game = services.game_start_daily(user=user)
        engine = engine_for(game)
        log = play_policy(engine, rng, 60)
        if engine.is_won() or engine.is_stuck():
            log = log[:-1]  # stop one move short: the resign below is the finishing move
        for move in log:
            services.game_act(kind="move", user=user, game_id=str(game.pk), move=move)
        _human_pace(game, rng)
        games.append((user, game))
    log = Path(f"/tmp/ft-bench-worker-{os.getpid()}.log")
    worker = start_worker(log)
    try:
        latencies, commits, lost = [], [], []
        for n, (user, game) in enumerate(games):
            t0 = time.perf_counter()
            # The resign's commit enqueues the verification.
            services.game_act(kind="resign", user=user, game_id=str(game.pk))
            commits.append(time.perf_counter() - t0)
            result, board = None, None
            while True:
                if result is None:
                    result = Result.objects.filter(game=game, ranked_at__isnull=False).first()
                    board = result and board_for(result.day, result.variant)
                if result is not None and board.rank(result) is not None:
                    break
                if time.perf_counter() - t0 > 10:
                    broker = redis.Redis.from_url(REDIS_URL)
                    lost.append(
                        f"game {game.pk}: not ranked in 10 s; result {result!r}; queue"
                        f" {broker.llen('celery')} waiting, {broker.hlen('unacked')} unacked;"
                        f" worker log ends: {log.read_text()[-400:]!r}"
                    )
                    break
                time.sleep(0.002)
            elapsed = time.perf_counter() - t0
            if n >= warmup and not (lost and str(game.pk) in lost[-1]):
                latencies.append(elapsed)
            time.sleep(max(0.0, interval - elapsed))
        print(f"(b) end to end, one game finishing every {interval * 1000:.0f} ms, {count} games"
              f" (after {warmup} warm-up), one prefork worker process:")  # fmt: skip
        print(f"    resign call (commit + enqueue): p50 {percentile(commits, 0.5) * 1000:.1f} ms")
        print(
            f"    submission -> ranked and ZREVRANK answers: p50"
            f" {percentile(latencies, 0.5) * 1000:.1f} ms, p99"
            f" {percentile(latencies, 0.99) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms"
        )
        print("    target p99 < 1 s:", "met" if percentile(latencies, 0.99) < 1 else "MISSED")
        for line in lost:
            print("    LOST:", line)
    finally:
        stop_worker(worker)
        log.unlink(missing_ok=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="for (a)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of (a), fresh games each")
    parser.add_argument("--drain", type=int, default=1000, help="queued tasks for (c)")
    parser.add_argument("--e2e", type=int, default=30, help="games for (b)")
    parser.add_argument("--interval", type=float, default=0.2, help="seconds between (b) games")
    parser.add_argument(
        "--no-sync-commit",
        action="store_true",
        help="run with synchronous_commit=off on the scratch database (commits skip the fsync)",
    )
    args = parser.parse_args()
    print(f"{platform.python_implementation()} {platform.python_version()},"
          f" {os.cpu_count()} CPUs; scratch database {DB_NAME}, Redis {REDIS_URL},"
          f" synchronous_commit {'off' if args.no_sync_commit else 'on'}")  # fmt: skip
    try:
        call_command("migrate", verbosity=0)
        bench_in_process(args.games, args.rounds)
        bench_worker_drain(args.drain)
        bench_end_to_end(args.e2e, args.interval)
    finally:
        connections.close_all()
        scratch_drop(DB_URL)
        redis.Redis.from_url(REDIS_URL).flushdb()


if __name__ == "__main__":
    main()
