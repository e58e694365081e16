"""Engine speed: replaying recorded games (the verifier's work) and listing moves.

    .venv/bin/python benchmarks/engine.py            # full run, about a minute
    .venv/bin/python benchmarks/engine.py --games 50 # quicker

The recorded games are played by a simple fixed policy (home when possible,
else the waste card to a column, else a column move at random, else draw)
from seeds 1..N, so every run replays the same logs. Figures are the median
of several rounds on one core; see docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import GameState  # noqa: E402


def play_policy(game: GameState, rng: random.Random, limit: int) -> list[str]:
    """Play the benchmark's fixed policy on ``game`` for at most ``limit`` moves: home when
    possible, else the waste card to a column, else a column move half the time, else draw."""
    log: list[str] = []
    while len(log) < limit:
        legal = game.legal_moves()
        if not legal:
            break
        home = [m for m in legal if "-f" in m]
        waste = [m for m in legal if m.startswith("w-")]
        columns = [m for m in legal if m.startswith("t")]
        if home:
            move = home[0]
        elif waste:
            move = waste[0]
        elif columns and rng.random() < 0.5:
            move = rng.choice(columns)
        else:
            move = "s" if "s" in legal else rng.choice(legal)
        game.play(move)
        log.append(move)
    return log


def record(seed: int, rng: random.Random, limit: int = 600) -> list[str]:
    """One game's move log under the benchmark's fixed policy."""
    return play_policy(GameState.from_seed(seed, undo_limit=0), rng, limit)


def best_rate(work, count: int, rounds: int) -> tuple[float, float]:
    """Median and best rate (count per second) over ``rounds`` timings."""
    rates = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        rates.append(count / (time.perf_counter() - start))
    return statistics.median(rates), max(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()

    rng = random.Random(20261129)
    logs = [(seed, record(seed, rng)) for seed in range(1, args.games + 1)]
    total = sum(len(log) for _, log in logs)
    kinds = {
        "draws": sum(m == "s" for _, log in logs for m in log),
        "to foundation": sum("-f" in m for _, log in logs for m in log),
        "waste to column": sum(m.startswith("w-t") for _, log in logs for m in log),
        "column to column": sum(m.startswith("t") and "-t" in m for _, log in logs for m in log),
    }
    print(f"{len(logs)} recorded games, {total} moves ({total / len(logs):.0f} a game): {kinds}")

    def replay(undo_limit: int) -> None:
        games = [GameState.from_seed(seed, undo_limit=undo_limit) for seed, _ in logs]
        start = time.perf_counter()
        for game, (_, log) in zip(games, logs, strict=True):
            game.replay(log)
        timings.append(time.perf_counter() - start)

    for label, undo_limit in (("replay, no undo history (verifier)", 0), ("replay, undo 100", 100)):
        timings: list[float] = []
        for _ in range(args.rounds):
            replay(undo_limit)
        rates = [total / t for t in timings]
        print(f"{label}: median {statistics.median(rates):,.0f} moves/s, best {max(rates):,.0f}")

    def verify_all() -> None:
        for seed, log in logs:
            GameState.from_seed(seed, undo_limit=0).replay(log)

    median, best = best_rate(verify_all, len(logs), args.rounds)
    print(f"deal + replay a whole game: median {median:,.0f} games/s, best {best:,.0f}")

    middles = []
    for seed, log in logs:
        game = GameState.from_seed(seed, undo_limit=0)
        game.replay(log[: len(log) // 2])
        middles.append(game)

    def list_moves() -> None:
        for game in middles:
            game.legal_moves()

    median, best = best_rate(list_moves, len(middles), args.rounds * 5)
    print(f"legal_moves() on mid-game positions: median {median:,.0f} calls/s, best {best:,.0f}")


if __name__ == "__main__":
    main()
