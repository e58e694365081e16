"""The ceiling: deals the 10-s solver leaves undecided, given a much larger budget.

    .venv/bin/python benchmarks/ceiling.py --seeds 503,511,513 --seconds 120 --cpu-clock
    .venv/bin/python benchmarks/ceiling.py --seeds 503 --seconds 120 --cpu-clock --out /tmp/c.jsonl

Runs ``games.solver.solve`` on each classic deal (``--variant`` for others) for
``--seconds``, one deal after the other, each in a fresh interpreter, and logs every beam
of its portfolio: the entry (score weights and cap), the width, when it started and
ended, whether it won and the most cards home among the positions it ended with (how
close it came). With ``--out`` each deal's record (the winning line included) is
appended to a JSON-lines file, so a run that is stopped keeps what it finished. What it
answers: how many of the deals the solver does not win at 10 s are winnable at all
within a budget ten or more times larger, and which entry of the portfolio wins them
(docs/benchmarks.md, "Round nine (session 13): finding wins"). Every winning line is
replayed through the engine once more here. Not a timed test.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.solver import DEAL_PRELUDE, seed_range  # noqa: E402
from games.engine import GameState  # noqa: E402

#: One deal in a fresh interpreter: ``solve`` with every ``beam_over`` of the portfolio
#: wrapped so that each beam's entry, width, times and closest end are recorded.
ONE_DEAL = (
    DEAL_PRELUDE
    + """
import games.solver as solver
beams = []
plain = solver.beam_over

class Logged:
    def __init__(self, beam, record):
        self.beam, self.record = beam, record
    def __getattr__(self, name):
        return getattr(self.beam, name)
    def run(self):
        line = self.beam.run()
        self.record.update(
            ended=round(time.perf_counter() - began, 2), won=line is not None,
            best_home=max((snap[4] for snap, _ in self.beam.final), default=-1),
            nodes=self.beam.nodes,
        )
        return line

def logged(work, **kw):
    record = dict(started=round(time.perf_counter() - began, 2), width=kw["width"],
                  weights=kw.get("weights"), spread=kw.get("spread"))
    beams.append(record)
    return Logged(plain(work, **kw), record)

solver.beam_over = logged
began = time.perf_counter()
r = solver.solve(GameState.from_seed(seed, variant), max_seconds=seconds)
print(json.dumps(dict(seed=seed, verdict=r.verdict, seconds=round(r.seconds, 2),
                      nodes=r.nodes, beams=beams, line=r.line)))
"""
)


def one(seed: int, args: argparse.Namespace) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", ONE_DEAL, str(ROOT), str(seed), args.variant]
        + [str(args.seconds), "1" if args.cpu_clock else "0"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    record: dict = json.loads(out.strip().splitlines()[-1])
    if record["verdict"] == "win":  # the engine is the judge
        check = GameState.from_seed(seed, args.variant)
        check.replay(record["line"])
        assert check.is_won(), seed
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", required=True, help="e.g. 503,511,520-525")
    parser.add_argument("--variant", default="forty-thieves")
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--cpu-clock", action="store_true", help="budgets in CPU seconds")
    parser.add_argument("--out", help="append each deal's record to this JSON-lines file")
    args = parser.parse_args()
    won = []
    seeds = seed_range(args.seeds)  # 503,511,520-525: single seeds and inclusive ranges
    for seed in seeds:
        record = one(seed, args)
        if args.out:
            with open(args.out, "a") as out:
                out.write(json.dumps(record) + "\n")
        beams = ", ".join(
            f"{b['width']}{'c' if b['spread'] else ''}/{b['weights'][3]:g}: "
            f"{'won' if b.get('won') else b.get('best_home', '?')}"
            for b in record["beams"]
        )
        print(
            f"seed {seed:5d}  {record['verdict']:7s} {record['seconds']:7.2f} s"
            f"  {len(record['line']):4d} moves  beams (width[c capped]/next-card weight:"
            f" most home) {beams}",
            flush=True,
        )
        if record["verdict"] == "win":
            won.append(seed)
    print(f"won {len(won)} of {len(seeds)}: {won}")


if __name__ == "__main__":
    main()
