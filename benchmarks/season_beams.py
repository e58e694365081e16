"""Wider beams in the decider: do they settle a foresight player's truths more than the completions?

    nice -n 19 .venv/bin/python benchmarks/season_beams.py --widths 100,400 \\
        --kinds mixed-30 --rank benchmarks/data/season_rank.jsonl --out /tmp/beams.jsonl
    .venv/bin/python benchmarks/season_mixture.py --cache /tmp/beams.jsonl

The horizon statistic's draw factor weighs each of a draw's five positions (the truth, its
next ``S`` cards then a certified tail, and four pooled completions) by the fixed-budget
decider's verdict (``evidence.decide``). ``h`` may be any function of the position, so a
stronger decider is as valid: here today's decider, then, on a position it leaves
undecided, a beam of each width in ``--widths`` with its endgame searches
(``evidence.widen``), and optionally a depth-first proof attempt of ``--prove`` nodes
(``prove.Prover``, the exhaustive search: "l" when it exhausts the space). Counts only,
never a clock.

``--rank`` holds today's decider's verdict on every position of the cached games
(``season_rank.py``); only its undecided positions are solved again (the stronger
decider's first phases are today's decider, so its decided verdicts stand). The games'
logs come from ``--cache`` (``season_horizon.py``), the completions from ``--pools`` and
the tails are drawn again as ``season_horizon`` drew them. The output has the rank file's
format (``season_mixture.py --cache`` and ``--growth`` read it) plus, per game, the CPU
(``time.process_time``) and verdict of each position solved again.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.season_rank import append_rows, deal_of, jobs_from_cache  # noqa: E402
from games.engine import GameState  # noqa: E402
from games.solver.evidence import block_factor, split_blocks, widen  # noqa: E402
from games.solver.prove import Prover  # noqa: E402

VARIANT = "forty-thieves"


def stronger(game: GameState, widths: tuple[int, ...], prove: int) -> tuple[str, int, int]:
    """The extra phases on a position today's decider left undecided: the verdict, the
    nodes, and the phase that decided it (the width, -1 the proof attempt, 0 none), so a
    decider with fewer widths can be read off the same run (each phase runs only on what
    the ones before it left undecided)."""
    nodes = 0
    for width in widths:
        found, _line, used = widen(game, (width,))
        nodes += used
        if found != "u":
            return found, nodes, width
    if prove:
        result = Prover(game).run(max_seconds=1e12, max_nodes=prove)
        nodes += result.nodes
        found = {"win": "w", "lost": "l"}.get(result.verdict, "u")
        return found, nodes, -1 if found != "u" else 0
    return "u", nodes, 0


def again(
    position: GameState, cached: list, label: str, solved: list, widths: tuple[int, ...], prove: int
) -> list:
    """The cached ``[verdict, nodes]`` of a position, solved again when undecided (its CPU
    and the phase that decided it appended to ``solved``)."""
    if cached[0] != "u":
        return cached
    began = time.process_time()
    found, nodes, phase = stronger(position, widths, prove)
    solved.append([label, found, round(time.process_time() - began, 3), phase])
    return [found, cached[1] + nodes]


def resolve(
    job: tuple[dict, list[dict]], ranks: dict, widths: tuple[int, ...], prove: int
) -> list[dict]:
    deal, rows = job
    seed, pool, tails = deal_of(deal)
    out = []
    for row in rows:
        rank = ranks[(row["day"], row["kind"], row["run"])]
        old = {d[0]: d for d in rank["draws"]}
        game = GameState.from_seed(seed, VARIANT, undo_limit=0)
        draws, solved = [], []
        began = time.process_time()

        for block in split_blocks(row["log"].split()):
            n = game.stock_count
            if n in old:
                _n, others, truths = old[n]
                new_others = []
                for i, (order, cached) in enumerate(zip(pool[n], others, strict=True)):
                    other = game.copy()
                    other._stock = list(order)
                    other.replay(block)
                    new_others.append(again(other, cached, f"{n}c{i}", solved, widths, prove))
                after = game.copy()
                after.replay(block)
                new_truths = {}
                for s, cached in truths.items():
                    truth = after.copy()
                    truth._stock = list(tails[n - int(s)][0]) + list(after._stock[n - int(s) :])
                    new_truths[s] = again(truth, cached, f"{n}t{s}", solved, widths, prove)
                draws.append([n, new_others, new_truths])
            game.replay(block)
        out.append(
            {"kind": row["kind"], "day": row["day"], "run": row["run"], "won": row["won"],
             "widths": list(widths), "prove": prove, "draws": draws, "solved": solved,
             "cpu": round(time.process_time() - began, 2)}
        )  # fmt: skip
    return out


def report(rows: list[dict], ranks: dict) -> None:
    """Per kind: the truths' and completions' verdict shares before and after, the phase
    that settled each position solved again, its CPU, and each game's CPU."""
    kinds = sorted({r["kind"] for r in rows})
    for kind in kinds:
        mine = [r for r in rows if r["kind"] == kind]
        for label, rs in (("before", [ranks[(r["day"], r["kind"], r["run"])] for r in mine]),
                          ("after", mine)):  # fmt: skip
            share = {}
            for who in ("c", "4", "8"):
                found = [
                    v[0]
                    for r in rs
                    for _n, others, truths in r["draws"]
                    for v in (others if who == "c" else [truths.get(who)])
                    if v is not None
                ]
                share[who] = "/".join(f"{found.count(x) / len(found):.3f}" for x in "wlu")
            print(f"{kind} {label} (w/l/u): completions {share['c']}, truth S=4 {share['4']},"
                  f" S=8 {share['8']}")  # fmt: skip
        cached = [ranks[(r["day"], r["kind"], r["run"])] for r in mine]
        for s in ("4", "8"):
            print(f"  mean draw factor S={s}: before {draw_factors(cached, kind, s)},"
                  f" after {draw_factors(mine, kind, s)}")  # fmt: skip
        solved = [p for r in mine for p in r["solved"]]
        cpu = sorted(p[2] for p in solved)
        games = sorted(r["cpu"] for r in mine)
        phases: dict[str, int] = {}
        for p in solved:
            key = ("c" if "c" in p[0] else "t") + str(p[3])
            phases[key] = phases.get(key, 0) + 1
        print(f"{kind}: {len(mine)} games, {len(solved)} positions solved again, settled by"
              f" phase (c/t + width) {dict(sorted(phases.items()))}")  # fmt: skip
        if cpu:
            print(f"  CPU a position min/median/mean/max {cpu[0]:.2f}/{statistics.median(cpu):.2f}"
                  f"/{statistics.fmean(cpu):.2f}/{cpu[-1]:.2f} s; a game"
                  f" {games[0]:.1f}/{statistics.median(games):.1f}/{statistics.fmean(games):.1f}"
                  f"/{games[-1]:.1f} s; total {sum(games):.0f} s")  # fmt: skip


def draw_factors(rows: list[dict], kind: str, s: str) -> str:
    """The mean draw factor of ``kind``'s games at horizon ``s`` with its standard error
    clustered by game (a game's draws are dependent)."""
    games = []
    for r in rows:
        if r["kind"] == kind:
            found = [
                block_factor(truths[s][0], "".join(o[0] for o in others))
                for _n, others, truths in r["draws"]
                if s in truths
            ]
            games.append((sum(found), len(found)))
    total, count = sum(g[0] for g in games), sum(g[1] for g in games)
    mean = total / count
    spread = sum((t - mean * n) ** 2 for t, n in games) * len(games) / (len(games) - 1)
    return f"{mean:.3f} ± {spread**0.5 / count:.3f} ({count} draws, {len(games)} games)"


def upto(rows: list[dict], ranks: dict, last: int) -> list[dict]:
    """The rows as a decider with the widths up to ``last`` only would have left them: a
    position settled by a later phase is undecided again (its cached nodes)."""
    out = []
    for r in rows:
        later = {p[0] for p in r["solved"] if p[3] > last or p[3] == -1}
        old = {d[0]: d for d in ranks[(r["day"], r["kind"], r["run"])]["draws"]}
        draws = []
        for n, others, truths in r["draws"]:
            others = [old[n][1][i] if f"{n}c{i}" in later else v for i, v in enumerate(others)]
            truths = {s: old[n][2][s] if f"{n}t{s}" in later else v for s, v in truths.items()}
            draws.append([n, others, truths])
        out.append({**r, "draws": draws, "widths": [w for w in r["widths"] if w <= last]})
    return out


#: A position of a draw: today's verdict and nodes, and the phase of the stronger decider
#: that settled it (0: none, or not solved again).
Position = tuple[str, int, int]


def _positions(row: dict, cached: dict, s: str) -> list[list[Position]]:
    """Each draw of horizon ``s``: its completions' positions, then the truth's."""
    phase = {p[0]: p[3] if p[1] != "u" else 0 for p in row["solved"]}
    out = []
    for n, others, truths in cached["draws"]:
        if s in truths:
            found = [(v, nodes, phase.get(f"{n}c{i}", 0)) for i, (v, nodes) in enumerate(others)]
            out.append(found + [(truths[s][0], truths[s][1], phase.get(f"{n}t{s}", 0))])
    return out


def _factors(games: list[list[list[Position]]], h) -> list[list[float]]:
    out = []
    for draws in games:
        found = []
        for draw in draws:
            weights = [h(*p) for p in draw]
            mine = weights[-1]
            found.append(mine * len(weights) / sum(weights) if mine > 0 else 0.0)
        out.append(found)
    return out


def _days(factors: list[list[float]], lam: float) -> list[float]:
    """Each game's log-wealth increment at the fraction ``lam``."""
    return [sum(math.log(1 - lam + lam * f) for f in fs) for fs in factors]


def _growth(games: list[list[list[Position]]], h) -> float:
    """The cheat's expected log-wealth a day at the best fraction in hindsight."""
    factors = _factors(games, h)
    return max(statistics.fmean(_days(factors, i / 100)) for i in range(1, 100))


def _paired(games: list[list[list[Position]]], before, after) -> str:
    """Game by game, the log-wealth a day of ``after`` less ``before`` at fixed fractions:
    the mean difference, its standard error, and how many games lose and gain."""
    out = []
    for lam in (0.3, 0.5, 0.85):
        diff = [
            b - a
            for a, b in zip(
                _days(_factors(games, before), lam), _days(_factors(games, after), lam), strict=True
            )
        ]
        se = statistics.stdev(diff) / len(diff) ** 0.5
        worse, better = sum(d < -1e-9 for d in diff), sum(d > 1e-9 for d in diff)
        out.append(
            f"{lam}: {statistics.fmean(diff):+.3f} ± {se:.3f} ({worse} worse, {better} better)"
        )
    return "; ".join(out)


def variants(rows: list[dict], ranks: dict) -> None:
    """The foresight player's evidence a day (``season_mixture.py --growth``'s measure)
    under deciders read off one run: the depth-first search alone with fewer nodes
    (decided by today's decider within ``N`` nodes: the same search order, so exactly the
    positions an ``N``-node search decides), today's decider, the wider beams, and wins of
    the wider beams weighed between a 20-wide beam's win and "undecided"."""
    weight = {"w": 1.0, "l": 0.0, "u": 0.25}
    cheat = [r for r in rows if r["kind"] == "mixed-30"]

    def search_only(limit: int):
        return lambda v, nodes, phase: weight[v] if nodes <= limit else weight["u"]

    def beams(last: int, won: dict[int, float] | None = None):
        def h(v: str, nodes: int, phase: int) -> float:
            if 0 < phase <= last:
                return (won or {}).get(phase, 1.0)
            return weight[v]

        return h

    deciders = {
        **{f"depth-first search alone, {n} nodes": search_only(n) for n in (500, 1000, 2000)},
        "today's decider (search, beam 20)": beams(0),
        "+ beam 100": beams(100),
        "+ beams 100, 400": beams(400),
        "+ beams 100, 400, their wins weighed 0.5 / 0.35": beams(400, {100: 0.5, 400: 0.35}),
        "+ beams 100, 400, their wins weighed 0.4 / 0.3": beams(400, {100: 0.4, 400: 0.3}),
    }
    for s in ("4", "8"):
        games = [_positions(r, ranks[(r["day"], r["kind"], r["run"])], s) for r in cheat]
        for name, h in deciders.items():
            print(f"S={s} {name}: {_growth(games, h):.3f} a day")
        today, wider = deciders["today's decider (search, beam 20)"], deciders["+ beams 100, 400"]
        print(f"S={s} + beams 100, 400 less today's, game by game, at fractions"
              f" {_paired(games, today, wider)}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, default=ROOT / "benchmarks/data/season_horizon.jsonl")
    parser.add_argument("--rank", type=Path, default=ROOT / "benchmarks/data/season_rank.jsonl")
    parser.add_argument("--pools", type=Path, default=ROOT / "benchmarks/data/season_pools.json")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--widths", default="100,400", help="beam widths, in turn")
    parser.add_argument("--prove", type=int, default=0, help="nodes of a proof attempt (0: none)")
    parser.add_argument("--kinds", default="determinized,mixed-30,greedy")
    parser.add_argument("--deals", default="0-47", help="pool-N for N in FROM-TO (inclusive)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--report", action="store_true", help="summarise --out, solve nothing")
    parser.add_argument(
        "--upto",
        type=int,
        default=0,
        help="with --report: write --out's rows as"
        " the widths up to this one would have left them to --derived",
    )
    parser.add_argument("--derived", type=Path)
    parser.add_argument("--variants", action="store_true", help="the cheat's growth per decider")
    args = parser.parse_args()
    kinds = set(args.kinds.split(","))
    low, high = (int(x) for x in args.deals.split("-"))
    widths = tuple(int(w) for w in args.widths.split(",") if w)
    ranks = {}
    for line in args.rank.read_text().splitlines():
        r = json.loads(line)
        ranks[(r["day"], r["kind"], r["run"])] = r

    if args.report or args.variants:
        rows = [json.loads(line) for line in args.out.read_text().splitlines()]
        if args.variants:
            variants(rows, ranks)
            return
        if args.upto:
            rows = upto(rows, ranks, args.upto)
            args.derived.write_text("".join(json.dumps(r) + "\n" for r in rows))
        report(rows, ranks)
        return

    def wanted(row: dict) -> bool:
        return row["kind"] in kinds and low <= int(row["day"].split("-")[1]) <= high

    jobs = jobs_from_cache(args.cache, args.pools, args.out, wanted)
    work = partial(resolve, ranks=ranks, widths=widths, prove=args.prove)
    append_rows(work, jobs, out=args.out, workers=args.jobs)


if __name__ == "__main__":
    main()
