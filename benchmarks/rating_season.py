"""The skill rating over a simulated season, and the cost of one day's update.

    .venv/bin/python benchmarks/rating_season.py                  # the season, 3 seeds
    .venv/bin/python benchmarks/rating_season.py --timing         # + one day of 100,000
    .venv/bin/python benchmarks/rating_season.py --timing --db    # + the writes on SQLite

**The season** (issue 40, part A): ``--players`` players of known skill (true skill ~
N(0, 1)), ``--days`` daily deals; each day a random 30-70 % of the players play (a share
drawn per day, the players drawn at random: people skip days). Skill is fixed unless
``--drift D``: then every skill takes a random step ~ N(0, D) each day. A day's performance is the
skill plus noise ~ N(0, ``--noise``); the result is the cards sent home, the performance
scaled to 0-104 and rounded (104: won, about one game in seven), so equal results, and so
shared places, are common (the board ties equal results). Each day is rated with the
site's own :func:`leaderboards.rating.maths.rate_match`, places as the board gives them.

Measured over days 10 to ``--days``: how well each predictor made after day t orders day
t+1's players (**pairwise accuracy**: of the pairs with different results, the share the
predictor put in the right order, a tie of the predictor counting one half; players new
on day t+1 are left out, none of the predictors knows them):

* the rating's ordinal (mu - sigma, what the board sorts by), its mu, and mu - 3 sigma
  (openskill's ordinal, the board's order before);
* **win rate** to date (the period boards' "Win rate");
* **mean percentile** to date (the share of the day's field a player finished ahead of,
  ties counting half, averaged over their days).

* **true skill**, the ceiling: what a predictor that knew the skill would reach (the
  day's noise keeps it well below 1).

And at the end, **Spearman** of each with the true skill over the players with 10+ days.

**The timing**: one day of ``--field`` results (100,000) rated on one core: the maths
(``rate_match`` alone) and, with ``--db``, the database's part too on SQLite: the rating
pass's ``_apply`` (read the players' ratings, the maths, upsert ``PlayerRating``, insert
``RatingHistory``), a first day (every player new) and then repeats on later deals
(every player rated). Not included: reading the deal's standings (``deal_standings``), a
query of the board the day files and boards already make.
"""

from __future__ import annotations

import argparse
import bisect
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.stats import spread  # noqa: E402
from leaderboards.rating.maths import Rating, rate_match  # noqa: E402 (pure Python)

CARDS = 104


def places_of(scores: list[int]) -> list[int]:
    """Competition places of scores already sorted best first (1, 1, 3)."""
    places: list[int] = []
    for i, s in enumerate(scores):
        places.append(places[-1] if i and s == scores[i - 1] else i + 1)
    return places


def concordance(outcome: list[float], predictor: list[float]) -> tuple[float, int]:
    """(concordant + half the predictor's ties, pairs) over the pairs with different
    outcomes: O(n log n) with a Fenwick tree over the predictor's ranks."""
    values = sorted(set(predictor))
    index = {v: i + 1 for i, v in enumerate(values)}
    tree = [0] * (len(values) + 1)

    def add(i: int) -> None:
        while i < len(tree):
            tree[i] += 1
            i += i & -i

    def below(i: int) -> int:  # how many inserted with rank <= i
        total = 0
        while i > 0:
            total += tree[i]
            i -= i & -i
        return total

    order = sorted(range(len(outcome)), key=lambda k: outcome[k])
    good = 0.0
    pairs = inserted = 0
    start = 0
    while start < len(order):
        end = start
        while end < len(order) and outcome[order[end]] == outcome[order[start]]:
            end += 1
        for k in order[start:end]:  # each against everyone with a strictly worse outcome
            r = index[predictor[k]]
            lower, up_to = below(r - 1), below(r)
            good += lower + 0.5 * (up_to - lower)
            pairs += inserted
        for k in order[start:end]:
            add(index[predictor[k]])
        inserted += end - start
        start = end
    return good, pairs


def spearman(a: list[float], b: list[float]) -> float:
    def ranks(xs: list[float]) -> list[float]:
        order = sorted(range(len(xs)), key=lambda k: xs[k])
        out = [0.0] * len(xs)
        i = 0
        while i < len(order):
            j = i
            while j < len(order) and xs[order[j]] == xs[order[i]]:
                j += 1
            for k in order[i:j]:
                out[k] = (i + j - 1) / 2
            i = j
        return out

    return statistics.correlation(ranks(a), ranks(b))


def rate_day(
    ratings: list[Rating], places: list[int], *, split: int, rng: random.Random
) -> list[Rating]:
    """The site's update (``split`` 0: the day as one match); ``split`` k, the investigation:
    the day's field dealt at random into matches of about k players, each rated alone (the
    places within a match keep the day's order and ties)."""
    if not split or len(ratings) <= split:
        return rate_match(ratings, places)
    groups = max(1, round(len(ratings) / split))
    label = [rng.randrange(groups) for _ in ratings]
    after = list(ratings)
    for g in range(groups):
        members = [i for i, x in enumerate(label) if x == g]
        if len(members) < 2:
            continue
        sub = [places[i] for i in members]
        sub_places = places_of([-p for p in sub])  # the day's order, ties kept
        for i, r in zip(
            members, rate_match([ratings[i] for i in members], sub_places), strict=True
        ):
            after[i] = r
    return after


def season(
    *,
    players: int,
    days: int,
    noise: float,
    seed: int,
    first: int,
    split: int = 0,
    drift: float = 0,
) -> dict:
    rng = random.Random(seed)
    walk = random.Random(seed + 1_000_003)  # its own draws: --drift 0 leaves the season as it was
    skill = [rng.gauss(0.0, 1.0) for _ in range(players)]
    rating = [Rating() for _ in range(players)]
    games = [0] * players
    wins = [0] * players
    pct_sum = [0.0] * players
    names = ("ordinal", "mu", "mu - 3 sigma", "win rate", "mean percentile", "true skill")
    good = dict.fromkeys(names, 0.0)
    pairs = dict.fromkeys(names, 0)
    ties = total = 0
    for day in range(1, days + 1):
        if drift and day > 1:  # skills move a little every day, played or not
            skill = [s + walk.gauss(0.0, drift) for s in skill]
        share = rng.uniform(0.3, 0.7)
        field = rng.sample(range(players), round(share * players))
        cards = {
            p: max(0, min(CARDS, round(60 + 30 * (skill[p] + rng.gauss(0.0, noise)))))
            for p in field
        }
        if day > first:  # predict today's order from the state after yesterday
            known = [p for p in field if games[p]]
            outcome = [float(cards[p]) for p in known]
            predictors = {
                "ordinal": [rating[p].ordinal for p in known],
                "mu": [rating[p].mu for p in known],
                "mu - 3 sigma": [rating[p].mu - 3 * rating[p].sigma for p in known],
                "win rate": [wins[p] / games[p] for p in known],
                "mean percentile": [pct_sum[p] / games[p] for p in known],
                "true skill": [skill[p] for p in known],
            }
            for name, values in predictors.items():
                g, n = concordance(outcome, values)
                good[name] += g
                pairs[name] += n
        ordered = sorted(field, key=lambda p: -cards[p])
        scores = [cards[p] for p in ordered]
        places = places_of(scores)
        after = rate_day([rating[p] for p in ordered], places, split=split, rng=rng)
        n = len(ordered)
        ascending = sorted(scores)
        for p, r in zip(ordered, after, strict=True):
            rating[p] = r
            games[p] += 1
            wins[p] += cards[p] == CARDS
            below = bisect.bisect_left(ascending, cards[p])
            equal = bisect.bisect_right(ascending, cards[p]) - below
            pct_sum[p] += (below + 0.5 * (equal - 1)) / (n - 1)
        ties += n - len(set(scores))
        total += n
    settled = [p for p in range(players) if games[p] >= 10]
    truth = [skill[p] for p in settled]
    final = {
        "ordinal": [rating[p].ordinal for p in settled],
        "mu": [rating[p].mu for p in settled],
        "mu - 3 sigma": [rating[p].mu - 3 * rating[p].sigma for p in settled],
        "win rate": [wins[p] / games[p] for p in settled],
        "mean percentile": [pct_sum[p] / games[p] for p in settled],
        "true skill": truth,
    }
    return {
        "accuracy": {k: good[k] / pairs[k] for k in names},
        "spearman": {k: spearman(v, truth) for k, v in final.items()},
        "settled": len(settled),
        "tied share": ties / total,
        "win share": sum(wins) / sum(games),
        "sigma median": statistics.median(rating[p].sigma for p in settled),
    }


def time_maths(*, field: int, repeats: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    before = [Rating(rng.gauss(25, 3), rng.uniform(1.5, 8.3)) for _ in range(field)]
    scores = sorted((rng.randint(0, CARDS) for _ in range(field)), reverse=True)
    places = places_of(scores)
    times = []
    for _ in range(repeats):
        start = time.process_time()
        rate_match(before, places)
        times.append(time.process_time() - start)
    return times


def time_db(*, field: int, repeats: int, seed: int) -> tuple[float, list[float]]:
    """(the first day's seconds, the later days'): ``_apply`` on SQLite."""
    path = Path(os.environ.get("BENCH_SQLITE", "/tmp/rating_season_bench.sqlite3"))
    path.unlink(missing_ok=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ftsite.settings")
    # The embedded configuration's defaults (its secrets are for local use only).
    os.environ["DJANGO_DEBUG"] = "true"
    import django

    django.setup()
    from datetime import date, timedelta

    from django.core.management import call_command
    from django.db import reset_queries, transaction

    from games import services as game_services
    from games.models import User
    from leaderboards.rating.models import RatedMatch
    from leaderboards.rating.services import _apply

    call_command("migrate", verbosity=0)
    users = User.objects.bulk_create(
        (User(username=f"bench{k:06d}") for k in range(field)), batch_size=5000
    )
    ids = [u.pk for u in users]
    rng = random.Random(seed)
    wall: list[float] = []
    for k in range(repeats + 1):
        deal = game_services.deal_open_daily(day=date(2026, 1, 1) + timedelta(days=k))
        assert deal.closes_at is not None
        rng.shuffle(ids)
        scores = sorted((rng.randint(0, CARDS) for _ in ids), reverse=True)
        places = places_of(scores)
        start = time.perf_counter()
        with transaction.atomic():
            match = RatedMatch.objects.create(deal=deal, closes_at=deal.closes_at, players=field)
            _apply(match, list(ids), places)
        wall.append(time.perf_counter() - start)
        reset_queries()  # DEBUG keeps every query's text
    path.unlink(missing_ok=True)
    return wall[0], wall[1:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--days", type=int, default=90)
    parser.add_argument("--noise", type=float, default=1.0)
    parser.add_argument("--first", type=int, default=10, help="predict from day FIRST+1 on")
    parser.add_argument(
        "--drift", type=float, default=0.0, help="skill random walk: each day's step sd"
    )
    parser.add_argument("--seeds", type=int, default=3, help="seasons (repeats)")
    parser.add_argument(
        "--first-seed", type=int, default=1, help="seeds FIRST-SEED.. (tuning: 101)"
    )
    parser.add_argument(
        "--split", type=int, default=0, help="investigation: rate each day as matches of ~K"
    )
    parser.add_argument("--timing", action="store_true")
    parser.add_argument("--db", action="store_true", help="with --timing: the writes on SQLite")
    parser.add_argument("--field", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    runs = [
        season(
            players=args.players,
            days=args.days,
            noise=args.noise,
            seed=s,
            first=args.first,
            split=args.split,
            drift=args.drift,
        )
        for s in range(args.first_seed, args.first_seed + args.seeds)
    ]
    print(
        f"season: {args.players} players, {args.days} days, noise {args.noise}, "
        f"drift {args.drift}, "
        f"seeds {args.first_seed}-{args.first_seed + args.seeds - 1}, "
        f"split {args.split or 'none'}; min / median / max over the seeds"
    )
    for what in ("tied share", "win share", "settled", "sigma median"):
        print(f"  {what:>26}: {spread([r[what] for r in runs])}")
    for name in runs[0]["accuracy"]:
        acc = spread([r["accuracy"][name] for r in runs], "{:.4f}")
        rho = spread([r["spearman"][name] for r in runs])
        print(f"  {name:>16}: pairwise accuracy day t+1 {acc}   Spearman (10+ days) {rho}")
    for name in ("ordinal", "mu"):  # paired, seed by seed: the margin over the better baseline
        margin = [
            r["accuracy"][name] - max(r["accuracy"]["win rate"], r["accuracy"]["mean percentile"])
            for r in runs
        ]
        print(f"  {name:>16} minus the better baseline, same season: {spread(margin, '{:.5f}')}")
    if args.timing:
        maths = time_maths(field=args.field, repeats=args.repeats, seed=1)
        print(f"one day of {args.field:,}: maths (CPU s) {spread(maths)}")
        if args.db:
            first, later = time_db(field=args.field, repeats=args.repeats, seed=1)
            print(
                f"  with the writes on SQLite (wall s): first day {first:.2f},"
                f" later {spread(later)}"
            )


if __name__ == "__main__":
    main()
