"""A finer per-draw score for the horizon statistic: the solver's effort, not only its verdict.

    nice -n 10 .venv/bin/python benchmarks/season_rank.py --jobs 2 \\
        --cache benchmarks/data/season_horizon.jsonl --out benchmarks/data/season_rank.jsonl

The horizon statistic's draw factor uses the decider's verdict alone (won, undecided,
lost), so a draw whose truth and completions are all won (about half of a foresight
player's draws) carries no evidence. Any function of the position may order the five
positions instead: here the verdict first, then the nodes the fixed-budget decider spent
(fewer for a position it wins sooner: ``evidence.decide``, counts, never a clock), ties
broken at random. Given what the player has seen, the truth (its next ``S`` cards, then a
certified tail) and the four completions are exchangeable, so the truth's rank among the
five is uniform on 1..5 and ``5 * p(rank)`` has mean one for any fixed ``p``; judged on the
next ``S`` cards and a tail, it is revealed by the next draw of its horizon, so the product
(or the draw-by-draw bets) is a test supermartingale, as for the verdict's factor.

This solves every position again (the cache keeps verdicts, not node counts): per cached
game and weighed count, the four pooled completions and the truth at horizons 4 and 8
(66 positions a game), the tails drawn as ``season_horizon.py`` drew them (same seeds).
``season_mixture.py --rank FILE`` compares the seasons.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine import GameState  # noqa: E402
from games.solver.evidence import certified_pool, decide, split_blocks, verdict  # noqa: E402

VARIANT = "forty-thieves"
HORIZONS = (4, 8)


def certified(game: GameState) -> bool:
    return verdict(game) == "w"


def solve(game: GameState) -> list:
    found, _line, nodes = decide(game)
    return [found, nodes]


def deal_of(deal: dict) -> tuple[int, dict[int, list], dict[int, list]]:
    """A pooled deal's seed, its completions by stock count and its tails (drawn again
    with the deal's own random numbers, as season_horizon drew them)."""
    seed = int(deal["seed"], 16)
    pool = {int(n): orders for n, orders in deal["pool"].items()}
    tails = certified_pool(
        seed, VARIANT, accept=certified, rng=random.Random(f"tails-{deal['day']}"),
        completions=1, max_stock=44, tries=400,
    )  # fmt: skip
    tails[0] = [[]]
    return seed, pool, tails


def rescore(job: tuple[dict, list[dict]]) -> list[dict]:
    deal, rows = job
    seed, pool, tails = deal_of(deal)
    out = []
    for row in rows:
        game = GameState.from_seed(seed, VARIANT, undo_limit=0)
        draws = []
        began = time.process_time()
        for block in split_blocks(row["log"].split()):
            n = game.stock_count
            if n <= 48 and n % 4 == 0 and n in pool:
                others = []
                for order in pool[n]:
                    other = game.copy()
                    other._stock = list(order)
                    other.replay(block)
                    others.append(solve(other))
                after = game.copy()
                after.replay(block)
                truths = {}
                for s in HORIZONS:
                    if n % s == 0 and n - s in tails:
                        truth = after.copy()
                        truth._stock = list(tails[n - s][0]) + list(after._stock[n - s :])
                        truths[str(s)] = solve(truth)
                draws.append([n, others, truths])
            game.replay(block)
        out.append(
            {"kind": row["kind"], "day": row["day"], "run": row["run"], "won": row["won"],
             "draws": draws, "cpu": round(time.process_time() - began, 2)}
        )  # fmt: skip
    return out


def jobs_from_cache(
    cache: Path, pools: Path, out: Path, wanted: Callable[[dict], bool]
) -> list[tuple[dict, list[dict]]]:
    """The cached games ``wanted``, grouped by deal with the deal's pool, leaving out the
    deals ``out`` already holds (a run stopped half-way goes on where it stopped)."""
    done = set()
    if out.exists():
        done = {json.loads(line)["day"] for line in out.read_text().splitlines()}
    deals = {d["day"]: d for d in json.loads(pools.read_text())}
    by_day: dict[str, list[dict]] = {}
    for line in cache.read_text().splitlines():
        row = json.loads(line)
        if wanted(row) and row["day"] not in done:
            by_day.setdefault(row["day"], []).append(row)
    return [(deals[day], rows) for day, rows in by_day.items()]


def append_rows(
    work: Callable[[tuple[dict, list[dict]]], list[dict]],
    jobs: list[tuple[dict, list[dict]]],
    *,
    out: Path,
    workers: int,
) -> None:
    """``work`` on each deal's games in ``workers`` processes, each deal's rows appended to
    ``out`` as it ends."""
    with ProcessPoolExecutor(workers) as pool, out.open("a") as file:
        for rows in pool.map(work, jobs):
            for row in rows:
                file.write(json.dumps(row) + "\n")
            file.flush()
            print(rows[0]["day"], [r["cpu"] for r in rows], flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--pools", type=Path, default=ROOT / "benchmarks/data/season_pools.json")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--kinds", default="determinized,mixed-30,greedy")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    kinds = set(args.kinds.split(","))
    jobs = jobs_from_cache(args.cache, args.pools, args.out, lambda row: row["kind"] in kinds)
    append_rows(rescore, jobs, out=args.out, workers=args.jobs)


if __name__ == "__main__":
    main()
