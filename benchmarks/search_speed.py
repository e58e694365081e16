"""Search speed: positions a CPU-second of the solver's loops on fixed work, beside a baseline.

    .venv/bin/python benchmarks/search_speed.py                   # this checkout, 5 repeats
    git archive main games | tar -x -C /tmp/base                   # a baseline, run beside:
    .venv/bin/python benchmarks/search_speed.py --baseline /tmp/base --repeats 9
    .venv/bin/python benchmarks/search_speed.py --cores          # compiled core vs Python

The work is fixed, so every run searches the same positions: ``restarts``, the depth-first
search as :func:`games.solver.solve` restarts it (plain move order, ``lone_draws`` off) on
classic deals, a node budget each; ``exhaustive``, :func:`games.solver.prove.prove` (the
sleep set and the dead-position and lone-draw cuts) on classic deals; ``beam``, one beam
(:func:`games.solver.beam_over`) a deal; ``variants``, ``prove`` on deals of the variants
whose keys and move lists take the other branches (face-down cards, runs, redeals).

Each code runs in an interpreter of its own with that code first on its path (with
``--baseline DIR``, a directory holding a ``games`` package, a second one; with ``--cores``,
this checkout three times: on the compiled core (the whole loop in C where single cards
move), on the compiled core's steps alone with the loop in Python (``FT_SOLVER_LOOP=python``,
the core's first round) and with ``FT_SOLVER_CORE=python``, each ratio then over the Python
one, games/solver/core.py), all started
once and warmed by one untimed pass; then each repeat runs every workload in each
interpreter back to back, the first of each pair swapped every time, so the two codes see
the same machine load within seconds. Reports positions a CPU-second of the interpreter
(``process_time``: a shared machine's load stretches the wall time, less the figure) as
min / median / max of the repeats, and the ratio of each pair (now / baseline), min /
median / max. Fails if the two codes did not search the same positions (every deal's node
count and verdict must agree: a faster search that searched differently is no faster
search). Not a timed test: the figures depend on the machine (see docs/benchmarks.md,
"Search speed").
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.stats import spread  # noqa: E402

#: The worker each code runs in (its argument: the code to measure, put first on the path):
#: it reads a workload's name a line and answers [positions, CPU seconds, per deal
#: [seed, positions, verdict]] as JSON a line. Only names both codes have are used.
WORKER = """
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
from games.engine import GameState
from games.solver import beam_over
from games.solver.prove import prove
from games.solver.search import Search

if os.environ.get("FT_SOLVER_CORE") == "c":  # asked for the compiled core: it must run
    from games.solver import core
    if core.BACKEND != "c":
        sys.exit("the compiled core is not built (games/solver/core.py)")

FAR = float("inf")
clock = time.process_time

def restarts(variant, seed, nodes):
    search = Search(GameState.from_seed(seed, variant, undo_limit=0), deadline=FAR,
                    max_nodes=nodes, lone_draws=False)
    verdict, line = search.run()
    return search.nodes, f"{verdict}/{len(line)}"

def exhaustive(variant, seed, nodes):
    result = prove(GameState.from_seed(seed, variant), max_seconds=1e9, max_nodes=nodes)
    return result.nodes, f"{result.verdict}/{len(result.line)}"

def beam(variant, seed, width):
    work = GameState.from_seed(seed, variant, undo_limit=0)
    searcher = beam_over(work, deadline=FAR, width=width)
    found = searcher.run()
    return searcher.nodes, f"{found is not None}/{searcher.dropped}"

WORK = {
    "restarts": [(restarts, "forty-thieves", seed, 15_000) for seed in range(1, 9)],
    "exhaustive": [(exhaustive, "forty-thieves", seed, 30_000) for seed in range(1, 5)],
    "beam": [(beam, "forty-thieves", seed, 40) for seed in range(1, 5)],
    "variants": [
        (exhaustive, variant, seed, 10_000)
        for variant in ("indian", "josephine", "number-ten", "little-forty")
        for seed in (1, 2)
    ],
}
for request in sys.stdin:
    nodes, seen, spent = 0, [], 0.0
    for run, variant, seed, size in WORK[request.strip()]:
        began = clock()
        n, verdict = run(variant, seed, size)
        spent += clock() - began
        nodes += n
        seen.append([variant, seed, n, verdict])
    print(json.dumps([nodes, spent, seen]), flush=True)
"""
WORKLOADS = ("restarts", "exhaustive", "beam", "variants")


class Worker:
    """One code's interpreter, asked for one workload at a time."""

    def __init__(self, code: Path, core: str = "auto", loop: str = "auto") -> None:
        # the same hashes, the same key order; the search core to run (games/solver/core.py)
        env = {**os.environ, "PYTHONHASHSEED": "0", "FT_SOLVER_CORE": core}
        env["FT_SOLVER_LOOP"] = loop
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(code)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def run(self, work: str) -> list:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(work + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise SystemExit(f"the worker for {work} died")
        result: list = json.loads(answer)
        return result

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="a directory holding a games package")
    parser.add_argument(
        "--cores", action="store_true", help="the compiled core beside the Python one"
    )
    parser.add_argument(
        "--work", action="append", choices=WORKLOADS, help="only these workloads (repeatable)"
    )
    args = parser.parse_args(argv)
    works = tuple(args.work or WORKLOADS)
    codes = {"now": (ROOT, "auto", "auto")}
    if args.cores:  # "now" the compiled core, "steps" its loop in Python, "baseline" Python
        codes = {
            "now": (ROOT, "c", "auto"),
            "steps": (ROOT, "c", "python"),
            "baseline": (ROOT, "python", "auto"),
        }
    elif args.baseline is not None:
        codes["baseline"] = (args.baseline.resolve(), "auto", "auto")
    workers = {name: Worker(code, core, loop) for name, (code, core, loop) in codes.items()}
    rates: dict[str, dict[str, list[float]]] = {name: {w: [] for w in works} for name in codes}
    seen = {name: {w: workers[name].run(w)[2] for w in works} for name in codes}  # warm-up
    print(f"CPython {platform.python_version()}, load {os.getloadavg()[0]:.1f}", flush=True)
    order = list(codes)
    turn = 0
    for repeat in range(args.repeats):
        for work in works:
            for name in order if turn % 2 == 0 else order[::-1]:
                nodes, spent, deals = workers[name].run(work)
                rates[name][work].append(nodes / spent)
                if deals != seen[name][work]:
                    raise SystemExit(f"{name} {work}: the search differs between repeats")
            turn += 1
        print(f"repeat {repeat + 1} done, load {os.getloadavg()[0]:.1f}", flush=True)
    for worker in workers.values():
        worker.close()
    for name in codes:
        if name != "baseline" and "baseline" in codes and seen[name] != seen["baseline"]:
            for work in works:
                if seen[name][work] != seen["baseline"][work]:
                    print(f"{work}: {name} {seen[name][work]}\n  baseline {seen['baseline'][work]}")
            raise SystemExit("the codes searched different positions")
    print("positions a CPU-second, min / median / max of the repeats")
    for work in works:
        line = f"  {work:10s}"
        for name in codes:
            line += f"   {name} {spread(rates[name][work], '{:,.0f}')}"
        print(line)
        for name in codes:
            if name == "baseline" or "baseline" not in codes:
                continue
            pairs = [a / b for a, b in zip(rates[name][work], rates["baseline"][work], strict=True)]
            print(f"  {'':10s}   {name} / baseline {spread(pairs)}")


if __name__ == "__main__":
    main()
