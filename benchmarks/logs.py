"""What a finished game's move log costs stored, as rows and packed (issue 37).

    .venv/bin/python benchmarks/logs.py                 # 300 games, 5 repeats
    .venv/bin/python benchmarks/logs.py --games 100 --repeats 3

Runs against a scratch PostgreSQL database (``ft_bench_logs``: dropped, created and
migrated here, dropped at the end; ``BENCH_DATABASE_URL`` to use another). Never the real
or the test databases.

The games are finished and verified (``result_verify``) as the site leaves them: a third
practice wins (the real winning logs of tests/data/won_games.json), a third ranked daily
resignations of ~300 moves, a third practice games with take-backs (an undo every ~15
actions); every action stamped at a human pace (gaps of 0.3-8 s, to the microsecond) and
each player action with a client message id as the board sends one. Then
``manage.py compact_logs`` packs them all. Reported:

- bytes a game and an action: the action table with its indexes
  (``pg_total_relation_size``) before, the packed table after, and the blobs alone;
- that every game's log (``games.logs.game_log``) reads back identical after packing;
- the time to read every game's log, rows against packed (min/median/max of repeats);
- games packed a second.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.scratch import run_header, scratch_database, scratch_drop  # noqa: E402
from benchmarks.stats import spread  # noqa: E402

# The boards are not the point here (no Redis): the database is.
DB_URL, DB_NAME = scratch_database("ft_bench_logs", FT_COMPACT_AFTER_HOURS="1")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, connections  # noqa: E402
from django.utils import timezone  # noqa: E402

from benchmarks.engine import play_policy  # noqa: E402
from games import services  # noqa: E402
from games.engine import RESIGN, UNDO, GameState  # noqa: E402
from games.logs import game_log  # noqa: E402
from games.models import Action, CompactLog, Deal, Game, User  # noqa: E402
from leaderboards.models import Result  # noqa: E402
from leaderboards.services import result_verify  # noqa: E402

WON = json.loads((ROOT / "tests" / "data" / "won_games.json").read_text())["games"]
AGO = timedelta(days=3)


def logged(deal: Deal, moves: list[str], undo_limit: int, rng: random.Random, undos: bool):
    """``(move, score, by_system)`` of each action, take-backs sprinkled in if ``undos``."""
    engine = GameState.from_seed(deal.seed, deal.variant, undo_limit=undo_limit)
    out: list[tuple[str, int]] = []
    for move in moves:
        if undos and rng.random() < 1 / 15:  # a move tried and taken back: same position
            tried = rng.choice(engine.legal_moves())
            trial = engine.copy()
            trial.play(tried)
            if not trial.is_stuck() and not trial.is_won():  # an ended game takes no undo
                engine.play(tried)
                out.append((tried, engine.score))
                engine.undo()
                out.append((UNDO, engine.score))
        if move not in engine.legal_moves():
            break
        engine.play(move)
        out.append((move, engine.score))
    if not engine.is_won() and not engine.is_stuck():
        out.append((RESIGN, engine.score))
    status = "won" if engine.is_won() else "lost" if engine.is_stuck() else "resigned"
    return out, status, engine


def finished_game(player: User, deal: Deal, mode: str, moves: list[str], rng, undos: bool) -> Game:
    undo_limit = 0 if mode == "ranked" else 100
    actions, status, engine = logged(deal, moves, undo_limit, rng, undos)
    started = timezone.now() - AGO
    stamps, at = [], started
    for _ in actions:
        at += timedelta(microseconds=rng.randint(300_000, 8_000_000))
        stamps.append(at)
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
    tag = f"{rng.getrandbits(32):08x}"
    Action.objects.bulk_create(
        Action(game=game, seq=seq, move=move, score=score, created_at=at, client_id=f"{tag}-{seq}")
        for seq, ((move, score), at) in enumerate(zip(actions, stamps, strict=True), start=1)
    )
    return game


def make_games(count: int) -> list[Game]:
    rng = random.Random(37)
    day = (timezone.now() - AGO).date()
    daily = services.deal_open_daily(day=day)
    Deal.objects.filter(pk=daily.pk).update(closes_at=timezone.now() - timedelta(days=1))
    daily.refresh_from_db()
    won_deals = [services.deal_for_code(code=g["code"]) for g in WON]
    users = User.objects.bulk_create(User(username=f"l{i}") for i in range(count))
    games = []
    for i, user in enumerate(users):
        kind = i % 3
        if kind == 0:
            k = i % len(WON)
            game = finished_game(
                user, won_deals[k], "practice", WON[k]["moves"].split(), rng, False
            )
        elif kind == 1:
            moves = play_policy(
                GameState.from_seed(daily.seed, daily.variant, undo_limit=0), rng, 300
            )
            game = finished_game(user, daily, "ranked", moves, rng, False)
        else:
            deal = services.deal_for_code(code=f"FT1-N-L{i:06d}")
            moves = play_policy(
                GameState.from_seed(deal.seed, deal.variant, undo_limit=0), rng, 300
            )
            game = finished_game(user, deal, "practice", moves, rng, True)
        result = result_verify(game_id=game.pk)
        assert result is not None, game.pk
        assert result.status == Result.Status.VERIFIED, result.reason
        games.append(game)
    return games


def table_bytes(model) -> int:
    with connection.cursor() as cursor:
        cursor.execute("VACUUM FULL ANALYZE " + model._meta.db_table)
        cursor.execute("SELECT pg_total_relation_size(%s)", [model._meta.db_table])
        return cursor.fetchone()[0]


def read_all(ids: list, repeats: int) -> tuple[list[float], list]:
    times, logs = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        logs = [game_log(game_id=pk) for pk in ids]
        times.append(time.perf_counter() - t0)
    return times, logs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    print(run_header())
    games = make_games(args.games)
    ids = [g.pk for g in games]
    actions = Action.objects.count()
    rows = table_bytes(Action)
    print(
        f"{len(ids)} finished, verified games, {actions:,} actions"
        f" ({actions / len(ids):.0f} a game)"
    )
    print(f"  as rows:   {rows / len(ids):9,.0f} B a game  {rows / actions:6.1f} B an action"
          "  (the action table with its indexes)")  # fmt: skip
    row_times, before = read_all(ids, args.repeats)
    t0 = time.perf_counter()
    call_command("compact_logs", verbosity=0, stdout=open(os.devnull, "w"))  # noqa: SIM115
    packing = time.perf_counter() - t0
    assert not Action.objects.exists() and CompactLog.objects.count() == len(ids)
    packed = table_bytes(CompactLog)
    blobs = sum(len(bytes(d)) for d in CompactLog.objects.values_list("data", flat=True))
    print(f"  packed:    {packed / len(ids):9,.0f} B a game  {packed / actions:6.1f} B an action"
          f"  (the packed table); blobs alone {blobs / len(ids):,.0f} B a game")  # fmt: skip
    print(f"  ratio:     {rows / packed:.1f} x smaller")
    packed_times, after = read_all(ids, args.repeats)
    same = sum(a == b for a, b in zip(before, after, strict=True))
    print(f"  read back identical: {same} of {len(ids)} games")
    rows, packed = (spread(times, "{:.1f}", scale=1000) for times in (row_times, packed_times))
    print(f"  read every game's log, ms (min / median / max of {args.repeats}):"
          f" rows {rows}, packed {packed}")  # fmt: skip
    print(f"  compact_logs: {len(ids) / packing:,.0f} games/s ({packing:.2f} s)")
    assert same == len(ids)


if __name__ == "__main__":
    try:
        main()
    finally:
        connections.close_all()
        scratch_drop(DB_URL)
