"""One beam's CPU time at a fixed width, and a digest of every layer it keeps.

    .venv/bin/python benchmarks/beam_speed.py --seeds 501-510 --widths 400,800
    .venv/bin/python benchmarks/beam_speed.py --seeds 501-510 --widths 400 --tree /tmp/base
    .venv/bin/python benchmarks/beam_speed.py --seeds 501-510 --widths 400,800 \\
        --compare /tmp/base --repeats 3

Each run is :func:`games.solver.beam_over` from a deal's first position with no deadline,
to its end (a win, or the stock spent), for each entry of ``BEAM_PORTFOLIO`` (``--entries``).
It prints the CPU seconds of the beam, its nodes, whether it won, the most cards home
among the positions it ended with, and a digest of every layer it kept: the score, key,
snapshot and move line of each kept position, in order. Two trees that print the same
digests kept the same positions in every layer (``--tree`` imports ``games`` from another
checkout, e.g. ``git archive main games benchmarks | tar -x -C /tmp/base``).

``--compare BASE`` runs this script on BASE and on this tree in turn (``--repeats`` times,
alternating, each in a fresh process), checks that the digests agree, and prints the
ratio of the CPU seconds (BASE over this tree) per run: min, median and max.
Not a timed test (docs/benchmarks.md, round ten).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def run_tree(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Every (seed, width, entry) beam of ``args`` in this process's tree."""
    sys.path.insert(0, str(Path(args.tree).resolve() if args.tree else ROOT))
    import games.solver.beam as beam_module
    from games.engine import GameState
    from games.solver import BEAM_PORTFOLIO, _private_copy, beam_over

    digest = hashlib.sha256()
    keep = beam_module._keep

    def recording_keep(pool: Any, width: int, spread: int) -> Any:
        kept = keep(pool, width, spread)
        if args.digest:
            for item in kept:
                score, key, snap, line = item[:4]
                digest.update(repr((score, key, snap, beam_module._unlink(line))).encode())
            digest.update(b"|")
        return kept

    beam_module._keep = recording_keep  # type: ignore[assignment]
    first, _, last = args.seeds.partition("-")
    out = []
    for seed in range(int(first), int(last or first) + 1):
        for width in (int(w) for w in args.widths.split(",")):
            for entry in (int(e) for e in args.entries.split(",")):
                weights, spread = BEAM_PORTFOLIO[entry]
                work = _private_copy(GameState.from_seed(seed, args.variant))
                digest = hashlib.sha256()
                beam = beam_over(
                    work, deadline=float("inf"), width=width, weights=weights, spread=spread
                )
                began = time.process_time()
                line = beam.run()
                took = time.process_time() - began
                home = max((snap[4] for snap, _ in beam.endgames()), default=-1)
                out.append(
                    {
                        "seed": seed,
                        "width": width,
                        "entry": entry,
                        "cpu": took,
                        "nodes": beam.nodes,
                        "won": line is not None,
                        "line": len(line) if line else 0,
                        "home": home,
                        "digest": digest.hexdigest()[:16] if args.digest else "",
                    }
                )
    return out


def compare(args: argparse.Namespace) -> None:
    """This script on ``args.compare`` and on this tree in turn; digests and CPU ratios."""
    base_runs: list[list[dict[str, Any]]] = []
    mine_runs: list[list[dict[str, Any]]] = []
    common = [
        *("--seeds", args.seeds, "--widths", args.widths, "--entries", args.entries),
        *("--variant", args.variant, "--json"),
        *(["--digest"] if args.digest else []),
    ]
    for _ in range(args.repeats):
        for tree, runs in ((args.compare, base_runs), (str(ROOT), mine_runs)):
            done = subprocess.run(
                [sys.executable, __file__, "--tree", tree, *common],
                check=True,
                capture_output=True,
                text=True,
            )
            runs.append(json.loads(done.stdout))
    same = True
    for n, mine in enumerate(mine_runs[0]):
        base = base_runs[0][n]
        fields = ("nodes", "won", "line", "home", "digest")
        agree = all(base[f] == mine[f] for f in fields)
        same = same and agree
        ratios = [b[n]["cpu"] / m[n]["cpu"] for b, m in zip(base_runs, mine_runs, strict=True)]
        print(
            f"seed {mine['seed']} width {mine['width']} entry {mine['entry']}: "
            f"{'same' if agree else 'DIFFERENT'} nodes {mine['nodes']} won {mine['won']} "
            f"home {mine['home']}  base {min(b[n]['cpu'] for b in base_runs):.2f} s "
            f"mine {min(m[n]['cpu'] for m in mine_runs):.2f} s  ratio "
            f"{min(ratios):.2f}/{statistics.median(ratios):.2f}/{max(ratios):.2f}",
            flush=True,
        )
    totals = [
        sum(r["cpu"] for r in b) / sum(r["cpu"] for r in m)
        for b, m in zip(base_runs, mine_runs, strict=True)
    ]
    every = [
        b[n]["cpu"] / m[n]["cpu"]
        for b, m in zip(base_runs, mine_runs, strict=True)
        for n in range(len(m))
    ]
    print(
        f"all {'same' if same else 'DIFFERENT'}; ratio of the total per repeat "
        f"{min(totals):.3f}/{statistics.median(totals):.3f}/{max(totals):.3f}; "
        f"per run {min(every):.3f}/{statistics.median(every):.3f}/{max(every):.3f} "
        f"(min/median/max, base CPU over this tree's)"
    )
    if not same:
        sys.exit(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="501-510", help="A-B (inclusive)")
    parser.add_argument("--widths", default="400", help="comma-separated")
    parser.add_argument("--entries", default="0", help="BEAM_PORTFOLIO indexes, comma-separated")
    parser.add_argument("--variant", default="forty-thieves")
    parser.add_argument("--tree", help="import games from this checkout")
    parser.add_argument("--digest", action="store_true", help="digest every kept layer")
    parser.add_argument("--compare", help="a baseline checkout: run both, alternating")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="one JSON list on stdout")
    args = parser.parse_args()
    if args.compare:
        compare(args)
        return
    runs = run_tree(args)
    if args.json:
        print(json.dumps(runs))
        return
    for r in runs:
        print(
            f"seed {r['seed']} width {r['width']} entry {r['entry']}: {r['cpu']:.2f} s "
            f"nodes {r['nodes']} won {r['won']} home {r['home']} {r['digest']}"
        )


if __name__ == "__main__":
    main()
