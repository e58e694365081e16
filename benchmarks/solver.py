"""Solver benchmark: how many deals the solver decides within a budget, beside a baseline.

    .venv/bin/python benchmarks/solver.py                      # seeds 1-1000, 10 s each
    .venv/bin/python benchmarks/solver.py --seeds 0-199 --jobs 2 --baseline /tmp/base
    .venv/bin/python benchmarks/solver.py --seeds 1-100 --jobs 2 --prove --seconds 60

Each deal gets one process for ``--seconds`` (``--jobs`` deals run side by side; keep it at
or below the number of cores). Reports the share of deals proven winnable (a line that
replays to a win through this checkout's engine) and proven unwinnable, with a 95 % Wilson
interval, the median time to a win, and positions searched per second. ``--prove`` runs
the exhaustive search of ``games.solver.prove`` alone (the mode that proves losses).

``--baseline DIR`` also runs the code under ``DIR`` (a directory holding a ``games``
package, e.g. ``git archive main games | tar -x -C DIR``) on the same seeds in the same
run, alternating deal by deal, so both see the same machine load; each deal runs in a
fresh interpreter (``python -c``) with ``DIR`` or this checkout first on its path.
``--cpu-clock`` makes every clock the solver reads count the CPU time of the deal's process
(``time.perf_counter`` is replaced by ``time.process_time`` in that interpreter): "10 s on
one core" then holds on a shared machine too, which only stretches the wall time.
Not a timed test: the numbers depend on the machine (see docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.stats import spread  # noqa: E402
from games.engine import GameState  # noqa: E402

#: How a script run for one deal in a fresh interpreter starts: its arguments are the code
#: to measure (put first on the path), the seed, the variant, the seconds, ... and, last,
#: "1" when every clock the solver reads counts the process's CPU time.
DEAL_PRELUDE = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
if sys.argv[-1] == "1":  # every clock the solver reads counts this process's CPU time
    time.perf_counter = time.process_time
from games.engine import GameState
seed, variant, seconds = int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
"""

#: What one deal runs (arguments: DEAL_PRELUDE's, then "1" for the exhaustive search).
ONE_DEAL = (
    DEAL_PRELUDE
    + """
from games.solver import solve
from games.solver.prove import prove
run = prove if sys.argv[5] == "1" else solve
r = run(GameState.from_seed(seed, variant), max_seconds=seconds)
print(json.dumps([r.verdict, r.nodes, r.seconds, r.line]))
"""
)


def one(job: tuple[str, int, str, float, bool, bool]) -> tuple[str, int, str, int, float, int]:
    code, seed, variant, seconds, exhaustive, cpu = job
    out = subprocess.run(
        [sys.executable, "-c", ONE_DEAL, code, str(seed), variant, str(seconds)]
        + ["1" if exhaustive else "0", "1" if cpu else "0"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    verdict, nodes, took, line = json.loads(out.strip().splitlines()[-1])
    if verdict == "win":  # check the line once more, with this checkout's engine
        check = GameState.from_seed(seed, variant)
        check.replay(line)
        assert check.is_won(), (code, seed)
    return code, seed, verdict, nodes, took, len(line)


def seed_range(text: str) -> list[int]:
    """The seeds ``text`` names: ranges ``A-B`` (inclusive) and single seeds, comma-separated."""
    seeds: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        seeds.extend(range(int(first), int(last or first) + 1))
    return seeds


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of ``k`` successes in ``n``, in per cent."""
    if not n:
        return 0.0, 100.0
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return 100 * max(0.0, mid - half), 100 * min(1.0, mid + half)


def summary(name: str, results: list[tuple]) -> None:
    n = len(results)
    wins = [r for r in results if r[2] == "win"]
    lost = [r for r in results if r[2] == "lost"]
    nodes = sum(r[3] for r in results)
    busy = sum(r[4] for r in results)
    print(f"[{name}]")
    for label, group in (("proven winnable", wins), ("proven unwinnable", lost)):
        low, high = wilson(len(group), n)
        print(
            f"  {label + ':':19s} {len(group):5d} / {n}  ({100 * len(group) / n:.1f} %,"
            f" 95 % interval {low:.1f}-{high:.1f} %)"
        )
    print(f"  undecided:          {n - len(wins) - len(lost):5d} / {n}")
    if wins:
        times = [r[4] for r in wins]
        print(
            f"  time to a win: {spread(times, '{:.2f}', template='min {} / median {} / max {} s')};"
            " line length median "
            f"{statistics.median(r[5] for r in wins):.0f} moves"
        )
    print(
        f"  positions searched: {nodes:,} in {busy:.0f} s of search "
        f"= {nodes / max(busy, 1e-9):,.0f} per second per process"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seeds", default="1-1000", help="A-B (inclusive) or a list such as 503,505,511-519"
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="budget per deal")
    parser.add_argument("--jobs", type=int, default=1, help="deals solved side by side")
    parser.add_argument("--variant", default="forty-thieves")
    parser.add_argument("--quiet", action="store_true", help="no line per deal")
    parser.add_argument("--prove", action="store_true", help="the exhaustive search alone")
    parser.add_argument("--baseline", help="a directory holding the baseline's games package")
    parser.add_argument(
        "--cpu-clock",
        action="store_true",
        help="budgets in CPU seconds of the deal's process (a shared machine's load then "
        "stretches the wall time, not the search)",
    )
    args = parser.parse_args(argv)
    codes = {"now": str(ROOT)}
    if args.baseline:
        codes["baseline"] = str(Path(args.baseline).resolve())
    jobs = [
        (code, seed, args.variant, args.seconds, args.prove, args.cpu_clock)
        for seed in seed_range(args.seeds)
        for code in codes.values()
    ]
    names = {path: name for name, path in codes.items()}
    started = time.perf_counter()
    results: dict[str, list[tuple]] = {name: [] for name in codes}
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for row in pool.map(one, jobs):
            code, seed, verdict, nodes, seconds, length = row
            results[names[code]].append(row)
            if not args.quiet:
                print(
                    f"{names[code]:8s} seed {seed:5d}  {verdict:7s}  {nodes:8d} nodes"
                    f"  {seconds:6.2f} s  {length:4d} moves",
                    flush=True,
                )
    wall = time.perf_counter() - started
    print()
    print(
        f"variant {args.variant}, seeds {args.seeds}, {args.seconds:g} s a deal, "
        f"{args.jobs} job(s){', exhaustive search' if args.prove else ''}"
        f"{', CPU clock' if args.cpu_clock else ''}; "
        f"CPython {platform.python_version()}, {platform.machine()}"
    )
    for name, rows in results.items():
        summary(name, rows)
    if args.baseline:
        now = {r[1] for r in results["now"] if r[2] == "win"}
        base = {r[1] for r in results["baseline"] if r[2] == "win"}
        print(f"won by now only: {sorted(now - base)}")
        print(f"won by the baseline only: {sorted(base - now)}")
    print(f"wall time {wall:.0f} s")


if __name__ == "__main__":
    main()
