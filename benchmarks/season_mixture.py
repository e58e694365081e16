"""Candidate sequential statistics, re-weighed from the cached horizon verdicts (no solving).

    .venv/bin/python benchmarks/season_mixture.py --cache benchmarks/data/season_horizon.jsonl

Each cached game (``benchmarks/data/season_horizon.jsonl``, made by ``season_horizon.py``, a
research script last present at 9cd7a9a: docs/research/) keeps, per horizon ``S``, its
weighed draws' verdicts: the true position judged on its next ``S`` cards and a certified
tail, and the deal's pooled completions. Every candidate below is a *mixture of test
supermartingales* for a blind player (docs/fairplay.md section 6), so Ville's inequality
bounds its honest holds at ``1 / THRESHOLD`` whatever the player's skill; the candidates
differ in power:

* ``mean`` -- the server's statistic until now: the mean of the full-rest draw factors a
  game, bet on game by game (``eprocess.BETS``).
* ``S=s game`` -- the horizon product a game, bet on game by game (as ``season_horizon.py`` bet).
* ``S=s draw`` -- the same factors bet on draw by draw: the wealth of each fraction ``lam``
  is multiplied by ``1 - lam + lam * f`` at every weighed draw, across games, so a zero
  factor costs the fraction, not the game.
* ``+one`` -- a draw whose five positions all weigh 0 (the truth and every completion
  proved lost) has the factor 1 instead of 0: ``h(x) / mean h`` is undefined there, and 1
  keeps the mean exactly one (a valid e-value), where 0 charged honest losses for nothing.
* ``mix`` -- the mean of the wealths of several horizons (each a test supermartingale for
  the same draws' filtration, so their mean is one): about the best horizon, less its
  share's log.

Seasons: a year of dailies, a game of the kind drawn with replacement
from the cache each day; the weak honest people play ``greedy`` on 60 % of days, quit a
quarter of those games before any weighed draw, leave for good with a chance of 1 % a day.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.blind_survival import game_value  # noqa: E402
from games.solver.evidence import WEIGHTS, block_factor  # noqa: E402
from leaderboards.fairplay.eprocess import BETS, THRESHOLD  # noqa: E402

PLAYS, QUITS_GAME, LEAVES = 0.6, 0.25, 0.01
#: A finer grid of fractions for draw-by-draw betting (a draw's factor is rarely 0 for a
#: foresight player, so larger fractions pay).
DRAW_BETS = (0.05, 0.1, 0.2, 0.35, 0.5, 0.7, 0.85)


def factor(true: str, others: str, *, one: bool, unknown: float) -> float:
    """The draw's factor; with ``one`` a draw whose positions all weigh 0 is worth 1."""
    weights = {**WEIGHTS, "u": unknown}
    if one and weights[true] + sum(weights[v] for v in others) <= 0:
        return 1.0
    return block_factor(true, others, unknown=unknown)


#: A component: the factors a game brings (one per step) and the fractions bet on each.
Component = tuple[Callable[[dict], list[float]], tuple[float, ...]]


def horizon(s: int, *, one: bool = False, unknown: float = 0.25) -> Callable[[dict], list[float]]:
    def factors(row: dict) -> list[float]:
        return [factor(t, o, one=one, unknown=unknown) for _n, t, o in row["horizon"][str(s)]]

    return factors


def _rank(positions: list[list], at: int, rng: random.Random) -> int:
    """The rank (1 = first) of ``positions[at]`` by nodes, ties broken at random."""
    mine = positions[at][1]
    below = sum(p[1] < mine for i, p in enumerate(positions) if i != at)
    ties = sum(p[1] == mine for i, p in enumerate(positions) if i != at)
    return 1 + below + rng.randint(0, ties)


def ranked(s: int, rho: float, *, reverse: bool = False) -> Callable[[dict], list[float]]:
    """``season_rank.py``'s rows (research, docs/research/): the verdict's factor times,
    when the truth is won, its rank among the won positions by the decider's nodes (fewer
    first), weighed ``m * p(rank)`` with ``p`` geometric of ratio ``rho`` over the ``m`` won
    positions (mean one over a uniform rank, which it is given the verdicts: exchangeability);
    ``reverse``: more nodes first."""

    def factors(row: dict) -> list[float]:
        rng = random.Random(f"{row['day']}-{row['kind']}-{row['run']}-{s}")
        out = []
        for _n, others, truths in row["draws"]:
            if str(s) not in truths:
                continue
            truth = truths[str(s)]
            f = block_factor(truth[0], "".join(o[0] for o in others))
            if truth[0] == "w" and rho < 1:
                won = [o for o in others if o[0] == "w"] + [truth]
                if reverse:
                    won = [[v, -nodes] for v, nodes in won]
                m = len(won)
                r = _rank(won, m - 1, rng)
                f *= m * rho ** (r - 1) * (1 - rho) / (1 - rho**m)
            out.append(f)
        return out

    return factors


RANKED: dict[str, list[Component]] = {
    "rank file: verdict only, mix S=4,8 draw": [(ranked(s, 1.0), DRAW_BETS) for s in (4, 8)],
    "rank file: S=8 verdict only": [(ranked(8, 1.0), DRAW_BETS)],
    "rank file: S=8 nodes rank rho=0.7": [(ranked(8, 0.7), DRAW_BETS)],
    "rank file: S=8 nodes rank rho=0.5": [(ranked(8, 0.5), DRAW_BETS)],
    "rank file: S=4 nodes rank rho=0.7": [(ranked(4, 0.7), DRAW_BETS)],
    "rank file: mix S=4,8 nodes rank rho=0.7": [(ranked(s, 0.7), DRAW_BETS) for s in (4, 8)],
    "rank file: mix S=4,8 nodes rank rho=0.5": [(ranked(s, 0.5), DRAW_BETS) for s in (4, 8)],
    "rank file: mix S=4,8 more nodes first rho=0.7": [
        (ranked(s, 0.7, reverse=True), DRAW_BETS) for s in (4, 8)
    ],
    "rank file: mix S=4,8 x rho=0.5,0.8": [
        (ranked(s, rho), DRAW_BETS) for s in (4, 8) for rho in (0.5, 0.8)
    ],
}


def mean_value(row: dict) -> list[float]:
    """The server's game value until now: the mean of the full-rest factors over 12 slots."""
    factors = [block_factor(t, o) for _n, t, o in row["blocks"]]
    return [game_value(factors, won=row["won"], losses=True, slots=12)]


def game_product(s: int) -> Callable[[dict], list[float]]:
    return lambda row: [math.prod(horizon(s)(row))]


CANDIDATES: dict[str, list[Component]] = {
    "mean (server until now)": [(mean_value, BETS)],
    "S=8 game product (season_horizon)": [(game_product(8), BETS)],
    "S=4 draw": [(horizon(4), DRAW_BETS)],
    "S=8 draw": [(horizon(8), DRAW_BETS)],
    "S=4 draw +one": [(horizon(4, one=True), DRAW_BETS)],
    "S=8 draw +one": [(horizon(8, one=True), DRAW_BETS)],
    "S=16 draw +one": [(horizon(16, one=True), DRAW_BETS)],
    "S=4 draw +one u=0.5": [(horizon(4, one=True, unknown=0.5), DRAW_BETS)],
    "S=4 draw +one u=0.1": [(horizon(4, one=True, unknown=0.1), DRAW_BETS)],
    "S=8 draw, eprocess.BETS": [(horizon(8), BETS)],
    "mix S=4,8 draw": [(horizon(s), DRAW_BETS) for s in (4, 8)],
    "mix S=4,8 draw, eprocess.BETS": [(horizon(s), BETS) for s in (4, 8)],
    "mix S=4,8 draw +one": [(horizon(s, one=True), DRAW_BETS) for s in (4, 8)],
    "mix S=4,8,16 draw +one": [(horizon(s, one=True), DRAW_BETS) for s in (4, 8, 16)],
}


def increments(row: dict, components: list[Component], scales: list[float]) -> list[float]:
    """The game's log-wealth increment for each (component, fraction), the factors of
    each component multiplied by its scale."""
    out = []
    for (factors_of, bets), scale in zip(components, scales, strict=True):
        factors = [f * scale for f in factors_of(row)]
        for lam in bets:
            out.append(sum(math.log(max(1 - lam + lam * f, 1e-300)) for f in factors))
    return out


def at_one(rows: list[dict], kind: str, component: Component, *, up: bool = False) -> float:
    """The scale that brings an honest kind's mean factor a step down to one when the
    sample's is above it (what the validity argument guarantees at most: a sample of 48
    games is within a few hundredths of it by luck, and a year resampled from it would
    otherwise hold honest players for the sample's luck)."""
    steps = [f for r in rows if r["kind"] == kind for f in component[0](r)]
    return len(steps) / sum(steps) if up else min(1.0, len(steps) / sum(steps))


def crossed(logs: list[float], level: float) -> bool:
    """Whether the mean wealth over the pairs has reached ``level`` (a hold)."""
    top = max(logs)
    return math.exp(top) * sum(math.exp(x - top) for x in logs) / len(logs) >= level


def season(
    play: Callable[[random.Random], list[float] | None],
    rng: random.Random,
    width: int,
    level: float = THRESHOLD,
):
    logs = [0.0] * width
    for day in range(365):
        step = play(rng)
        if step is None:
            continue
        logs = [a + b for a, b in zip(logs, step, strict=True)]
        if crossed(logs, level):
            return day + 1
    return None


def populations(games: dict[str, list[list[float]]], width: int):
    honest, cheat, weak = games["determinized"], games["mixed-30"], games.get("greedy", [])

    def weak_person() -> Callable[[random.Random], list[float] | None]:
        gone = [False]

        def play(rng: random.Random) -> list[float] | None:
            if gone[0] or rng.random() < LEAVES:
                gone[0] = True
                return None
            if rng.random() >= PLAYS or rng.random() < QUITS_GAME:
                return None  # not played, or quit before a weighed draw
            return rng.choice(weak)

        return play

    return {
        "strong honest": lambda: lambda rng: rng.choice(honest),
        "weak honest": weak_person,
        "daily cheat": lambda: lambda rng: rng.choice(cheat),
        "part-time": lambda: lambda rng: rng.choice(cheat if rng.random() < 1 / 3 else honest),
    }


def growth(rows: list[dict]) -> None:
    """The best fraction in hindsight, per horizon: the foresight player's expected
    log-wealth a day and the part-time cheat's a three-day cycle (an upper bound for any
    mixture over fractions)."""
    lams = [i / 100 for i in range(1, 100)]
    for one in (False, True):
        for s in (4, 8):
            draws = horizon(s, one=one) if "horizon" in rows[0] else _verdicts(s, one)

            def g(kind: str, lam: float, draws=draws) -> float:
                games = [r for r in rows if r["kind"] == kind]
                return statistics.fmean(
                    sum(math.log(1 - lam + lam * f) for f in draws(r)) for r in games
                )

            best = max(lams, key=lambda lam: g("mixed-30", lam))
            day = g("mixed-30", best)
            part = max(lams, key=lambda lam: g("mixed-30", lam) + 2 * g("determinized", lam))
            cycle = g("mixed-30", part) + 2 * g("determinized", part)
            print(
                f"S={s}{' +one' if one else ''}: daily cheat {day:.3f} a day at {best:.2f}"
                f" ({math.log(THRESHOLD) / day:.1f} days to the threshold); part-time"
                f" {cycle:.3f} a three-day cycle at {part:.2f}"
            )


def _verdicts(s: int, one: bool) -> Callable[[dict], list[float]]:
    """``season_rank.py``'s rows (a research script, docs/research/): the verdict's factor alone."""

    def factors(row: dict) -> list[float]:
        return [
            factor(truths[str(s)][0], "".join(o[0] for o in others), one=one, unknown=0.25)
            for _n, others, truths in row["draws"]
            if str(s) in truths
        ]

    return factors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument(
        "--at-one", action="store_true", help="honest kinds' factors scaled to mean <= 1"
    )
    parser.add_argument("--only", default="", help="candidates whose name contains this")
    parser.add_argument(
        "--exactly-one",
        action="store_true",
        help="honest kinds' factors scaled to a mean of exactly one a step (up or down):"
        " the most the validity argument allows a blind player",
    )
    parser.add_argument("--growth", action="store_true", help="the best fraction's growth")
    parser.add_argument("--from-deal", type=int, default=0, help="only deals pool-N and later")
    parser.add_argument(
        "--threshold",
        type=float,
        default=float(THRESHOLD),
        help="the wealth counted as a hold (e.g. FT_LINK_OWN_EVIDENCE's 20)",
    )
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.cache.read_text().splitlines()]
    rows = [r for r in rows if int(r["day"].split("-")[1]) >= args.from_deal]
    if args.growth:
        growth(rows)
        return
    candidates = CANDIDATES
    if "draws" in rows[0]:  # season_rank.py's output
        candidates = RANKED
        for kind in ("determinized", "mixed-30", "greedy"):
            for s in (4, 8):
                for rho in (1.0, 0.7, 0.5):
                    steps = [f for r in rows if r["kind"] == kind for f in ranked(s, rho)(r)]
                    print(f"{kind} S={s} rho={rho}: {len(steps)} draws, mean factor"
                          f" {statistics.fmean(steps):.3f}")  # fmt: skip
    for name, components in candidates.items():
        if args.only not in name:
            continue
        games: dict[str, list[list[float]]] = {}
        for row in rows:
            scales = [1.0] * len(components)
            if (args.at_one or args.exactly_one) and row["kind"] != "mixed-30":
                scales = [at_one(rows, row["kind"], c, up=args.exactly_one) for c in components]
            games.setdefault(row["kind"], []).append(increments(row, components, scales))
        width = len(games["determinized"][0])
        rng = random.Random(1)
        out = []
        for who, make in populations(games, width).items():
            days = [season(make(), rng, width, args.threshold) for _ in range(args.players)]
            held = [d for d in days if d is not None]
            if who.endswith("honest"):
                out.append(f"{who} held {len(held)}/{len(days)}")
            else:
                ordered = sorted(d or 9999 for d in days)
                med = statistics.median(ordered)
                p90 = ordered[int(0.9 * len(ordered))]
                show = lambda d: "never" if d >= 9999 else f"{d:g}"  # noqa: E731
                out.append(f"{who} median {show(med)}, 90 % {show(p90)}")
        print(f"{name}: " + "; ".join(out), flush=True)


if __name__ == "__main__":
    main()
