"""Solver benchmark: how many classic deals the solver decides within a budget.

    .venv/bin/python benchmarks/solver.py                      # seeds 1-1000, 10 s each
    .venv/bin/python benchmarks/solver.py --seeds 1-100 --jobs 2
    .venv/bin/python benchmarks/solver.py --seeds 1-100 --jobs 2 --prove --seconds 60

Each deal gets one core for ``--seconds`` (``--jobs`` deals run side by side,
one process each; keep it at or below the number of cores). Reports the share
of deals proven winnable (a line that replays to a win) and proven
unwinnable, the median time to a win, and positions searched per second.
``--prove`` runs the exhaustive search of ``games.solver.prove`` alone instead (the mode
that proves losses; it finds wins only in small spaces).
Not a timed test: the numbers depend on the machine (see docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import GameState  # noqa: E402
from games.solver import solve  # noqa: E402
from games.solver.prove import prove  # noqa: E402


def one(job: tuple[int, str, float, bool]) -> tuple[int, str, int, float, int]:
    seed, variant, seconds, exhaustive = job
    game = GameState.from_seed(seed, variant)
    result = (prove if exhaustive else solve)(game, max_seconds=seconds)
    if result.verdict == "win":  # check the line once more, outside the solver
        check = GameState.from_seed(seed, variant)
        check.replay(result.line)
        assert check.is_won(), seed
    return seed, result.verdict, result.nodes, result.seconds, len(result.line)


def seed_range(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1-1000", help="A-B (inclusive), default 1-1000")
    parser.add_argument("--seconds", type=float, default=10.0, help="budget per deal")
    parser.add_argument("--jobs", type=int, default=1, help="deals solved side by side")
    parser.add_argument("--variant", default="forty-thieves")
    parser.add_argument("--quiet", action="store_true", help="no line per deal")
    parser.add_argument("--prove", action="store_true", help="the exhaustive search alone")
    args = parser.parse_args(argv)
    jobs = [(seed, args.variant, args.seconds, args.prove) for seed in seed_range(args.seeds)]
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = []
        for row in pool.map(one, jobs):
            results.append(row)
            if not args.quiet:
                seed, verdict, nodes, seconds, length = row
                print(
                    f"seed {seed:5d}  {verdict:7s}  {nodes:8d} nodes  {seconds:6.2f} s"
                    f"  {length:4d} moves",
                    flush=True,
                )
    wall = time.perf_counter() - started
    n = len(results)
    wins = [r for r in results if r[1] == "win"]
    lost = [r for r in results if r[1] == "lost"]
    nodes = sum(r[2] for r in results)
    busy = sum(r[3] for r in results)
    print()
    print(
        f"variant {args.variant}, seeds {args.seeds}, {args.seconds:g} s a deal, "
        f"{args.jobs} job(s){', exhaustive search' if args.prove else ''}; "
        f"CPython {platform.python_version()}, {platform.machine()}"
    )
    print(f"proven winnable:   {len(wins):5d} / {n}  ({100 * len(wins) / n:.1f} %)")
    print(f"proven unwinnable: {len(lost):5d} / {n}  ({100 * len(lost) / n:.1f} %)")
    print(f"undecided:         {n - len(wins) - len(lost):5d} / {n}")
    if wins:
        times = [r[3] for r in wins]
        print(
            f"time to a win: median {statistics.median(times):.2f} s, "
            f"max {max(times):.2f} s; line length median "
            f"{statistics.median(r[4] for r in wins):.0f} moves"
        )
    print(
        f"positions searched: {nodes:,} in {busy:.0f} s of search "
        f"= {nodes / busy:,.0f} per second per core"
    )
    print(f"wall time {wall:.0f} s")


if __name__ == "__main__":
    main()
