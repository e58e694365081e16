"""Does the beam's progress on an undecided position carry evidence? (issue 19 D)

    nice -n 10 .venv/bin/python benchmarks/season_progress.py --solve \\
        --cache benchmarks/data/season_horizon.jsonl --out /tmp/season_progress.jsonl
    .venv/bin/python benchmarks/season_progress.py --out /tmp/season_progress.jsonl

Half of an honest player's positions, and 15 % of a foresight player's completions, are
left undecided ("u") by the fixed-budget decider and weigh a constant 0.25 in the draw
factor. Any fixed function of the position may weigh it instead (the truth and the
completions stay exchangeable), so ``--solve`` solves every position of the cached games
again as ``season_rank.py`` does and, for an undecided one, records the most cards home
among the positions its beam (the decider's own, same width) ends with. Without
``--solve`` it prints, per kind and horizon, where an undecided truth ranks among the
undecided completions by that count, and the best fraction's log-growth a draw when "u"
weighs ``lo + (hi - lo) * clip((home - a) / (b - a))`` instead of 0.25.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import season_rank  # noqa: E402

from games.engine import GameState  # noqa: E402
from games.solver import _private_copy, beam_over  # noqa: E402
from games.solver.evidence import _NO_DEADLINE, WIDTH, decide  # noqa: E402

FRACTIONS = (0.05, 0.1, 0.2, 0.35, 0.5, 0.7, 0.85)
GRADES = [(lo, hi, a, b) for lo, hi in ((0.05, 0.6), (0.1, 0.5)) for a, b in ((20, 80), (40, 90))]


def solve(game: GameState) -> list:
    """[verdict, nodes, cards home]: all of them when won, 0 when lost, the beam's best
    end position's count when undecided (-1 if the beam kept none)."""
    found, _line, nodes = decide(game)
    home = game.rules.deck_size if found == "w" else 0
    if found == "u":
        beam = beam_over(_private_copy(game), deadline=_NO_DEADLINE, width=WIDTH)
        beam.run()
        home = max((snap[4] for snap, _ in beam.endgames()), default=-1)
    return [found, nodes, home]


def draws(rows: list[dict], kind: str, s: str) -> Iterator[tuple[list, list]]:
    for row in rows:
        if row["kind"] == kind:
            for _n, others, truths in row["draws"]:
                if s in truths:
                    yield others, truths[s]


def weight(lo: float, hi: float, a: int, b: int) -> Callable[[list], float]:
    def w(x: list) -> float:
        if x[0] != "u":
            return 1.0 if x[0] == "w" else 0.0
        if (lo, hi) == (0.25, 0.25):
            return 0.25
        return lo + (hi - lo) * max(0.0, min(1.0, (x[2] - a) / (b - a)))

    return w


def growth(pairs: list[tuple[list, list]], w: Callable[[list], float]) -> tuple[float, float]:
    """The draw factor's mean and the best fixed fraction's log-growth a draw."""
    fs = [w(t) * 5 / (w(t) + sum(map(w, o))) if w(t) > 0 else 0.0 for o, t in pairs]
    best = max(statistics.fmean(math.log(1 - lam + lam * f) for f in fs) for lam in FRACTIONS)
    return statistics.fmean(fs), best


def report(rows: list[dict]) -> None:
    for kind in ("determinized", "mixed-30", "greedy"):
        for s in ("4", "8"):
            ranks = []
            for others, t in draws(rows, kind, s):
                us = [o[2] for o in others if o[0] == "u"]
                if t[0] == "u" and us:
                    above = sum(h > t[2] for h in us) + sum(h == t[2] for h in us) / 2
                    ranks.append(above / len(us))
            mean = f"{statistics.fmean(ranks):.3f}" if ranks else "-"
            print(f"{kind} S={s}: undecided truth's place among undecided completions "
                  f"(0 first, 0.5 by chance) {mean} over {len(ranks)} draws")  # fmt: skip
    for grade in [(0.25, 0.25, 0, 1), *GRADES]:
        cells = []
        for s in ("4", "8"):
            for kind in ("determinized", "mixed-30"):
                mean, g = growth(list(draws(rows, kind, s)), weight(*grade))
                cells.append(f"{kind} S={s} mean {mean:.3f} growth {g:.4f}")
        print(f"u weighs {grade}: " + "; ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--solve", action="store_true")
    parser.add_argument("--cache", type=Path, default=ROOT / "benchmarks/data/season_horizon.jsonl")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    if args.solve:
        season_rank.solve = solve  # the workers are forked: they see the patched module
        pools = ROOT / "benchmarks/data/season_pools.json"
        jobs = season_rank.jobs_from_cache(args.cache, pools, args.out, lambda row: True)
        season_rank.append_rows(season_rank.rescore, jobs, out=args.out, workers=args.jobs)
    report([json.loads(line) for line in args.out.read_text().splitlines()])


if __name__ == "__main__":
    main()
