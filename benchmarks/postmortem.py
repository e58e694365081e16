"""Post-game analysis benchmark: how precisely, and how fast, the analysis finds where lost
classic games were lost.

    .venv/bin/python benchmarks/postmortem.py                    # seeds 1-12, 60 s / 3 s
    .venv/bin/python benchmarks/postmortem.py --seeds 1-40 --seconds 20 --position 2
    .venv/bin/python benchmarks/postmortem.py --certified 1-25   # certified daily deals

The lost games are those of the honest greedy player (``benchmarks.players``, which sees
only what a player sees); a game it won is skipped. ``--seeds`` plays numbered classic
deals, whose winnability nobody knows beforehand. ``--certified A-B`` plays those deals
(1-based) of ``benchmarks/data/certified_deals.json``, daily-style deals each won by the
solver when the file was made, and gives the analysis the deal's winning line, as the site
does for a daily or a practice deal from the winnable pool (``games.services.analysis``).
Each analysis gets one core for ``--seconds`` in all and at most ``--position`` seconds a
position, as the ``analysis`` queue's worker gives it (``FT_ANALYSIS_SECONDS``,
``FT_ANALYSIS_POSITION_SECONDS``). Reports each game's verdict (``exact``: the losing move
is known; ``between``: a stretch of undecided moves; ``never``: no win from the deal;
``no_win_found``; ``at_end``), the time taken and the positions asked about. Not a timed
test: the numbers depend on the machine (``--cpu-clock`` counts every budget in this
process's CPU time, so a shared machine's load stretches only the wall time; see
docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.certified_deals import OUT as CERTIFIED  # noqa: E402  (the file it writes)
from benchmarks.players import play_greedy  # noqa: E402
from benchmarks.solver import seed_range  # noqa: E402
from games.engine import GameState  # noqa: E402
from games.solver.postmortem import analyse  # noqa: E402

#: A deal to analyse: its label, seed, variant and the winning line known beforehand.
Deal = tuple[str, int, str, list[str] | None]


def deals(args: argparse.Namespace) -> Iterator[Deal]:
    """The numbered deals, or the ``--certified`` ones with their lines."""
    if not args.certified:
        for seed in seed_range(args.seeds):
            yield str(seed), seed, args.variant, None
        return
    data = json.loads(CERTIFIED.read_text())
    for number in seed_range(args.certified):
        deal = data["deals"][number - 1]
        yield deal["day"], int(deal["seed"], 16), data["variant"], deal["line"].split()


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1-12", help="A-B (inclusive), default 1-12")
    parser.add_argument(
        "--certified", default="", metavar="A-B", help="certified deals A-B (1-based) instead"
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="budget per game")
    parser.add_argument("--position", type=float, default=3.0, help="budget per position")
    parser.add_argument("--variant", default="forty-thieves")
    parser.add_argument(
        "--cpu-clock",
        action="store_true",
        help="budgets in CPU seconds of this process (a shared machine's load then "
        "stretches the wall time, not the search)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    if args.cpu_clock:  # every clock the solver reads counts this process's CPU time
        time.perf_counter = time.process_time
    print(f"{platform.python_implementation()} {platform.python_version()}, {args.variant},")
    print(f"{args.seconds:g} s a game, {args.position:g} s a position\n")
    print(" deal        moves  verdict       win  lost  undecided  checked  seconds")
    verdicts: Counter[str] = Counter()
    times: list[float] = []
    for label, seed, variant, known in deals(args):
        played = play_greedy(seed, variant)
        if played.won:
            continue
        began = time.perf_counter()
        result = analyse(
            GameState.from_seed(seed, variant, undo_limit=0),
            played.moves,
            position_seconds=args.position,
            total_seconds=args.seconds,
            start_line=known,
            clock=time.perf_counter,  # the process's CPU time with --cpu-clock
        ).to_dict()
        took = time.perf_counter() - began
        verdicts[result["verdict"]] += 1
        times.append(took)
        print(
            f"{label:>10s}  {len(played.moves):5d}  {result['verdict']:12s}"
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
