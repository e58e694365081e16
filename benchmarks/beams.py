"""One beam of the solver's portfolio alone, deal by deal: which deals it wins.

    .venv/bin/python benchmarks/beams.py --seeds 401-421 --width 400 --seconds 8 --cpu-clock
    .venv/bin/python benchmarks/beams.py --seeds 401-421 --spread 0.1 --cpu-clock
    .venv/bin/python benchmarks/beams.py --seeds 401-421 --weights 20,12,0.25,6,10 --cpu-clock

Runs :func:`games.solver.beam_over` from each deal's first position, then the exact
search (``BEAM_ENDGAME_NODES`` nodes) from each position it ends with, as the solver's
beam phase does for one entry of ``BEAM_PORTFOLIO``, and prints per deal whether it won
(every line replayed through the engine), the CPU or wall time, and the most cards home
among the positions it ended with. What the portfolio gains from an entry is the deals
it wins that the others do not: compare two runs' lists. Not a timed test
(docs/benchmarks.md, round seven).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine import GameState  # noqa: E402
from games.engine import moves as engine_moves  # noqa: E402
from games.solver import BEAM_ENDGAME_NODES, _private_copy, beam_over  # noqa: E402
from games.solver.beam import WEIGHTS  # noqa: E402
from games.solver.search import Search  # noqa: E402


def one(seed: int, variant: str, args: argparse.Namespace) -> tuple[bool, float, int]:
    """(won, seconds, most cards home at the end) of one beam and its end games."""
    game = GameState.from_seed(seed, variant)
    work = _private_copy(game)
    began = time.perf_counter()
    deadline = began + args.seconds
    weights = tuple(float(w) for w in args.weights.split(","))
    beam = beam_over(
        work,
        deadline=deadline,
        width=args.width,
        weights=weights,  # type: ignore[arg-type]  # five numbers, as --weights says
        spread=args.spread,
    )
    line = beam.run()
    home = -1
    if line is None:
        for snap, tail in beam.endgames():
            home = max(home, snap[4])
            if time.perf_counter() >= deadline:
                break
            beam.restore(snap)
            verdict, rest = Search(work, deadline=deadline, max_nodes=BEAM_ENDGAME_NODES).run()
            if verdict == "win":
                line = beam.line(tail) + rest
                break
    took = time.perf_counter() - began
    if line is not None:  # the engine is the judge
        check = GameState.from_seed(seed, variant)
        for move in line:
            engine_moves.apply(check, move)
        assert check.is_won(), seed
    return line is not None, took, home


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="401-421", help="A-B (inclusive)")
    parser.add_argument("--variant", default="forty-thieves")
    parser.add_argument("--width", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--weights", default=",".join(str(w) for w in WEIGHTS))
    parser.add_argument("--spread", type=float, default=0.0, help="share of the width")
    parser.add_argument("--cpu-clock", action="store_true", help="budgets in CPU seconds")
    args = parser.parse_args()
    if args.cpu_clock:
        time.perf_counter = time.process_time  # the solver reads this clock
    first, _, last = args.seeds.partition("-")
    won = []
    for seed in range(int(first), int(last or first) + 1):
        ok, took, home = one(seed, args.variant, args)
        print(f"seed {seed:5d}  {'win' if ok else '-':4s} {took:6.2f} s  home {home}", flush=True)
        if ok:
            won.append(seed)
    print(f"won {len(won)}: {won}")


if __name__ == "__main__":
    main()
