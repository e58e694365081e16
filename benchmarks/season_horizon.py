"""A valid *product* of draw factors: the true position judged on its next cards only.

    nice -n 10 .venv/bin/python benchmarks/season_horizon.py \\
        --cache benchmarks/data/season_pooled.jsonl --out benchmarks/data/season_horizon.jsonl

Why: the per-game statistic's draw factors read the whole rest of the stock, so the true
position's factors at successive draws are dependent and only their *mean* is an e-value
(docs/fairplay.md section 6), which carries little evidence. A product is valid when each
draw's factor is revealed by the next weighed draw: judge the true position after the
block on its next ``S`` cards (those turned before the next weighed draw, ``S`` the
stride) followed by a *tail* drawn as the certification drew the deal (a certified
completion at ``S`` cards fewer: ``evidence.certified_pool`` with its own random numbers),
and the completions as before. Given what the player has seen, the true head with a
certified tail and each completion are drawn from the same law, and the factor depends
on the true order only through cards the next weighed draw has revealed, so the product
over the draws is a test martingale for every blind player.

This re-weighs cached games (``season.py sample --pooled``): the completions' verdicts
are the cached ones (same pool, same decider), only the true position is solved again,
once per draw and horizon. Prints, per kind and horizon: a draw's mean factor (s.e.
clustered by game), the product and the mean a game, and seasons as ``season_variants``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine import GameState  # noqa: E402
from games.solver.evidence import (  # noqa: E402
    block_factor,
    certified_pool,
    game_value,
    split_blocks,
    verdict,
    weighed_counts,
)

VARIANT = "forty-thieves"
HORIZONS = (4, 8, 16)


def certified(game: GameState) -> bool:
    return verdict(game) == "w"


def weigh_deal(job: tuple[dict, list[dict]]) -> list[dict]:
    """The deal's tails (one certified order at each count from 44 down), then each of its
    cached games' true positions judged on their next S cards and a tail."""
    deal, rows = job
    seed = int(deal["seed"], 16)
    began = time.process_time()
    tails = certified_pool(
        seed, VARIANT, accept=certified, rng=random.Random(f"tails-{deal['day']}"),
        completions=1, max_stock=44, tries=400,
    )  # fmt: skip
    tails[0] = [[]]
    tail_cpu = time.process_time() - began
    out = []
    for row in rows:
        cached = {b[0]: b for b in row["blocks"]}
        game = GameState.from_seed(seed, VARIANT, undo_limit=0)
        found: dict[str, list] = {str(s): [] for s in HORIZONS}
        began = time.process_time()
        for block in split_blocks(row["log"].split()):
            n = game.stock_count
            if n in cached:
                after = game.copy()
                after.replay(block)
                for s in HORIZONS:
                    if n % s or n - s not in tails:
                        continue
                    truth = after.copy()
                    truth._stock = list(tails[n - s][0]) + list(after._stock[n - s :])
                    assert sorted(truth._stock) == sorted(after._stock)
                    found[str(s)].append([n, verdict(truth), cached[n][2]])
            game.replay(block)
        out.append(
            {**row, "horizon": found, "horizon_cpu": round(time.process_time() - began, 2),
             "tail_cpu": round(tail_cpu, 2), "tails": sorted(tails)}
        )  # fmt: skip
    return out


def _game(row: dict) -> tuple[str, str, int]:
    return row["kind"], row["day"], row["run"]


def clustered(games: list[list[float]]) -> tuple[float, float]:
    n = sum(map(len, games))
    mean = sum(map(sum, games)) / n
    spread = sum((sum(g) - mean * len(g)) ** 2 for g in games)
    return mean, math.sqrt(spread * len(games) / (len(games) - 1)) / n


def report(rows: list[dict], players: int) -> None:
    from season_variants import pick, pick_part_time, season  # the same season model

    kinds: dict[str, list[dict]] = {}
    for row in rows:
        kinds.setdefault(row["kind"], []).append(row)
    for s in HORIZONS:
        values: dict[str, dict[str, list[float]]] = {}
        for kind, group in kinds.items():
            factors = [[block_factor(t, o) for _n, t, o in r["horizon"][str(s)]] for r in group]
            mean, error = clustered(factors)
            slots = len(weighed_counts(64, stride=s))
            prod = [math.prod(f) for f in factors]
            avg = [game_value(f, won=True, losses=True, slots=slots) for f in factors]
            values[kind] = {"product": prod, "mean": avg}
            wins = [p for p, r in zip(prod, group, strict=True) if r["won"]]
            print(
                f"S={s:2} {kind:13} draws {sum(map(len, factors)):4}: factor {mean:.3f} ±"
                f" {error:.3f}; a game: product {statistics.fmean(prod):.2f} ±"
                f" {statistics.stdev(prod) / len(prod) ** 0.5:.2f} (median win"
                f" {statistics.median(wins) if wins else float('nan'):.2f}), mean"
                f" {statistics.fmean(avg):.3f}"
            )
        for how in ("product", "mean"):
            honest, cheat = values["determinized"][how], values["mixed-30"][how]
            rng = random.Random(1)
            held = [season(partial(pick, honest), rng) for _ in range(players)]
            daily = sorted(season(partial(pick, cheat), rng) or 9999 for _ in range(players))
            part = sorted(
                season(partial(pick_part_time, cheat, honest), rng) or 9999 for _ in range(players)
            )
            print(
                f"   {how}: honest held {sum(d is not None for d in held) / players:.1%};"
                f" daily cheat median {statistics.median(daily)}, 90 %"
                f" {daily[int(0.9 * len(daily))]}; part-time median {statistics.median(part)}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--pools", type=Path, default=ROOT / "benchmarks/data/season_pools.json")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--players", type=int, default=400)
    args = parser.parse_args()
    done_days: set[tuple[str, str, int]] = set()
    if args.out.exists():  # re-weigh only the deals not done yet
        done_days = {_game(json.loads(line)) for line in args.out.read_text().splitlines()}
    deals = {d["day"]: d for d in json.loads(args.pools.read_text())}
    rows = [json.loads(line) for line in args.cache.read_text().splitlines()]
    by_day: dict[str, list[dict]] = {}
    for row in rows:
        if _game(row) not in done_days:
            by_day.setdefault(row["day"], []).append(row)
    jobs = [(deals[day], group) for day, group in by_day.items()]
    if jobs:
        with ProcessPoolExecutor(args.jobs) as workers, args.out.open("a") as out:
            for done in workers.map(weigh_deal, jobs):
                for row in done:
                    out.write(json.dumps(row) + "\n")
                out.flush()
                print(f"{done[0]['day']}: tails {done[0]['tail_cpu']} s,"
                      f" games {[r['horizon_cpu'] for r in done]} s", flush=True)  # fmt: skip
    report([json.loads(line) for line in args.out.read_text().splitlines()], args.players)


if __name__ == "__main__":
    main()
