"""Every page that lists people or days costs the same SQL queries however many there are.

Issue 37 measured the period boards at one query per player (100,003 on the all-time board
of 100,000 players). Each page below is rendered on a small site (8 players: enough that
the signed-in player has neighbours above and below on every board) and on one with three
times the players and twice the days, and its query count must not move. A page that
grows fails with both counts and the queries of the larger run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.daily import utc_today
from leaderboards.rating.models import PlayerRating

pytestmark = pytest.mark.django_db


@dataclass
class Site:
    heavy: object  # the player with a result every day
    league_id: int
    first_day: date
    last_day: date


def seed(
    make_result: Callable[..., object],
    make_league: Callable[..., object],
    *,
    players: int,
    days: int,
) -> Site:
    """``players`` players, each with a ranked result on each of the last ``days`` closed
    days (every other one won), all in one league with the heavy player."""
    model = get_user_model()
    today = utc_today(timezone.now())
    heavy = model.objects.create_user(username="heavy", password="correct horse battery")
    others = [model.objects.create_user(username=f"p{n:03d}") for n in range(players - 1)]
    every = [heavy, *others]
    day_list = [today - timedelta(days=offset) for offset in range(days, 0, -1)]
    for index, day in enumerate(day_list):
        for number, player in enumerate(every):
            won = (index + number) % 2 == 0
            make_result(player, day, won=won, score=1000 if won else 200, revealed=True)
    league, _token = make_league(heavy, *others)  # type: ignore[misc]
    # Everyone rated but the last player: the boards' rating column has both kinds of row.
    from leaderboards.rating.services import ratings_apply

    ratings_apply()
    PlayerRating.objects.filter(user=others[-1]).delete()
    return Site(heavy=heavy, league_id=league.pk, first_day=day_list[0], last_day=day_list[-1])


def pages(site: Site) -> dict[str, str]:
    month = site.last_day.strftime("%Y-%m")
    day = site.last_day.isoformat()
    league = f"/leagues/{site.league_id}"
    return {
        "home": "/",
        "daily board": f"/boards/daily/{day}/",
        "daily rows": f"/boards/daily/{day}/rows/",
        "week board": f"/boards/week/?start={day}",
        "week by streak": f"/boards/week/?by=streak&start={day}",
        "month board": f"/boards/month/?start={day}",
        "month by rate": f"/boards/month/?by=rate&start={day}",
        "all-time board": "/boards/all/",
        "all-time by rate": "/boards/all/?by=rate",
        "all-time by streak": "/boards/all/?by=streak",
        "rating board": "/boards/rating/",
        "archive month": f"/archive/{month}/",
        "scorecard": f"/players/{site.heavy.username}/",  # type: ignore[attr-defined]
        "my games": "/games/",
        "league": f"{league}/",
        "league daily": f"{league}/daily/{day}/",
        "league week": f"{league}/week/?by=rate&start={day}",
        "league month": f"{league}/month/?by=streak&start={day}",
        "league all-time": f"{league}/all/",
        "league rating": f"{league}/rating/",
        "leagues": "/leagues/",
    }


def count_queries(client: Client, url: str) -> tuple[int, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(queries), [q["sql"] for q in queries.captured_queries]


def queries_of(client: Client, site: Site) -> dict[str, tuple[int, list[str]]]:
    client.force_login(site.heavy)  # type: ignore[arg-type]
    signed_in = {name: count_queries(client, url) for name, url in pages(site).items()}
    client.logout()
    visitor = {
        f"{name} (visitor)": count_queries(client, url)
        for name, url in pages(site).items()
        if name not in ("my games", "leagues") and not name.startswith("league")
    }
    return {**signed_in, **visitor}


def test_no_page_costs_more_queries_with_more_players_or_days(
    make_result: Callable[..., object], make_league: Callable[..., object]
) -> None:
    small = seed(make_result, make_league, players=8, days=2)
    client = Client()
    # One warm-up pass: the first request of a process caches content types and the like.
    queries_of(client, small)
    few = queries_of(client, small)

    from django.contrib.auth import get_user_model

    from leaderboards.models import Result

    Result.objects.all().delete()
    get_user_model().objects.all().delete()
    large = seed(make_result, make_league, players=24, days=4)
    many = queries_of(client, large)

    grown = {
        name: (few[name][0], many[name][0], many[name][1])
        for name in few
        if many[name][0] > few[name][0]
    }
    assert not grown, "\n\n".join(
        f"{name}: {before} queries with 8 players over 2 days, {after} with 24 over 4:\n"
        + "\n".join(sql[:300] for sql in queries)
        for name, (before, after, queries) in grown.items()
    )


def scale_site(make_league: Callable[..., object], *, players: int, results: int) -> Site:
    """A copy built by ``manage.py seed_scale``'s seeder (a few regulars, most players a few
    days), its busiest player in a league with five others, everyone rated."""
    from django.db.models import Count

    from leaderboards.models import Result
    from leaderboards.rating.services import ratings_rebuild
    from leaderboards.scale import scale_seed

    scale_seed(players=players, days=6, results=results, seed=5, force=True)
    busiest = list(
        Result.objects.values("player_id")
        .annotate(n=Count("id"))
        .order_by("-n", "player_id")
        .values_list("player_id", flat=True)[:6]
    )
    model = get_user_model()
    heavy, *others = sorted(model.objects.filter(pk__in=busiest), key=lambda u: busiest.index(u.pk))
    league, _token = make_league(heavy, *others)  # type: ignore[misc]
    ratings_rebuild()  # the deals are the same days on both sites: rate them all again
    days = sorted(set(Result.objects.values_list("day", flat=True)))
    return Site(heavy=heavy, league_id=league.pk, first_day=days[0], last_day=days[-1])


def test_no_page_costs_more_queries_on_a_seeded_copy_four_times_the_size(
    make_league: Callable[..., object],
) -> None:
    from leaderboards.models import Result

    small = scale_site(make_league, players=40, results=80)
    client = Client()
    queries_of(client, small)  # the warm-up pass
    few = queries_of(client, small)
    Result.objects.all().delete()
    get_user_model().objects.all().delete()
    large = scale_site(make_league, players=160, results=480)
    assert Result.objects.count() > 4 * 80
    many = queries_of(client, large)
    grown = {name: (few[name][0], many[name][0]) for name in few if many[name][0] != few[name][0]}
    assert not grown, "\n".join(
        f"{n}: {a} -> {b}\n"
        + "\n".join(q[:200] for q in few[n][1])
        + "\n---\n"
        + "\n".join(q[:200] for q in many[n][1])
        for n, (a, b) in grown.items()
    )
