"""Variants of the per-game statistic, re-weighed from a season cache's stored verdicts.

    .venv/bin/python benchmarks/season_variants.py --cache benchmarks/data/season_pooled.jsonl

Each cached game keeps its weighed draws' verdicts (``[stock, true, others]``), so other
valid statistics can be computed without solving again: the weight of an undecided
position (``u``), a shrunken factor (``1 - shrink + shrink * f``), every other draw only
(``every=2``: what half the weighed draws give), a loss counted as 0 instead of its mean,
and the product of the factors that the server used before (not an e-value).
For each: the mean e-value per kind, the median win's, and seasons as in
``season_sim`` (the strongest honest bot's values scaled to mean one, the cheats as
sampled). Tuned on the same sample it reports: read it as a direction, not a guarantee.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.solver.evidence import (  # noqa: E402
    STRIDE,
    block_factor,
    game_value,
    weighed_counts,
)
from leaderboards.fairplay.eprocess import THRESHOLD, Wealth  # noqa: E402

#: The classic deal's stock: the cached games are all classic.
STOCK = 64
VARIANTS = (
    {},
    {"product": True},
    {"losses": False},
    {"u": 0.5},
    {"u": 0.1},
    {"shrink": 0.5},
    {"every": 2},
)


def value(
    row: dict,
    u: float = 0.25,
    shrink: float = 1.0,
    every: int = 1,
    losses: bool = True,
    product: bool = False,
):
    """The game's value from its cached verdicts: the server's mean over the slots
    (``evidence.game_value``), or with ``product`` the product of the factors (the
    statistic before 2026-12-01 23:00, not an e-value: docs/fairplay.md section 6)."""
    if not row["won"] and not losses:
        return 0.0
    kept = [b for b in row["blocks"] if every == 1 or b[0] % (STRIDE * every) == 0]
    factors = [block_factor(true, others, unknown=u) for _stock, true, others in kept]
    if product:
        return math.prod(1 - shrink + shrink * f for f in factors)
    slots = len(weighed_counts(STOCK, stride=STRIDE * every))
    return game_value(factors, won=row["won"], losses=losses, slots=slots, shrink=shrink)


def draw_mean(rows: list[dict]) -> tuple[float, float]:
    """The mean factor of a weighed draw and its standard error, clustered by game (the
    draws of one game are dependent)."""
    games = [[block_factor(true, others) for _s, true, others in r["blocks"]] for r in rows]
    n = sum(map(len, games))
    mean = sum(map(sum, games)) / n
    spread = sum((sum(g) - mean * len(g)) ** 2 for g in games)
    return mean, math.sqrt(spread * len(games) / (len(games) - 1)) / n


def by_count(rows: list[dict]) -> None:
    """Per weighed stock count: the mean factor, and how often the true position and the
    completions were judged won / decided (exchangeability says: equally often)."""
    counts: dict[int, list] = {}
    for row in rows:
        for stock, true, others in row["blocks"]:
            counts.setdefault(stock, []).append((true, others))
    for stock in sorted(counts, reverse=True):
        draws = counts[stock]
        factors = [block_factor(t, o) for t, o in draws]
        mean = statistics.fmean(factors)
        error = statistics.stdev(factors) / len(factors) ** 0.5 if len(factors) > 1 else 0.0
        others = "".join(o for _t, o in draws)
        print(
            f"    {stock:2} cards, {len(draws):3} draws: factor {mean:.3f} ± {error:.3f};"
            f" true won {sum(t == 'w' for t, _o in draws) / len(draws):.2f}"
            f" decided {sum(t != 'u' for t, _o in draws) / len(draws):.2f},"
            f" completions won {others.count('w') / len(others):.2f}"
            f" decided {1 - others.count('u') / len(others):.2f}"
        )


def pick(values: list[float], rng: random.Random) -> float:
    return rng.choice(values)


def pick_part_time(cheat: list[float], honest: list[float], rng: random.Random) -> float:
    """Foresight one day in three, the strongest honest bot otherwise."""
    return rng.choice(cheat) if rng.random() < 1 / 3 else rng.choice(honest)


def season(draw, rng: random.Random, days: int = 365) -> int | None:
    wealth = Wealth()
    for day in range(days):
        wealth = wealth.bet(draw(rng))
        if wealth.crossed(THRESHOLD):
            return day + 1
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--by-count", action="store_true", help="per stock count, per kind")
    args = parser.parse_args()
    kinds: dict[str, list[dict]] = {}
    for line in args.cache.read_text().splitlines():
        row = json.loads(line)
        kinds.setdefault(row["kind"], []).append(row)
    print({k: f"{len(v)} games, {sum(r['won'] for r in v)} won" for k, v in kinds.items()})
    for kind, rows in kinds.items():
        mean, error = draw_mean(rows)
        print(f"  {kind}: a draw's factor {mean:.3f} ± {error:.3f} (s.e. clustered by game)")
        if args.by_count:
            by_count(rows)
    for variant in VARIANTS:
        values = {k: [value(r, **variant) for r in rows] for k, rows in kinds.items()}
        honest = values["determinized"]
        scale = 1 / max(1.0, statistics.fmean(honest))
        honest = [v * scale for v in honest]
        cheat = values["mixed-30"]
        rng = random.Random(1)
        n = args.players
        held = [season(partial(pick, honest), rng) for _ in range(n)]
        daily = sorted(season(partial(pick, cheat), rng) or 9999 for _ in range(n // 2))
        part_time = partial(pick_part_time, cheat, honest)
        part = sorted(season(part_time, rng) or 9999 for _ in range(n // 2))
        means = {k: round(statistics.fmean(v), 2) for k, v in values.items()}
        print(
            f"{variant or 'as the server'}: mean E {means}; strong honest (scaled to 1) held"
            f" {sum(d is not None for d in held) / n:.1%}; daily cheat median"
            f" {statistics.median(daily)}, 90 % {daily[int(0.9 * len(daily))]};"
            f" part-time median {statistics.median(part)}"
        )


if __name__ == "__main__":
    main()
