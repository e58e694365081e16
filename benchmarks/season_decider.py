"""How much a stronger decider adds to the horizon statistic, re-weighing cached games.

    nice -n 10 .venv/bin/python benchmarks/season_decider.py --nodes 20000 --jobs 2 \\
        --cache benchmarks/data/season_horizon.jsonl --out benchmarks/data/season_decider.jsonl

The horizon statistic's evidence per draw is bounded by how differently the true position
(its next ``S`` cards, then a certified tail) and the completions are judged: with the
2,000-node decider about half the strongest honest bot's positions and 7-15 % of a
foresight player's are left undecided (weight 0.25). ``h`` may be any function of the
position (the exchangeability argument does not care which), so a larger node budget is
as valid. A search of ``N`` nodes finds every win and every proof a 2,000-node one finds
(the same depth-first order, and the same beam after it), so only the positions the
cached decider left undecided are solved again. Prints each deal's CPU; the output keeps
each game's S = 8 draws (``[stock, truth, completions]``, as ``season_horizon.jsonl``) with
the new verdicts, to compare with the cached ones (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.season_rank import append_rows, deal_of, jobs_from_cache  # noqa: E402
from games.engine import GameState  # noqa: E402
from games.solver.evidence import split_blocks, verdict  # noqa: E402

VARIANT = "forty-thieves"
S = 8


def redecide(job: tuple[dict, list[dict]], nodes: int, sleep: bool = False) -> list[dict]:
    deal, rows = job
    seed, pool, tails = deal_of(deal)
    out = []
    for row in rows:
        cached = {n: (t, o) for n, t, o in row["horizon"][str(S)]}
        game = GameState.from_seed(seed, VARIANT, undo_limit=0)
        found = []
        began = time.process_time()
        for block in split_blocks(row["log"].split()):
            n = game.stock_count
            if n in cached:
                after = game.copy()
                after.replay(block)
                truth = after.copy()
                truth._stock = list(tails[n - S][0]) + list(after._stock[n - S :])
                positions = []
                for order in pool[n]:
                    other = game.copy()
                    other._stock = list(order)
                    other.replay(block)
                    positions.append(other)
                positions.append(truth)
                t, o = cached[n]
                old = o + t
                new = "".join(
                    verdict(p, nodes=nodes, sleep=sleep) if v == "u" else v
                    for p, v in zip(positions, old, strict=True)
                )
                found.append([n, new[-1], new[:-1]])
            game.replay(block)
        out.append(
            {"kind": row["kind"], "day": row["day"], "run": row["run"], "won": row["won"],
             "nodes": nodes, "horizon": {str(S): found},
             "cpu": round(time.process_time() - began, 2)}
        )  # fmt: skip
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--pools", type=Path, default=ROOT / "benchmarks/data/season_pools.json")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--nodes", type=int, default=20000)
    parser.add_argument("--deals", type=int, default=48)
    parser.add_argument("--kinds", default="determinized,mixed-30")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--sleep", action="store_true", help="the search puts commuting moves to sleep"
    )
    args = parser.parse_args()
    kinds = set(args.kinds.split(","))

    def wanted(row: dict) -> bool:
        return row["kind"] in kinds and int(row["day"].split("-")[1]) < args.deals

    jobs = jobs_from_cache(args.cache, args.pools, args.out, wanted)
    append_rows(
        partial(redecide, nodes=args.nodes, sleep=args.sleep), jobs, out=args.out, workers=args.jobs
    )


if __name__ == "__main__":
    main()
