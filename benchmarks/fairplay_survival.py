"""Issue 10's literal foresight method, measured: solver values over random completions.

    .venv/bin/python benchmarks/fairplay_survival.py --deals 30 --jobs 2 --rows /tmp/surv.jsonl
    .venv/bin/python benchmarks/fairplay_survival.py --from-rows /tmp/surv.jsonl

The issue asks to compare, at each decision, the value of the chosen move with full
knowledge (the solver on the true deal) against its value given only what the player had
seen (the solver over random completions of the unseen cards). This script measures the
two calibrated statistics that method gives, on the same kinds of players as
``benchmarks/fairplay.py`` (the certified deals; ``determinized``, the strongest honest
player, against ``clairvoyant`` and ``mixed-30``). It is an experiment, not a server check:
neither statistic separates the kinds (docs/fairplay.md, section 4, says why), so the
server does not run them. Per draw ("block": the moves before a draw, and the draw), with
``--completions`` random completions of what the player saw at the block's start, each
solved for ``--seconds``:

* **survival** (a test martingale): ``n_A`` completions where the block's start is won by
  the solver, ``n_AB`` where the position after the block and the draw (which turns the
  completion's card) is; the true deal counts in both (the game was won). The factor is
  ``(1 + n_A) / (1 + n_AB)``: the inverse of the chance that what the player did kept a
  winnable game winnable, for a player who could not see the stock. For every honest
  player the product has mean at most one over all their games (Ville's inequality bounds
  how often it grows large), so a large product means the player survived bets an
  uninformed player would lose.
* **plan agreement** (an exchangeable likelihood ratio): ``f(d)`` is 1 (else
  ``EPSILON``) when the solver's plan on deal ``d`` from the block's start begins with the
  player's block; the factor is ``f(true) / mean f`` over the completions and the true
  deal. For an honest player the true deal is one more random completion, so each factor
  has mean one: large products mean the player followed the true deal's plan where plans
  for other stocks differ.

Not a timed test: the CPU seconds are reported beside the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from fairplay import DEALS, VARIANT, play  # noqa: E402

from games.engine import GameState  # noqa: E402
from games.solver import solve  # noqa: E402
from games.solver.players import Seen  # noqa: E402

KINDS = ("determinized", "clairvoyant", "mixed-30")
HONEST = ("determinized",)
#: The plan-agreement weight of a deal whose plan does not start with the player's block
#: (above zero, so one disagreement cannot zero a product).
EPSILON = 0.2


def blocks(log: list[str]) -> list[tuple[str, ...]]:
    """The log cut after each draw; moves after the last draw (the endgame, where nothing
    is unseen any more) are left out."""
    out, block = [], []
    for move in log:
        block.append(move)
        if move == "s":
            out.append(tuple(block))
            block = []
    return out


def _first_block(line: list[str]) -> tuple[str, ...] | None:
    for i, move in enumerate(line):
        if move == "s":
            return tuple(line[: i + 1])
    return None


def _wins(game: GameState, seconds: float) -> tuple[bool, tuple[str, ...] | None]:
    result = solve(game, max_seconds=seconds)
    if result.verdict != "win":
        return False, None
    return True, _first_block(result.line)


def analyse(
    seed: int, log: list[str], *, completions: int, seconds: float, rng_seed: int, max_stock: int
) -> tuple[float, float, list[tuple[int, int, int, bool]]]:
    """Both statistics for one won game, and the per-block counts (blocks that start with
    more than ``max_stock`` cards in the stock are skipped: the solver decides almost none
    of those positions within a short budget, so they carry no evidence either way)."""
    rng = random.Random(rng_seed)
    game = GameState.from_seed(seed, VARIANT, undo_limit=0)
    survival = agreement = 0.0
    terms = []
    for block in blocks(log):
        if game.stock_count > max_stock:
            game.replay(list(block))
            continue
        true_plan = _wins(game, seconds)[1]
        f_true = 1.0 if true_plan == block else EPSILON
        seen = Seen.from_view(game.view())
        n_a = n_ab = 0
        f_sum = f_true
        for _ in range(completions):
            other = seen.sample(rng)
            won_a, plan = _wins(other, seconds)
            after = other.copy()
            after.replay(list(block))
            won_ab = _wins(after, seconds)[0]
            n_a += won_a or won_ab
            n_ab += won_ab
            f_sum += 1.0 if plan == block else EPSILON
        survival += math.log((1 + n_a) / (1 + n_ab))
        agreement += math.log(f_true * (completions + 1) / f_sum)
        terms.append((game.stock_count, n_a, n_ab, true_plan == block))
        game.replay(list(block))
    return survival, agreement, terms


def one(job: tuple) -> dict:
    """Play (unless the log is given) and analyse one game: a row of the report."""
    kind, deal, args, log = job
    if log is None:
        played = play(kind, deal, 0, 0.3)
        won, moves = played.won, played.moves
    else:
        won, moves = True, log
    if not won:
        return {"kind": kind, "seed": deal["seed"], "won": False}
    began = time.process_time()
    survival, agreement, terms = analyse(
        int(deal["seed"], 16),
        moves,
        completions=args.completions,
        seconds=args.seconds,
        rng_seed=int(deal["seed"][:8], 16),
        max_stock=args.max_stock,
    )
    return {
        "kind": kind,
        "seed": deal["seed"],
        "won": True,
        "survival": survival,
        "agreement": agreement,
        "terms": terms,
        "cpu": round(time.process_time() - began, 2),
    }


def _auc(honest: list[float], cheats: list[float]) -> float:
    """The chance a cheat's statistic is above an honest one's (ties count half)."""
    pairs = [(c > h) + 0.5 * (c == h) for c in cheats for h in honest]
    return sum(pairs) / len(pairs) if pairs else float("nan")


def report(rows: list[dict]) -> None:
    wins = [r for r in rows if r.get("won")]
    print(f"{len(wins)} won games analysed ({len(rows)} played)")
    for stat in ("survival", "agreement"):
        print(f"\n{stat} (natural log of the product; hold at ln 100 = 4.61 for <= 1 %):")
        honest = [r[stat] for r in wins if r["kind"] in HONEST]
        for kind in KINDS:
            values = sorted(r[stat] for r in wins if r["kind"] == kind)
            if not values:
                continue
            over = sum(v > math.log(100) for v in values)
            line = (
                f"  {kind:13} n={len(values):3}  min {values[0]:6.2f}  median "
                f"{statistics.median(values):6.2f}  max {values[-1]:6.2f}  over ln 100: {over}"
            )
            if kind not in HONEST and honest:
                top = max(honest)
                line += (
                    f"  above every honest game: {sum(v > top for v in values)}"
                    f"  AUC vs honest {_auc(honest, values):.2f}"
                )
            print(line)
    cpu = sorted(r["cpu"] for r in wins)
    if cpu:
        print(
            f"\nCPU per analysed win: min {cpu[0]:.1f} / median {statistics.median(cpu):.1f}"
            f" / max {cpu[-1]:.1f} s"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--completions", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=0.1, help="solver budget per solve")
    parser.add_argument("--max-stock", type=int, default=48, help="skip blocks before this")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rows", type=Path, help="append each analysed game here (JSON lines)")
    parser.add_argument("--from-rows", type=Path, help="report on earlier rows, play nothing")
    parser.add_argument(
        "--games",
        type=Path,
        help="won games to analyse instead of playing (JSON lines with kind, seed, log)",
    )
    args = parser.parse_args(argv)
    if args.from_rows:
        report([json.loads(line) for line in args.from_rows.read_text().splitlines() if line])
        return
    deals = json.loads(DEALS.read_text())["deals"][: args.deals]
    if args.games:
        known = {deal["seed"]: deal for deal in deals}
        games = [json.loads(line) for line in args.games.read_text().splitlines() if line]
        jobs = [
            (g["kind"], known[g["seed"]], args, g["log"].split())
            for g in games
            if g["seed"] in known and g["kind"] in KINDS and g.get("won", True)
        ]
    else:
        jobs = [(kind, deal, args, None) for deal in deals for kind in KINDS]
    rows = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for row in pool.map(one, jobs):
            rows.append(row)
            if args.rows:
                with args.rows.open("a") as out:
                    out.write(json.dumps(row) + "\n")
    report(rows)


if __name__ == "__main__":
    main()
