"""Season simulation: does the fair-play e-process hold foresight and spare honest players?

    nice -n 10 .venv/bin/python benchmarks/season.py sample --deals 40 --jobs 2   # the cache
    nice -n 10 .venv/bin/python benchmarks/season.py simulate --players 2000      # seasons

Two phases, because the per-game statistic costs seconds of solver work a win and the
machine is small:

1. ``sample`` plays scripted players (``games/solver/players.py``) on the certified
   daily-style deals (``benchmarks/data/certified_deals.json``) and computes each won
   game's blind-survival e-value (``games/solver/evidence.py``; a loss's is 0 and costs
   nothing), appending one JSON line per game to the cache (``--cache``). The kinds:
   ``greedy`` (a weak honest player), ``determinized`` (the strongest honest bot: the
   solver on a guessed stock order, replanning) and ``mixed-30`` (foresight: the solver's
   line on the true deal with 30 % of the decisions taken by the greedy player and
   re-solved, so not a copy of this site's solver line). Re-running appends what is
   missing, so the cache grows by bounded runs.
2. ``simulate`` builds seasons (``--days`` dailies, a year by default) by resampling each
   day's game of each player from the cache of that player's kind (bootstrap: a year's
   deals are drawn from the sampled ones), runs the e-process of
   ``leaderboards/fairplay/eprocess.py`` over them and reports: the share of honest
   players ever held (targets <= 1 %), the day a full-time and a part-time (one day in
   three) foresight player is held (targets: median <= 14 and 90 % <= 30 days; median
   <= 60), and the CPU a tracked player costs a day.

The populations (``simulate``): ``strong`` plays every day as ``determinized``; ``weak``
people play as ``greedy`` on 60 % of the days (a person's habit), give up a game early
on a quarter of the days they play (a resign: a loss), and stop playing for good with a
chance of 1 % a day; ``cheat`` plays ``mixed-30`` every day; ``part-time`` plays
``mixed-30`` one day in three (chosen at random) and as ``determinized`` otherwise.
Pace does not enter the statistic (it reads the moves only), so a person's pace needs no
simulation here; the pace check is ``benchmarks/fairplay.py``'s.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine import GameState  # noqa: E402
from games.solver import players, solve  # noqa: E402
from games.solver.evidence import (  # noqa: E402
    blind_survival,
    certification,
    certified_pool,
    verdict,
)

DEALS = ROOT / "benchmarks" / "data" / "certified_deals.json"
CACHE = ROOT / "benchmarks" / "data" / "season_sample.jsonl"
POOLS = ROOT / "benchmarks" / "data" / "season_pools.json"
VARIANT = "forty-thieves"
KINDS = ("greedy", "mixed-30", "determinized")


# Phase 1: the sample ---------------------------------------------------------------------


def play(kind: str, deal: dict, run: int) -> players.Played:
    seed = int(deal["seed"], 16)
    if kind == "greedy":
        return players.play_greedy(seed, VARIANT, rng_seed=run + 1)
    if kind == "determinized":
        return players.determinized(seed, VARIANT, rng_seed=run, seconds=0.3)
    if kind == "mixed-30":
        line = deal["line"].split()
        return players.clairvoyant_mixed(seed, VARIANT, line, 0.3, rng_seed=run, seconds=0.5)
    raise ValueError(f"unknown player kind {kind!r}")


def sample_one(job: tuple[str, dict, int, bool]) -> dict:
    kind, deal, run, conditioned = job
    began = time.process_time()
    played = play(kind, deal, run)
    play_cpu = time.process_time() - began
    pool = deal.get("pool")
    evidence = blind_survival(
        int(deal["seed"], 16),
        VARIANT,
        played.moves,
        won=played.won,
        rng=random.Random(f"{kind}:{deal['day']}:{run}"),
        accept=certified if conditioned and pool is None else None,
        pool={int(n): orders for n, orders in pool.items()} if pool is not None else None,
        losses=pool is not None,
    )
    return {
        "kind": kind,
        "day": deal["day"],
        "run": run,
        "won": played.won,
        "moves": len(played.moves),
        "log": " ".join(played.moves),
        "play_cpu": round(play_cpu, 2),
        "eval_cpu": round(evidence.seconds, 2),
        "value": evidence.value,
        "blocks": [[b.stock, b.true, b.others] for b in evidence.blocks],
    }


def load_cache(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def random_deals(count: int) -> list[dict]:
    """Uncertified deals (any seed): the control for the certification's tilt."""
    rng = random.Random(2026)
    return [
        {"day": f"random-{i}", "seed": f"{rng.getrandbits(128):032x}", "line": ""}
        for i in range(count)
    ]


#: The benchmark's own certification when completions are conditioned on it: a deal is
#: kept when the evidence's deterministic verdict wins it from the start (a node-capped
#: search and a beam 20 wide), so the test can draw completions exactly as deals were drawn.
#: It is the site's with ``FT_DAILY_CERTIFY_NODES=2000`` (``evidence.certification``).
def certified(game: GameState) -> bool:
    return verdict(game) == "w"


def pooled_deals(count: int, path: Path, jobs: int) -> list[dict]:
    """The site's pipeline (``--pooled``): per "day", the first random seed the site's
    deterministic certification wins (its line is the foresight player's), and the deal's
    certified completions drawn once (``evidence.certified_pool``, as the solver queue
    does), kept in ``path`` so later runs reuse them."""
    known = {d["day"]: d for d in json.loads(path.read_text())} if path.exists() else {}
    missing = [i for i in range(count) if f"pool-{i}" not in known]
    with ProcessPoolExecutor(jobs) as workers:
        for deal in workers.map(pooled_deal, missing):
            known[deal["day"]] = deal
            path.write_text(json.dumps(list(known.values())))
            print(f"{deal['day']}: pool of {len(deal['pool'])} counts in {deal['pool_cpu']} s")
    return [known[f"pool-{i}"] for i in range(count)]


def pooled_deal(i: int) -> dict:
    rng = random.Random(f"certified-{i}")
    while True:
        seed = rng.getrandbits(128)
        found = certification(GameState.from_seed(seed, VARIANT, undo_limit=0))
        if found.verdict == "win":
            break
    day = f"pool-{i}"
    began = time.process_time()
    pool = certified_pool(seed, VARIANT, accept=certified, rng=random.Random(day))
    return {
        "day": day,
        "seed": f"{seed:032x}",
        "line": " ".join(found.line),
        "pool": {str(n): orders for n, orders in pool.items()},
        "pool_cpu": round(time.process_time() - began, 2),
    }


def certified_deals(count: int) -> list[dict]:
    """Per "day", the first random seed whose deal passes :func:`certified`, with a
    winning line (the solver, 10 s) for the foresight player."""
    out = []
    for i in range(count):
        rng = random.Random(f"certified-{i}")
        while True:
            seed = rng.getrandbits(128)
            game = GameState.from_seed(seed, VARIANT, undo_limit=0)
            if certified(game):
                line = solve(game, max_seconds=10).line
                if line:
                    out.append({"day": f"cert-{i}", "seed": f"{seed:032x}", "line": " ".join(line)})
                    break
    return out


def sample(args: argparse.Namespace) -> None:
    if args.pooled:
        deals = pooled_deals(args.deals, args.pools, args.jobs)
    elif args.conditioned:
        deals = certified_deals(args.deals)
    elif args.random:
        deals = random_deals(args.deals)
    else:
        deals = json.loads(DEALS.read_text())["deals"][: args.deals]
    done = {(r["kind"], r["day"], r["run"]) for r in load_cache(args.cache)}
    kinds = args.kinds.split(",")
    jobs = [
        (kind, deal, run, args.conditioned)
        for run in range(args.runs)
        for deal in deals
        for kind in kinds
        if (kind, deal["day"], run) not in done
    ]
    print(f"{len(jobs)} games to play and weigh", flush=True)
    with ProcessPoolExecutor(args.jobs) as pool:
        for row in pool.map(sample_one, jobs):
            with args.cache.open("a") as out:
                out.write(json.dumps(row) + "\n")
            print(
                f"{row['kind']:13} {row['day']} won={row['won']!s:5} value={row['value']:.3g}"
                f" play {row['play_cpu']} s, weigh {row['eval_cpu']} s",
                flush=True,
            )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="phase", required=True)
    one = sub.add_parser("sample", help="play and weigh games into the cache")
    one.add_argument("--deals", type=int, default=40)
    one.add_argument("--runs", type=int, default=1)
    one.add_argument("--kinds", default=",".join(KINDS))
    one.add_argument("--jobs", type=int, default=2)
    one.add_argument("--cache", type=Path, default=CACHE)
    one.add_argument("--random", action="store_true", help="uncertified deals (honest kinds only)")
    one.add_argument(
        "--conditioned",
        action="store_true",
        help="deals certified by a deterministic test, completions conditioned on it",
    )
    one.add_argument(
        "--pooled",
        action="store_true",
        help="as the site: deterministic certification, completions drawn once per deal,"
        " lost games weighed too",
    )
    one.add_argument("--pools", type=Path, default=POOLS)
    two = sub.add_parser("simulate", help="seasons resampled from the cache")
    two.add_argument("--cache", type=Path, default=CACHE)
    two.add_argument("--days", type=int, default=365)
    two.add_argument("--players", type=int, default=2000)
    two.add_argument("--seed", type=int, default=1)
    two.add_argument(
        "--reweigh",
        action="store_true",
        help="recompute each game's value from its cached verdicts with the current statistic",
    )
    args = parser.parse_args(argv)
    if args.phase == "sample":
        sample(args)
    else:
        from season_sim import simulate  # the season model (kept apart: module size)

        simulate(args)


if __name__ == "__main__":
    main()
