"""Daily-board reads at a million entries: Redis sorted set vs PostgreSQL COUNT.

    .venv/bin/python benchmarks/leaderboards.py                  # full run, a few minutes
    .venv/bin/python benchmarks/leaderboards.py --entries 100000 # quicker

(a) Redis: a sorted set of ``--entries`` results, keyed and named exactly as
``RedisBoard`` does (``sort_key``/``member``), in a dedicated database
(``--redis``, default /12, flushed before and after). For ``--players`` random
players, "my rank and the top 100" is timed as one pipelined round trip
(ZREVRANK + ZREVRANGE 0 99) and as separate commands.

(b) PostgreSQL: the same results in a scratch database ``ft_bench`` (dropped
and recreated; never the real or test databases) in a table with
``Result``'s columns and its ``daily_board_order`` partial index, loaded with
COPY; the ``DatabaseBoard.rank`` COUNT of better rows is timed for
``--pg-players`` mid-table players.
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import random
import sys
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ftsite.settings")

import django  # noqa: E402

django.setup()

import psycopg  # noqa: E402
import redis  # noqa: E402

from leaderboards.boards import member, result_id_of, sort_key  # noqa: E402

DAY = date(2026, 11, 29)
VARIANT = "classic"
DAY_START = datetime(2026, 11, 29, tzinfo=UTC)


def synthetic_results(count: int, seed: int = 2026):
    """Plausible finished games of one day, with many ties on the sort key.

    Yields ``(id, won, score, moves, duration_ms, finished_at)``. A few per cent
    win; most lose or resign somewhere mid-game; a large share resign at once
    (score 0, 0-2 moves, whole seconds), which ties the key across thousands.
    """
    rng = random.Random(seed)
    for result_id in range(1, count + 1):
        roll = rng.random()
        if roll < 0.04:  # won: every card home, so the score is near the top
            won, score = True, rng.choice((1185, 1215, 1230, 1265, 1300, 1360))
            moves, duration = rng.randint(250, 520), rng.randint(240_000, 3_600_000)
        elif roll < 0.30:  # resigned at once: massive ties
            won, score, moves = False, 0, rng.randint(0, 2)
            duration = 1000 * rng.randint(1, 60)
        else:  # lost or resigned mid-game; scores in steps of 5, moves in steps of 10
            won = False
            score = 5 * int(rng.triangular(0, 240, 60))
            moves = 10 * rng.randint(5, 45)
            duration = 1000 * rng.randint(30, 2400)
        finished = DAY_START + timedelta(milliseconds=rng.randint(0, 86_400_000 - 1))
        yield result_id, won, score, moves, duration, finished


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {"p50": pick(0.50), "p95": pick(0.95), "p99": pick(0.99), "max": ordered[-1]}


def show(label: str, samples_s: list[float]) -> dict[str, float]:
    figures = {k: v * 1000 for k, v in percentiles(samples_s).items()}
    text = "  ".join(f"{k} {v:7.3f} ms" for k, v in figures.items())
    print(f"  {label:<42} {text}")
    return figures


# Redis ---------------------------------------------------------------------------------------


def bench_redis(url: str, entries: int, players: int, batch: int) -> dict[str, dict]:
    client = redis.Redis.from_url(url)
    client.flushdb()
    key = f"ft:board:daily:{VARIANT}:{DAY.isoformat()}"
    names: list[str] = []
    keys: set[int] = set()
    started = time.perf_counter()
    pipe = client.pipeline(transaction=False)
    mapping: dict[str, int] = {}
    for result_id, won, score, moves, duration, finished in synthetic_results(entries):
        name = member(result_id, int(finished.timestamp() * 1000))
        names.append(name)
        mapping[name] = sort_key(won=won, score=score, moves=moves, duration_ms=duration)
        keys.add(mapping[name])
        if len(mapping) == batch:
            pipe.zadd(key, mapping)
            mapping = {}
            if len(pipe) == 10:
                pipe.execute()
    if mapping:
        pipe.zadd(key, mapping)
    pipe.execute()
    load_s = time.perf_counter() - started
    size = client.zcard(key)
    memory = client.memory_usage(key) or 0
    print(f"Redis: {size:,} entries loaded in {load_s:.1f} s (pipelined ZADD, {batch:,} a call),")
    print(f"  {len(keys):,} distinct sort keys (ties are common); the set takes"
          f" {memory / 2**20:.0f} MiB")  # fmt: skip

    rng = random.Random(7)
    chosen = [rng.choice(names) for _ in range(players)]
    for name in chosen[:200]:  # warm the connection and the code paths
        client.zrevrank(key, name)

    before = client.info("commandstats")
    one_trip, rank_only, top_only, two_trips = [], [], [], []
    pipe = client.pipeline(transaction=False)
    for name in chosen:
        t0 = time.perf_counter()
        pipe.zrevrank(key, name)
        pipe.zrevrange(key, 0, 99)
        rank, top = pipe.execute()
        t1 = time.perf_counter()
        assert rank is not None and len(top) == 100
        one_trip.append(t1 - t0)
    for name in chosen:
        t0 = time.perf_counter()
        client.zrevrank(key, name)
        t1 = time.perf_counter()
        top = client.zrevrange(key, 0, 99)
        t2 = time.perf_counter()
        rank_only.append(t1 - t0)
        top_only.append(t2 - t1)
        two_trips.append(t2 - t0)
    assert result_id_of(top[0]) > 0
    after = client.info("commandstats")
    server = {}
    for command in ("zrevrank", "zrevrange"):
        stat = f"cmdstat_{command}"
        calls = after[stat]["calls"] - before.get(stat, {}).get("calls", 0)
        usec = after[stat]["usec"] - before.get(stat, {}).get("usec", 0)
        server[command] = usec / max(1, calls) / 1000
    print(f"Rank + top 100 for {players:,} random players:")
    figures = {
        "pipelined": show("ZREVRANK + ZREVRANGE 0 99, one round trip", one_trip),
        "two_trips": show("the same as two round trips", two_trips),
        "rank": show("ZREVRANK alone", rank_only),
        "top": show("ZREVRANGE 0 99 alone", top_only),
        "server_ms": server,
    }
    print(
        f"  Redis server time per call (INFO commandstats): ZREVRANK {server['zrevrank']:.4f} ms,"
        f" ZREVRANGE 0 99 {server['zrevrange']:.4f} ms; the rest is client and network"
    )
    client.flushdb()
    return figures


# PostgreSQL ----------------------------------------------------------------------------------

TABLE = """
CREATE TABLE results (
    id bigint PRIMARY KEY,
    day date,
    variant varchar(60) NOT NULL,
    ranked boolean NOT NULL,
    status varchar(10) NOT NULL,
    outcome varchar(10) NOT NULL,
    won boolean NOT NULL,
    score integer NOT NULL CHECK (score >= 0),
    moves integer NOT NULL CHECK (moves >= 0),
    duration_ms bigint NOT NULL CHECK (duration_ms >= 0),
    finished_at timestamptz NOT NULL
);
"""
# As Django creates Result's daily_board_order (leaderboards/models.py).
INDEX = """
CREATE INDEX daily_board_order ON results
    (day, variant, won DESC, score DESC, moves, duration_ms, finished_at)
    WHERE ranked AND status = 'verified';
"""
# DatabaseBoard.rank: the rows better than the player's, as its Q(...) | Q(...) compiles.
BETTER = """
SELECT count(*) FROM results
WHERE day = %(day)s AND variant = %(variant)s AND ranked AND status = 'verified'
  AND (won > %(won)s
    OR (won = %(won)s AND score > %(score)s)
    OR (won = %(won)s AND score = %(score)s AND moves < %(moves)s)
    OR (won = %(won)s AND score = %(score)s AND moves = %(moves)s
        AND duration_ms < %(duration_ms)s)
    OR (won = %(won)s AND score = %(score)s AND moves = %(moves)s
        AND duration_ms = %(duration_ms)s AND finished_at < %(finished_at)s)
    OR (won = %(won)s AND score = %(score)s AND moves = %(moves)s
        AND duration_ms = %(duration_ms)s AND finished_at = %(finished_at)s AND id < %(id)s))
"""


def bench_postgres(base: str, name: str, entries: int, players: int) -> dict[str, dict]:
    with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        with psycopg.connect(f"{base}/{name}", autocommit=True) as conn:
            return _bench_postgres(conn, entries, players)
    finally:
        with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _bench_postgres(conn: psycopg.Connection, entries: int, players: int) -> dict[str, dict]:
    conn.execute(TABLE)
    started = time.perf_counter()
    with conn.cursor().copy(
        "COPY results (id, day, variant, ranked, status, outcome, won, score, moves,"
        " duration_ms, finished_at) FROM STDIN"
    ) as copy:
        buffer = io.StringIO()
        for result_id, won, score, moves, duration, finished in synthetic_results(entries):
            outcome = "won" if won else "resigned"
            buffer.write(
                f"{result_id}\t{DAY}\t{VARIANT}\tt\tverified\t{outcome}\t{'t' if won else 'f'}"
                f"\t{score}\t{moves}\t{duration}\t{finished.isoformat()}\n"
            )
            if buffer.tell() > 1 << 20:
                copy.write(buffer.getvalue())
                buffer = io.StringIO()
        copy.write(buffer.getvalue())
    conn.execute(INDEX)
    conn.execute("VACUUM ANALYZE results")
    load_s = time.perf_counter() - started
    print(f"PostgreSQL: {entries:,} rows loaded with COPY, indexed and analysed in {load_s:.1f} s")

    # Mid-table players: ranks between 40 % and 60 % of the board, in board order.
    offset_lo, offset_hi = int(entries * 0.4), int(entries * 0.6)
    rows = conn.execute(
        "SELECT id, won, score, moves, duration_ms, finished_at FROM results"
        " WHERE day = %s AND variant = %s AND ranked AND status = 'verified'"
        " ORDER BY won DESC, score DESC, moves, duration_ms, finished_at, id"
        " OFFSET %s LIMIT %s",
        [DAY, VARIANT, offset_lo, offset_hi - offset_lo],
    ).fetchall()
    rng = random.Random(11)
    chosen = rng.sample(rows, players)
    keys = ("id", "won", "score", "moves", "duration_ms", "finished_at")

    def params(row):
        return {"day": DAY, "variant": VARIANT, **dict(zip(keys, row, strict=True))}

    plan = conn.execute("EXPLAIN " + BETTER, params(chosen[0])).fetchall()
    print("  plan: " + " / ".join(line[0].strip()[:70] for line in plan[:4]))
    for row in chosen[:3]:  # warm the cache
        conn.execute(BETTER, params(row)).fetchone()
    times = []
    for row in chosen:
        t0 = time.perf_counter()
        (better,) = conn.execute(BETTER, params(row)).fetchone()
        times.append(time.perf_counter() - t0)
        assert offset_lo <= better < offset_hi
    print(f"COUNT of better rows for {players} mid-table players (ranks 40-60 %):")
    return {"count": show("SELECT count(*) ... (DatabaseBoard.rank)", times)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--pg-players", type=int, default=200)
    parser.add_argument("--batch", type=int, default=10_000, help="members per ZADD")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/12")
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--pg-database", default="ft_bench")
    parser.add_argument("--skip-postgres", action="store_true")
    args = parser.parse_args()
    if args.pg_database in ("fortythieves", "test_fortythieves", "postgres"):
        parser.error("the scratch database must not be a real one")

    print(
        f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} CPUs"
        f" ({platform.machine()}), redis-py {redis.__version__}, psycopg {psycopg.__version__}"
    )
    redis_figures = bench_redis(args.redis, args.entries, args.players, args.batch)
    if args.skip_postgres:
        return
    pg_figures = bench_postgres(args.postgres, args.pg_database, args.entries, args.pg_players)
    fast, slow = redis_figures["pipelined"], pg_figures["count"]
    print(
        f"PostgreSQL COUNT / Redis rank + top 100: p50 x{slow['p50'] / fast['p50']:,.0f},"
        f" p99 x{slow['p99'] / fast['p99']:,.0f}"
    )
    print(f"Target: Redis rank + top 100 p99 < 2 ms: {'met' if fast['p99'] < 2 else 'MISSED'}"
          f" ({fast['p99']:.3f} ms)")  # fmt: skip


if __name__ == "__main__":
    main()
