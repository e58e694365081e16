"""Fair-play benchmark: does foresight analysis hold clairvoyant wins and pass honest ones?

    .venv/bin/python benchmarks/fairplay.py --deals 200 --runs 3 --jobs 2
    .venv/bin/python benchmarks/fairplay.py --deals 20 --kinds clairvoyant,greedy --rows /tmp/r.json

Scripted players (``benchmarks/players.py``) play the certified daily-style deals
of ``benchmarks/data/certified_deals.json`` (made by ``benchmarks/certified_deals.py``):

* honest: ``greedy`` (climbs a position score) and ``determinized`` (the solver on a
  random completion of the unseen cards, replanning when a turned card contradicts it);
  each is run ``--runs`` times per deal with different seeds;
* clairvoyant: ``clairvoyant`` (the certified solver line on the true deal) and
  ``mixed-10`` / ``mixed-30`` (10 % / 30 % of the decisions taken by the greedy honest
  player, re-solving on the true deal after each).

Every win is analysed by ``games.solver.foresight.analyse_foresight`` (``--seconds`` of
budget; ``--all`` analyses losses too, to check the statistic's null distribution). The
report gives, per kind, the wins held for review with a 95 % Clopper-Pearson interval and
the CPU seconds per analysed game, then the targets: >= 90 % of clairvoyant wins held at
<= 1 % of honest wins held, <= 60 s of one core per analysed win. Not a timed test.

Beside the foresight analysis, every win also goes through the server's other checks:
the solver-copy check (``games.solver.fingerprint``) and the pace check on server-style
timestamps, with the game played at a person's pace and at a script's
(``benchmarks/fairplay_stack.py``). ``--scouts N`` plays issue 10's attack 2 (a scout
turns the stock, a second account on the same browser plays the solver's line) through
the platform's own services on a scratch database, with a control pair on separate
browsers. ``--from-rows`` re-analyses the won games of earlier ``--logs`` row files
without playing them again (the determinized player costs ~17 s of CPU a game).

    .venv/bin/python benchmarks/fairplay.py --from-rows /tmp/fp_*.json --scouts 50
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import players  # noqa: E402
from benchmarks.certified_deals import OUT as DEALS  # noqa: E402  (the file it writes)
from benchmarks.fairplay_stack import pace_holds, scout_pairs  # noqa: E402
from benchmarks.stats import spread  # noqa: E402
from games.solver.fingerprint import solver_copy  # noqa: E402
from games.solver.foresight import THRESHOLD, analyse_foresight  # noqa: E402

VARIANT = "forty-thieves"
HONEST = ("greedy", "determinized")
CLAIRVOYANT = ("clairvoyant", "mixed-10", "mixed-30")


# The platform's other signals -------------------------------------------------------------


def other_signals(deal: dict, moves: list[str], run: int) -> dict:
    """The checks the server runs beside the foresight analysis: a copy of this site's
    solver line (from move 1), and the pace check on server timestamps of the game played
    at a person's pace and at a script's (``benchmarks/fairplay_stack.py``)."""
    copy = solver_copy(
        int(deal["seed"], 16), VARIANT, moves, certified=deal["line"].split(), max_seconds=10
    )
    seed = int(deal["seed"][:8], 16) + run
    return {
        "copy_share": copy.share,
        "copy_held": copy.suspicious,
        "copy_cpu": copy.seconds,
        "pace_human": pace_holds(len(moves), "human", seed),
        "pace_machine": pace_holds(len(moves), "machine", seed),
    }


# Playing and analysing ------------------------------------------------------------------


def play(kind: str, deal: dict, run: int, solve_seconds: float) -> players.Played:
    seed = int(deal["seed"], 16)
    line = deal["line"].split()
    if kind == "greedy":
        return players.play_greedy(seed, VARIANT, rng_seed=run)
    if kind == "determinized":
        return players.determinized(seed, VARIANT, rng_seed=run, seconds=solve_seconds)
    if kind == "clairvoyant":
        return players.clairvoyant(seed, VARIANT, line)
    if kind.startswith("mixed-"):
        share = int(kind.split("-")[1]) / 100
        return players.clairvoyant_mixed(seed, VARIANT, line, share, rng_seed=run, seconds=0.5)
    raise ValueError(f"unknown player kind {kind!r}")


def one(job: tuple) -> dict:
    kind, deal, run, args = job
    began = time.process_time()
    played = play(kind, deal, run, args["solve_seconds"])
    play_cpu = time.process_time() - began
    row = {
        "kind": kind,
        "day": deal["day"],
        "seed": deal["seed"],
        "run": run,
        "won": played.won,
        "moves": len(played.moves),
        "play_cpu": round(play_cpu, 2),
        "info": played.info,
        "log": " ".join(played.moves) if args["logs"] else None,
    }
    if played.won or args["all"]:
        began = time.process_time()
        report = analyse_foresight(
            int(deal["seed"], 16), VARIANT, played.moves, max_seconds=args["seconds"], rng_seed=run
        )
        row.update(
            statistic=report.statistic,
            held=report.suspicious,
            decisions=report.decisions,
            complete=report.complete,
            cpu=round(time.process_time() - began, 3),
            **other_signals(deal, played.moves, run),
        )
    return row


# Reporting --------------------------------------------------------------------------------


def _binom_cdf(k: int, n: int, p: float) -> float:
    if p <= 0:
        return 1.0
    if p >= 1:
        return 0.0 if k < n else 1.0
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))


def clopper_pearson(k: int, n: int) -> tuple[float, float]:
    """Exact 95 % interval for a share k/n (bisection on the binomial tails)."""
    if n == 0:
        return 0.0, 1.0

    def root(f, target: float) -> float:  # f decreasing in p
        lo, hi = 0.0, 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            if f(mid) > target:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    # low: P(X >= k | p) = 2.5 %; high: P(X <= k | p) = 2.5 %
    low = 0.0 if k == 0 else root(lambda p: _binom_cdf(k - 1, n, p), 0.975)
    high = 1.0 if k == n else root(lambda p: _binom_cdf(k, n, p), 0.025)
    return low, high


def summarise(rows: list[dict], kinds: list[str]) -> None:
    print(
        f"{'kind':14s} {'games':>5s} {'wins':>5s} {'held':>10s} {'95% CI':>15s}"
        f" {'Z median':>8s} {'cpu/win min/med/max s':>24s}"
    )
    for kind in kinds:
        mine = [r for r in rows if r["kind"] == kind]
        wins = [r for r in mine if r["won"]]
        held = [r for r in wins if r.get("held")]
        lo, hi = clopper_pearson(len(held), len(wins))
        cpus = [r["cpu"] for r in wins if "cpu" in r]
        zs = [r["statistic"] for r in wins if "statistic" in r]
        share = f"{len(held)}/{len(wins)}"
        cpu = spread(cpus, "{:.1f}", template="{}/{}/{}")
        print(
            f"{kind:14s} {len(mine):5d} {len(wins):5d} {share:>10s} "
            f"{100 * lo:6.1f}-{100 * hi:5.1f} % {statistics.median(zs) if zs else 0:8.2f}"
            f" {cpu:>24s}"
        )
        analysed = [r for r in mine if "statistic" in r]
        if len(analysed) > len(wins):
            z = [r["statistic"] for r in analysed]
            print(
                f"{'':14s} all {len(z)} analysed games: Z mean {statistics.mean(z):.2f}"
                f" sd {statistics.pstdev(z):.2f}, above {THRESHOLD:g}:"
                f" {sum(x > THRESHOLD for x in z)}"
            )
    honest = [r for r in rows if r["won"] and r["kind"] in HONEST]
    clair = [r for r in rows if r["won"] and r["kind"] in CLAIRVOYANT]
    h_held = sum(bool(r.get("held")) for r in honest)
    c_held = sum(bool(r.get("held")) for r in clair)
    cpus = [r["cpu"] for r in rows if r["won"] and "cpu" in r]
    print()
    if clair:
        lo, hi = clopper_pearson(c_held, len(clair))
        print(
            f"clairvoyant wins held: {c_held}/{len(clair)} = {100 * c_held / len(clair):.1f} %"
            f" (95% {100 * lo:.1f}-{100 * hi:.1f} %)   target >= 90 %"
        )
    if honest:
        lo, hi = clopper_pearson(h_held, len(honest))
        print(
            f"honest wins held:      {h_held}/{len(honest)} = {100 * h_held / len(honest):.1f} %"
            f" (95% {100 * lo:.1f}-{100 * hi:.1f} %)   target <= 1 %"
        )
    if cpus:
        print(f"CPU per analysed win: max {max(cpus):.1f} s   target <= 60 s")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="first N certified deals")
    parser.add_argument("--skip", type=int, default=0, help="skip the first N certified deals")
    parser.add_argument("--runs", type=int, default=1, help="runs of each honest kind per deal")
    parser.add_argument("--first-run", type=int, default=0, help="seed of the first honest run")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=60.0, help="analysis budget per game")
    parser.add_argument(
        "--solve-seconds",
        type=float,
        default=0.3,
        help="solver budget of the determinized player per plan",
    )
    parser.add_argument("--kinds", default=",".join(HONEST + CLAIRVOYANT))
    parser.add_argument("--all", action="store_true", help="analyse losses too")
    parser.add_argument("--rows", help="write the per-game rows to this JSON file")
    parser.add_argument("--logs", action="store_true", help="keep each game's moves in the rows")
    parser.add_argument(
        "--from-rows", nargs="+", help="re-analyse the won games of earlier --logs row files"
    )
    parser.add_argument(
        "--scouts", type=int, default=0, help="also play this many scout pairs (attack 2)"
    )
    args = parser.parse_args(argv)
    if args.from_rows:
        rows = reanalyse(args.from_rows, args.seconds)
        kinds = sorted({r["kind"] for r in rows})
        summarise(rows, kinds)
        summarise_signals(rows, kinds)
        if args.scouts:
            scouts(args.scouts)
        return
    deals = json.loads(DEALS.read_text())["deals"][args.skip : args.skip + args.deals]
    kinds = args.kinds.split(",")
    opts = {
        "seconds": args.seconds,
        "solve_seconds": args.solve_seconds,
        "all": args.all,
        "logs": args.logs,
    }
    jobs = [
        (kind, deal, run, opts)
        for deal in deals
        for kind in kinds
        for run in range(args.first_run, args.first_run + (args.runs if kind in HONEST else 1))
    ]
    started = time.perf_counter()
    rows = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for row in pool.map(one, jobs):
            rows.append(row)
            z = f"Z {row['statistic']:6.2f}" if "statistic" in row else ""
            print(
                f"{row['day']} {row['kind']:13s} run {row['run']} won={row['won']!s:5s}"
                f" {row['moves']:4d} moves {z}",
                flush=True,
            )
            if args.rows:
                Path(args.rows).write_text(json.dumps(rows))
    print(
        f"\n{len(deals)} deals, kinds {args.kinds}, {args.runs} honest run(s), threshold"
        f" Z > {THRESHOLD:g}, wall {time.perf_counter() - started:.0f} s\n"
    )
    summarise(rows, kinds)
    summarise_signals(rows, kinds)
    if args.scouts:
        scouts(args.scouts)


def summarise_signals(rows: list[dict], kinds: list[str]) -> None:
    """Every signal on every win: held by foresight, by the solver-copy check, by the pace
    check at a person's pace and at a script's, and by any of them."""
    print(
        f"\n{'kind':14s} {'wins':>5s} {'foresight':>10s} {'copy':>8s} {'pace@p':>8s}"
        f" {'pace@m':>8s} {'any@person':>11s} {'any@script':>11s}"
    )
    for kind in kinds:
        wins = [r for r in rows if r["kind"] == kind and r["won"] and "copy_held" in r]
        if not wins:
            continue

        def share(test, wins: list[dict] = wins) -> str:
            n = sum(bool(test(r)) for r in wins)
            return f"{n}/{len(wins)}"

        print(
            f"{kind:14s} {len(wins):5d} {share(lambda r: r['held']):>10s}"
            f" {share(lambda r: r['copy_held']):>8s} {share(lambda r: r['pace_human']):>8s}"
            f" {share(lambda r: r['pace_machine']):>8s}"
            f" {share(lambda r: r['held'] or r['copy_held'] or r['pace_human']):>11s}"
            f" {share(lambda r: r['held'] or r['copy_held'] or r['pace_machine']):>11s}"
        )


def reanalyse(paths: list[str], seconds: float) -> list[dict]:
    """Rows written with ``--logs`` by earlier runs, analysed again by the current code
    (only the analysis: no game is played again)."""
    deals = {d["seed"]: d for d in json.loads(DEALS.read_text())["deals"]}
    rows = []
    for path in paths:
        for row in json.loads(Path(path).read_text()):
            if not (row.get("won") and row.get("log")):
                continue
            moves, deal = row["log"].split(), deals[row["seed"]]
            began = time.process_time()
            report = analyse_foresight(
                int(row["seed"], 16), VARIANT, moves, max_seconds=seconds, rng_seed=row["run"]
            )
            row.update(statistic=report.statistic, held=report.suspicious)
            row.update(cpu=round(time.process_time() - began, 3))
            row.update(other_signals(deal, moves, row["run"]))
            rows.append(row)
    return rows


def scouts(count: int) -> None:
    """Issue 10's attack 2 through the platform's services: a scout turns the stock, a
    second account on the same browser plays the solver's line at a person's pace."""
    deals = json.loads(DEALS.read_text())["deals"][:count]
    for linked in (True, False):
        pairs = scout_pairs(deals, pace="human", linked=linked)
        held = sum(p["held"] for p in pairs)
        label = "scout pair, same browser" if linked else "control: two separate players"
        print(
            f"{label:34s} held {held}/{len(pairs)} (reasons: "
            f"{sorted({r for p in pairs for r in p['reasons']})})"
        )


if __name__ == "__main__":
    main()
