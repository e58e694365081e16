"""Post-game analysis benchmark: how precisely, and how fast, the analysis finds where lost
classic games were lost.

    .venv/bin/python benchmarks/postmortem.py                    # seeds 1-12, 60 s / 3 s
    .venv/bin/python benchmarks/postmortem.py --seeds 1-40 --seconds 20 --position 2

The lost games are those of the honest greedy player (``games.solver.players``, which sees
only what a player sees) on classic deals; a game it won is skipped. Each analysis gets one
core for ``--seconds`` in all and at most ``--position`` seconds a position, as the
``analysis`` queue's worker gives it (``FT_ANALYSIS_SECONDS``,
``FT_ANALYSIS_POSITION_SECONDS``). Reports each game's verdict (``exact``: the losing move
is known; ``between``: a stretch of undecided moves; ``never``: no win from the deal;
``no_win_found``; ``at_end``), the time taken and the positions asked about. Not a timed
test: the numbers depend on the machine (``--cpu-clock`` counts every budget in this
process's CPU time, so a shared machine's load stretches only the wall time; see
docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import GameState  # noqa: E402
from games.solver.players import play_greedy  # noqa: E402
from games.solver.postmortem import analyse  # noqa: E402


def seed_range(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1-12", help="A-B (inclusive), default 1-12")
    parser.add_argument("--seconds", type=float, default=60.0, help="budget per game")
    parser.add_argument("--position", type=float, default=3.0, help="budget per position")
    parser.add_argument("--variant", default="forty-thieves")
    parser.add_argument(
        "--cpu-clock",
        action="store_true",
        help="budgets in CPU seconds of this process (a shared machine's load then "
        "stretches the wall time, not the search)",
    )
    args = parser.parse_args(argv)
    if args.cpu_clock:  # every clock the solver reads counts this process's CPU time
        time.perf_counter = time.process_time
    print(f"{platform.python_implementation()} {platform.python_version()}, {args.variant},")
    print(f"{args.seconds:g} s a game, {args.position:g} s a position\n")
    print(" seed  moves  verdict       win  lost  undecided  checked  seconds")
    verdicts: Counter[str] = Counter()
    times: list[float] = []
    for seed in seed_range(args.seeds):
        played = play_greedy(seed, args.variant)
        if played.won:
            continue
        start = GameState.from_seed(seed, args.variant, undo_limit=0)
        began = time.perf_counter()
        result = analyse(
            start,
            played.moves,
            position_seconds=args.position,
            total_seconds=args.seconds,
            clock=time.perf_counter,  # the process's CPU time with --cpu-clock
        ).to_dict()
        took = time.perf_counter() - began
        verdicts[result["verdict"]] += 1
        times.append(took)
        print(
            f"{seed:5d}  {len(played.moves):5d}  {result['verdict']:12s}"
            f"  {result['win_step'] if result['win_step'] is not None else '-':>4}"
            f"  {result['lost_step'] if result['lost_step'] is not None else '-':>4}"
            f"  {result['undecided']:9d}  {result['checked']:7d}  {took:7.1f}",
            flush=True,
        )
    if times:
        print(f"\n{len(times)} lost games: " + ", ".join(f"{v} {n}" for v, n in verdicts.items()))
        print(f"seconds: median {statistics.median(times):.1f}, max {max(times):.1f}")


if __name__ == "__main__":
    main()
