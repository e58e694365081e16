"""Weaker deciders: does a short-sighted judge tell a foresight player's truths apart better?

    nice -n 19 .venv/bin/python benchmarks/season_weak.py --nodes 300 --width 5 --out /tmp/w5.jsonl
    .venv/bin/python benchmarks/season_mixture.py --cache /tmp/w5.jsonl --growth

The horizon statistic judges the truth on its next ``S`` true cards and a certified tail.
A decider that reads far ahead (today's: 2,000 nodes, then a beam 20 wide) finds most of a
foresight player's positions won, truths and completions alike; the idea tried here is the
opposite of a wider beam: a decider so short-sighted that what it wins depends mostly on
the next few cards, which is where the truth differs from a completion. Any function of
the position keeps the test valid, so only its power is in question.

Every cached position (``season_horizon.py``'s games; the deal's pooled completions; the
tails drawn again as ``season_horizon`` drew them) is judged by ``evidence.decide`` with
``--nodes`` and a beam ``--width`` wide (``--width 0``: the depth-first search alone).
Counts only, never a clock. The output has ``season_horizon.jsonl``'s ``horizon`` format,
which ``season_mixture.py`` reads (``--growth``: the best fraction's growth a day).
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
from games.solver.evidence import decide, split_blocks  # noqa: E402
from games.solver.search import Search  # noqa: E402

VARIANT = "forty-thieves"
HORIZONS = (4, 8)
NO_DEADLINE = 1e12


def judge(game: GameState, *, nodes: int, width: int) -> str:
    """The weak decider's verdict: "w", "l" or "u"."""
    if width > 0:
        return decide(game, nodes=nodes, width=width)[0]
    if game.is_won():
        return "w"
    found, _line = Search(game.copy(), deadline=NO_DEADLINE, max_nodes=nodes).run()
    return {"win": "w", "lost": "l"}.get(found, "u")


def rejudge(job: tuple[dict, list[dict]], *, nodes: int, width: int) -> list[dict]:
    """Each of a deal's cached games, every weighed draw judged again."""
    deal, rows = job
    seed, pool, tails = deal_of(deal)
    out = []
    for row in rows:
        game = GameState.from_seed(seed, VARIANT, undo_limit=0)
        found: dict[str, list] = {str(s): [] for s in HORIZONS}
        began = time.process_time()
        for block in split_blocks(row["log"].split()):
            n = game.stock_count
            if n <= 48 and n % 4 == 0 and len(pool.get(n, [])) == 4:
                after = game.copy()
                after.replay(block)
                others = []
                for order in pool[n]:
                    other = game.copy()
                    other._stock = list(order)
                    other.replay(block)
                    others.append(judge(other, nodes=nodes, width=width))
                for s in HORIZONS:
                    if n % s == 0 and (n - s) in tails:
                        truth = after.copy()
                        truth._stock = list(tails[n - s][0]) + list(after._stock[n - s :])
                        verdict = judge(truth, nodes=nodes, width=width)
                        found[str(s)].append([n, verdict, "".join(others)])
            game.replay(block)
        out.append(
            {"kind": row["kind"], "day": row["day"], "run": row["run"], "won": row["won"],
             "nodes": nodes, "width": width, "horizon": found,
             "cpu": round(time.process_time() - began, 2)}
        )  # fmt: skip
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, default=ROOT / "benchmarks/data/season_horizon.jsonl")
    parser.add_argument("--pools", type=Path, default=ROOT / "benchmarks/data/season_pools.json")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--nodes", type=int, default=300)
    parser.add_argument("--width", type=int, default=5, help="beam width (0: search alone)")
    parser.add_argument("--kinds", default="determinized,mixed-30")
    parser.add_argument("--deals", type=int, default=48)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    kinds = set(args.kinds.split(","))

    def wanted(row: dict) -> bool:
        return row["kind"] in kinds and int(row["day"].split("-")[1]) < args.deals

    jobs = jobs_from_cache(args.cache, args.pools, args.out, wanted)
    work = partial(rejudge, nodes=args.nodes, width=args.width)
    append_rows(work, jobs, out=args.out, workers=args.jobs)


if __name__ == "__main__":
    main()
