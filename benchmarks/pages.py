"""The read path at scale (issue 37): each board, league board, scorecard and archive page
timed as one request, with its query count and the EXPLAIN of every query it sent.

    createdb -h 127.0.0.1 -U postgres ft_scale
    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/ft_scale DJANGO_DEBUG=1
    .venv/bin/python manage.py migrate
    .venv/bin/python manage.py seed_scale --players 100000 --days 365 --results 1000000
    .venv/bin/python manage.py rebuild_ratings        # the rating board and rating column
    .venv/bin/python benchmarks/pages.py --repeats 7
    dropdb -h 127.0.0.1 -U postgres ft_scale

Django's test ``Client`` against ``DATABASE_URL`` (a seeded copy, never production: the
script adds one league of the busiest players). Per page: min / median / max wall time of
``--repeats`` requests after one warm-up, the queries of one request, the slowest query's
time, and a flag when any query's plan scans a big table sequentially (``--plans`` prints
the slowest plan of every page, ``--queries`` every query's time). ``--only`` picks pages
by name; ``--json`` writes the
figures to a file as well.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ftsite.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.db.models import Count  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from games.models import Deal, User  # noqa: E402
from leaderboards.leagues.models import League, Membership  # noqa: E402
from leaderboards.leagues.services import league_create  # noqa: E402
from leaderboards.models import PlayerRating, Result  # noqa: E402

LEAGUE_NAME = "Benchmark league"
LEAGUE_SIZE = 30
# A sequential scan of one of these is a page that grows with the site.
BIG_TABLES = (
    "leaderboards_result",
    "leaderboards_periodstanding",
    "leaderboards_ratinghistory",
    "leaderboards_playerrating",
    "games_game",
    "games_user",
    "games_action",
)


def _league(players: list[User]) -> League:
    league = League.objects.filter(name=LEAGUE_NAME).first()
    if league is None:
        league = league_create(user=players[0], name=LEAGUE_NAME)
        Membership.objects.bulk_create(
            [Membership(league=league, user=p) for p in players[1:LEAGUE_SIZE]],
            ignore_conflicts=True,
        )
    return league


def pages() -> list[tuple[str, str, User]]:
    """(name, path, viewer) of every page measured: the heavy player views them, and a
    player in the middle of the rating board views it too (the count of those above)."""
    heavy_ids = list(
        Result.objects.values("player_id")
        .annotate(n=Count("id"))
        .order_by("-n", "player_id")
        .values_list("player_id", flat=True)[:LEAGUE_SIZE]
    )
    heavy = sorted(User.objects.filter(pk__in=heavy_ids), key=lambda u: heavy_ids.index(u.pk))
    league = _league(heavy)
    heavy[0] = league.owner  # the viewer: a member of the league (its owner) on any rerun
    last = Deal.objects.filter(kind=Deal.Kind.DAILY).order_by("-day").values_list("day", flat=True)
    day = last.first()
    assert day is not None, "seed the database first (manage.py seed_scale)"
    out = [
        (f"{kind} by {by}", f"/boards/{kind}/?by={by}&start={day.isoformat()}")
        for kind in ("week", "month", "all")
        for by in ("wins", "rate", "streak")
    ]
    out += [
        ("league week by rate", f"/leagues/{league.pk}/week/?by=rate&start={day}"),
        ("league month by streak", f"/leagues/{league.pk}/month/?by=streak&start={day}"),
        ("league all by wins", f"/leagues/{league.pk}/all/?by=wins"),
        ("scorecard, heavy player", f"/players/{heavy[0].username}/"),
        ("archive month", f"/archive/{day:%Y-%m}/"),
        ("rating board", "/boards/rating/"),
        ("daily board", f"/boards/daily/{day.isoformat()}/"),
    ]
    rated = PlayerRating.objects.order_by("-ordinal").values_list("user_id", flat=True)
    middle = rated[rated.count() // 2] if rated.exists() else heavy[0].pk
    viewed = [(name, path, heavy[0]) for name, path in out]
    viewed.append(("rating board, mid-table viewer", "/boards/rating/", User(pk=middle)))
    return viewed


def explain(sql: str, params: object) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {sql}", params)
        return "\n".join(row[0] for row in cursor.fetchall())


@dataclass
class Measured:
    times: list[float]
    queries: int
    slowest_ms: float
    slowest_plan: str
    seq_scans: list[str]  # big tables some query of the page scans sequentially
    each: list[tuple[float, str]]  # every query's time (ms) and SQL, in order


def measure(client: Client, path: str, repeats: int) -> Measured:
    client.get(path)  # warm-up: the first request of a path fills the process's caches
    captured: list[tuple[str, object, float]] = []

    def record(execute, sql, params, many, context):  # noqa: ANN001, ANN202 - Django's hook
        began = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            captured.append((sql, params, (time.perf_counter() - began) * 1000))

    with connection.execute_wrapper(record):
        response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    plans = [(ms, explain(sql, params)) for sql, params, ms in captured if _is_select(sql)]
    seq = sorted({t for _, plan in plans for t in BIG_TABLES if f"Seq Scan on {t}" in plan})
    slowest_ms, slowest_plan = max(plans, default=(0.0, ""), key=lambda pair: pair[0])
    times = []
    for _ in range(repeats):
        reset_queries()
        began = time.perf_counter()
        client.get(path)
        times.append((time.perf_counter() - began) * 1000)
    each = [(ms, sql) for sql, _, ms in captured]
    return Measured(times, len(captured), slowest_ms, slowest_plan, seq, each)


def _is_select(sql: str) -> bool:
    return sql.lstrip().upper().startswith(("SELECT", "WITH"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", nargs="*", default=None, help="page names containing these")
    parser.add_argument("--plans", action="store_true", help="print every slowest plan")
    parser.add_argument("--json", default="", help="also write the figures to this file")
    parser.add_argument("--queries", action="store_true", help="print every query's time")
    args = parser.parse_args()
    if "postgresql" not in settings.DATABASES["default"]["ENGINE"]:  # pooled or not
        sys.exit("set DATABASE_URL to a seeded PostgreSQL copy (see the docstring)")
    setup_test_environment()
    settings.ALLOWED_HOSTS = ["testserver"]
    found = pages()
    clients: dict[int, Client] = {}
    results = Result.objects.count()
    print(f"{User.objects.count()} players, {results} results; {args.repeats} repeats")
    print(f"{'page':28} {'min':>9} {'median':>9} {'max':>9} {'queries':>8}  slowest query")
    figures = {}
    for name, path, viewer in found:
        if args.only and not any(word in name for word in args.only):
            continue
        if viewer.pk not in clients:
            clients[viewer.pk] = Client()
            clients[viewer.pk].force_login(User.objects.get(pk=viewer.pk))
        m = measure(clients[viewer.pk], path, args.repeats)
        seq = f" SEQ SCAN of {', '.join(m.seq_scans)}" if m.seq_scans else ""
        print(
            f"{name:28} {min(m.times):8.1f}ms {statistics.median(m.times):8.1f}ms "
            f"{max(m.times):8.1f}ms {m.queries:8d}  {m.slowest_ms:.1f} ms{seq}"
        )
        if args.plans or seq:
            print("\n".join("    " + line for line in m.slowest_plan.splitlines()[:14]))
        if args.queries:
            print("\n".join(f"    {ms:7.2f} ms  {sql[:110]}" for ms, sql in m.each))
        figures[name] = {
            "path": path,
            "min_ms": round(min(m.times), 1),
            "median_ms": round(statistics.median(m.times), 1),
            "max_ms": round(max(m.times), 1),
            "queries": m.queries,
            "seq_scans": m.seq_scans,
        }
    if args.json:
        Path(args.json).write_text(json.dumps({"results": results, "pages": figures}, indent=1))


if __name__ == "__main__":
    main()
