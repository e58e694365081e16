"""Daily-style certified deals for the fair-play benchmark, made once and kept.

    .venv/bin/python benchmarks/certified_deals.py --count 220 --seconds 3 --jobs 1

Like the daily deal (``games.services.deals.certify_daily_seed``): for each day from
2025-01-01 the seed candidates of a benchmark secret are tried in order until the solver
wins one within ``--seconds``; that seed and the solver's winning line are written to
``benchmarks/data/certified_deals.json`` (appended to, so a run can be resumed). The line is
what the benchmark's clairvoyant player plays. Pure engine and solver: no Django, no database.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.daily import daily_seed  # noqa: E402  (pure: hmac and dates only)
from games.engine import GameState  # noqa: E402
from games.solver import solve  # noqa: E402

OUT = ROOT / "benchmarks" / "data" / "certified_deals.json"
SECRET = "fair-play-benchmark"
VARIANT = "forty-thieves"
MAX_CANDIDATES = 50


def certify(job: tuple[str, float]) -> dict | None:
    day, seconds = job
    for candidate in range(MAX_CANDIDATES):
        seed = daily_seed(SECRET, date.fromisoformat(day), VARIANT, candidate)
        result = solve(GameState.from_seed(seed, VARIANT, undo_limit=0), max_seconds=seconds)
        if result.verdict == "win":
            return {
                "day": day,
                "candidate": candidate,
                "seed": f"{seed:032x}",
                "nodes": result.nodes,
                "line": " ".join(result.line),
            }
    return None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=220)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    deals = json.loads(OUT.read_text())["deals"] if OUT.exists() else []
    done = {d["day"] for d in deals}
    first = date(2025, 1, 1)
    days = [(first + timedelta(days=i)).isoformat() for i in range(args.count)]
    jobs = [(d, args.seconds) for d in days if d not in done]
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for row in pool.map(certify, jobs):
            if row is not None:
                deals.append(row)
                deals.sort(key=lambda d: d["day"])
                OUT.write_text(
                    json.dumps(
                        {
                            "about": __doc__.splitlines()[0],
                            "variant": VARIANT,
                            "seconds": args.seconds,
                            "deals": deals,
                        },
                        indent=0,
                    )
                )
                print(
                    f"{row['day']} candidate {row['candidate']}: {len(row['line'].split())} moves"
                    f"  ({len(deals)} deals, {time.perf_counter() - started:.0f} s)",
                    flush=True,
                )


if __name__ == "__main__":
    main()
