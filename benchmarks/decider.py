"""The fast decider on mid-game positions of certified dailies: how long to a win or a
proof of loss.

    .venv/bin/python benchmarks/decider.py --deals 40 --seconds 5      # about 10 minutes
    .venv/bin/python benchmarks/decider.py --deals 219 --seconds 5

The positions: for each certified deal of ``benchmarks/data/certified_deals.json`` (the
daily-style deals of the fair-play benchmark, each won by the solver within 3 s), the
honest greedy player's game (``benchmarks.players.play_greedy``) at its middle move.
Each position is decided twice on one core for at most ``--seconds``: by
``games.solver.solve`` alone (what the survival test calls; it proves a loss only when
one of its restarts exhausts the space) and by ``games.solver.prove.decide`` (the solver
and the exhaustive search in turns of 0.05 s, 0.1 s, 0.2 s, ... each, sharing a table of
positions proved lost). Reports, for each, the positions decided (won / proved lost) and
the time to a decision: min / median / max over the decided ones, and the median over
all positions with an undecided one counted as the whole budget (``--cpu-clock``: in this
process's CPU time). Not a timed test: the figures depend on the machine (see
docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.certified_deals import OUT as DEALS  # noqa: E402  (the file it writes)
from benchmarks.players import play_greedy  # noqa: E402
from benchmarks.stats import spread  # noqa: E402
from games.engine import GameState  # noqa: E402
from games.solver import solve  # noqa: E402
from games.solver.prove import decide  # noqa: E402


def middle_position(seed: int, variant: str) -> GameState:
    """The greedy player's game of ``seed`` after half its moves."""
    moves = [m for m in play_greedy(seed, variant).moves if m != "resign"]
    game = GameState.from_seed(seed, variant, undo_limit=0)
    game.replay(moves[: len(moves) // 2])
    return game


def summary(name: str, rows: list[tuple[str, float]], budget: float) -> str:
    decided = sorted(t for v, t in rows if v != "unknown")
    wins = sum(1 for v, _ in rows if v == "win")
    lost = sum(1 for v, _ in rows if v == "lost")
    everything = statistics.median([t if v != "unknown" else budget for v, t in rows])
    times = spread(decided, "{:.2f}", template="{} / {} / {} s")
    return (
        f"{name:8s} decided {len(decided):3d} / {len(rows)} ({wins} won, {lost} proved lost);"
        f" time to decide min / median / max {times}; median of all {everything:.2f} s"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40, help="the first N certified deals")
    parser.add_argument("--seconds", type=float, default=5.0, help="budget per position")
    parser.add_argument(
        "--cpu-clock",
        action="store_true",
        help="budgets in CPU seconds of this process (a shared machine's load then "
        "stretches the wall time, not the search)",
    )
    args = parser.parse_args(argv)
    if args.cpu_clock:  # every clock the solver reads counts this process's CPU time
        time.perf_counter = time.process_time
    data = json.loads(DEALS.read_text())
    variant = data["variant"]
    print(f"CPython {platform.python_version()}, {variant}, {args.seconds:g} s a position")
    rows: dict[str, list[tuple[str, float]]] = {"solve": [], "decide": []}
    for deal in data["deals"][: args.deals]:
        seed = int(deal["seed"], 16)
        position = middle_position(seed, variant)
        a = solve(position, max_seconds=args.seconds)
        b = decide(position, max_seconds=args.seconds)
        rows["solve"].append((a.verdict, a.seconds))
        rows["decide"].append((b.verdict, b.seconds))
        print(
            f"{deal['day']}  stock {position.stock_count:2d}"
            f"  solve {a.verdict:7s} {a.seconds:5.2f} s"
            f"  decide {b.verdict:7s} {b.seconds:5.2f} s",
            flush=True,
        )
    print()
    for name, found in rows.items():
        print(summary(name, found, args.seconds))


if __name__ == "__main__":
    main()
