"""The server's per-game cost with the horizon statistic, on cached games (CPU seconds).

    nice -n 10 .venv/bin/python benchmarks/horizon_cost.py --deals 6 \\
        --cache benchmarks/data/season_pooled.jsonl

For each of the first ``--deals`` pooled deals: the tails drawn as the solver queue draws
them (``horizon.certified_tails`` with the site's certification, once per deal), then each
cached game of the deal weighed as the ``fairplay`` queue weighs it
(``horizon.horizon_survival`` on the deal's pooled completions and those tails). Prints
min / median / max per kind; CPU clock (``time.process_time``), so the machine's load
matters less than wall time would.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.stats import spread  # noqa: E402
from games.engine import GameState  # noqa: E402
from games.solver.evidence import verdict  # noqa: E402
from games.solver.horizon import certified_tails, horizon_survival  # noqa: E402

VARIANT = "forty-thieves"


#: How the CPU seconds are written.
SECONDS = "{} / {} / {} s"


def certified(game: GameState) -> bool:
    return verdict(game) == "w"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--pools", type=Path, default=ROOT / "benchmarks/data/season_pools.json")
    parser.add_argument("--deals", type=int, default=6)
    args = parser.parse_args()
    deals = json.loads(args.pools.read_text())[: args.deals]
    rows = [json.loads(line) for line in args.cache.read_text().splitlines()]
    tails_cpu: list[float] = []
    games: dict[str, list[float]] = {}
    for deal in deals:
        seed = int(deal["seed"], 16)

        began = time.process_time()
        tails = certified_tails(seed, VARIANT, accept=certified, rng=random.Random(deal["day"]))
        tails_cpu.append(time.process_time() - began)
        pool = {int(n): orders for n, orders in deal["pool"].items()}
        for row in rows:
            if row["day"] != deal["day"]:
                continue
            found = horizon_survival(
                seed, VARIANT, row["log"].split(), won=row["won"], rng=random.Random(1),
                pool=pool, tails=tails,
            )  # fmt: skip
            games.setdefault(row["kind"], []).append(found.seconds)
            # the statistic beside its cost: two cores must give the same value
            print(deal["day"], row["kind"], round(found.seconds, 2), f"value {found.value:.9g}")

    print(f"tails a deal ({len(tails_cpu)}): {spread(tails_cpu, '{:.1f}', template=SECONDS)}")
    for kind, values in games.items():
        cpu = spread(values, "{:.1f}", template=SECONDS)
        print(f"{kind} ({len(values)} games): {cpu}, mean {statistics.fmean(values):.1f}")


if __name__ == "__main__":
    main()
