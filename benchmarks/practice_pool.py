"""What filling the pool of proven-winnable practice deals yields and costs, per variant.

    .venv/bin/python benchmarks/practice_pool.py --variants forty-thieves little-forty
    .venv/bin/python benchmarks/practice_pool.py --seeds 50 --nodes 500000

For ``--seeds`` consecutive seeds from ``--first`` (1000) of each variant, runs exactly the
pool's proof, ``games.services.practice_pool.proven_win`` (the solver under a node budget,
the line replayed through the engine), and reports how many seeds were proven, the stars
they got, and the seconds per seed (min/median/max) with the machine's load. The verdicts
and stars depend on the node budget only; the seconds on the machine. No database is used.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.stats import spread  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ftsite.settings")


def main() -> None:
    import django

    django.setup()
    from games.services.deals import difficulty_for
    from games.services.practice_pool import proven_win

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=["forty-thieves", "little-forty"])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first", type=int, default=1000)
    parser.add_argument("--nodes", type=int, default=200_000)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; {args.nodes} nodes per seed")
    for variant in args.variants:
        seconds, stars = [], []
        for seed in range(args.first, args.first + args.seeds):
            started = time.perf_counter()
            proof = proven_win(seed=seed, variant=variant, max_nodes=args.nodes)
            seconds.append(time.perf_counter() - started)
            if proof is not None:
                stars.append(difficulty_for("win", proof[0]))
        print(
            f"{variant}: {len(stars)}/{args.seeds} proven, stars {sorted(stars)};"
            f" s/seed {spread(seconds, '{:.2f}', template='min {} median {} max {}')}"
        )


if __name__ == "__main__":
    main()
