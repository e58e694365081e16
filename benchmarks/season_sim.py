"""The season model of ``benchmarks/season.py simulate``: players resampled from the cache.

Each population plays ``--days`` dailies; a day's game of a kind is drawn (with
replacement) from that kind's cached games, so a season reuses the sampled deals
(a bootstrap: honest about the sample's size, which the report prints). The e-process is
the server's (``leaderboards.fairplay.eprocess``), run in the order played.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from leaderboards.fairplay.eprocess import THRESHOLD, Wealth  # noqa: E402

#: A weak person: plays on 60 % of the days, resigns early on a quarter of those (a
#: loss), and leaves the site for good with a chance of 1 % a day.
PLAYS, QUITS_GAME, LEAVES = 0.6, 0.25, 0.01


def _draw(rows: list[dict], rng: random.Random) -> dict:
    return rows[rng.randrange(len(rows))]


def strong(cache: dict, rng: random.Random, day: int) -> dict | None:
    return _draw(cache["determinized"], rng)


def cheat(cache: dict, rng: random.Random, day: int) -> dict | None:
    return _draw(cache["mixed-30"], rng)


def part_time(cache: dict, rng: random.Random, day: int) -> dict | None:
    kind = "mixed-30" if rng.random() < 1 / 3 else "determinized"
    return _draw(cache[kind], rng)


def strong_at_one(cache: dict, rng: random.Random, day: int) -> dict | None:
    return _draw(cache["determinized@1"], rng)


def part_time_at_one(cache: dict, rng: random.Random, day: int) -> dict | None:
    kind = "mixed-30" if rng.random() < 1 / 3 else "determinized@1"
    return _draw(cache[kind], rng)


def at_one(rows: list[dict]) -> list[dict]:
    """The rows with their e-values divided by the sample's mean: what a calibrated
    statistic gives at most. A small sample of a heavy-tailed e-value can have a mean far
    above one (one lucky game in a dozen) even when the statistic is provably calibrated;
    resampling it as it is would then hold honest players only for the sample's luck."""
    mean = sum(r["value"] for r in rows) / len(rows)
    scale = 1 / mean if mean > 1 else 1.0
    return [{**r, "value": r["value"] * scale} for r in rows]


def weak_person() -> Callable[[dict, random.Random, int], dict | None]:
    left = {"gone": False}

    def play(cache: dict, rng: random.Random, day: int) -> dict | None:
        if left["gone"] or rng.random() < LEAVES:
            left["gone"] = True
            return None
        if rng.random() >= PLAYS:
            return None
        if rng.random() < QUITS_GAME:
            return {"won": False, "value": 0.0, "eval_cpu": 0.0}
        return _draw(cache["greedy"], rng)

    return play


POPULATIONS = {
    "strong honest (determinized, every day)": (lambda: strong, False),
    "weak honest people (greedy; 60 % of days, quits, leaves)": (weak_person, False),
    "foresight every day (mixed-30)": (lambda: cheat, True),
    "foresight one day in three (else determinized)": (lambda: part_time, True),
    "strong honest, its sample's mean scaled to 1": (lambda: strong_at_one, False),
    "foresight one day in three, honest days scaled to 1": (lambda: part_time_at_one, True),
}


def season(player, cache: dict, rng: random.Random, days: int) -> tuple[int | None, float, int]:
    """One player's season: the day the test first crosses (``None``: never), the CPU
    their games cost to weigh, and the games played."""
    wealth, cpu, games = Wealth(), 0.0, 0
    for day in range(days):
        game = player(cache, rng, day)
        if game is None:
            continue
        games += 1
        cpu += game.get("eval_cpu", 0.0)
        wealth = wealth.bet(game["value"])
        if wealth.crossed(THRESHOLD):
            return day + 1, cpu, games
    return None, cpu, games


def _ci(k: int, n: int) -> str:
    """A Wilson 95 % interval for k of n."""
    if n == 0:
        return "—"
    p, z = k / n, 1.96
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{max(0.0, mid - half):.1%}-{min(1.0, mid + half):.1%}"


def describe_cache(cache: dict) -> None:
    print("cache (games per kind; wins; e-value of a game: mean over all, median of wins;")
    print("       CPU to weigh a win min / median / max):")
    for kind, rows in cache.items():
        wins = [r for r in rows if r["won"]]
        values = sorted(r["value"] for r in wins)
        cpu = sorted(r["eval_cpu"] for r in wins) or [0.0]
        mean = sum(r["value"] for r in rows) / len(rows)
        median = statistics.median(values) if values else float("nan")
        print(
            f"  {kind:13} {len(rows):4} games, {len(wins):4} wins; mean E {mean:8.3f},"
            f" median win E {median:8.3f}; CPU {cpu[0]:.1f} / {statistics.median(cpu):.1f}"
            f" / {cpu[-1]:.1f} s"
        )


def simulate(args: argparse.Namespace) -> None:
    from season import load_cache

    rows = load_cache(args.cache)
    if getattr(args, "reweigh", False):  # the server's current statistic, from the cached verdicts
        from season_variants import value

        rows = [{**row, "value": value(row)} for row in rows]
    cache: dict[str, list[dict]] = {}
    for row in rows:
        cache.setdefault(row["kind"], []).append(row)
    describe_cache(cache)
    cache["determinized@1"] = at_one(cache["determinized"])
    rng = random.Random(args.seed)
    print(f"\n{args.players} players a population, {args.days} days, threshold {THRESHOLD:g}")
    for name, (make, cheating) in POPULATIONS.items():
        crossed, cpu, games = [], 0.0, 0
        count = args.players if not cheating else max(200, args.players // 4)
        for _ in range(count):
            day, spent, played = season(make(), cache, rng, args.days)
            crossed.append(day)
            cpu += spent
            games += played
        held = sorted(d for d in crossed if d is not None)
        share = f"{len(held) / count:.1%}, 95 % {_ci(len(held), count)}"
        line = f"  {name}: ever held {len(held)} / {count} ({share})"
        if cheating and held:
            within = {n: sum(d <= n for d in held) / count for n in (14, 30, 60)}
            median = statistics.median(crossed_days(crossed, args.days))
            line += (
                f"; day held: median {median}, within 14 / 30 / 60 days:"
                f" {within[14]:.0%} / {within[30]:.0%} / {within[60]:.0%}"
            )
        print(line)
        print(f"      CPU to weigh: {cpu / max(games, 1):.2f} s a game played")


def crossed_days(crossed: list[int | None], days: int) -> list[float]:
    """Days to the crossing, never-crossed counted as after the season (for the median)."""
    return [d if d is not None else math.inf for d in crossed] if days else []
