"""A league's own arenas: its owner makes one from the league's page within the bounds
(docs/arenas.md, "A league's arenas"), its members only see and enter it, the league's
page lists it and the arena's page names the league; every refusal is its documented code
(docs/protocol.md, "The arena pages"), never a 500."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ftsite.rates import Rate
from games import services
from games.arenas.models import Arena, ArenaEntry, ArenaPlay
from games.errors import Forbidden, NotFound
from leaderboards.leagues import services as league_services
from leaderboards.leagues.errors import ArenaBounds, TooManyArenas

pytestmark = pytest.mark.django_db

FORM = "leaderboards:league_arena_create"


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def fields(start: datetime, **changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "starts_at": start.strftime("%Y-%m-%dT%H:%M"),
        "minutes": 30,
        "round_minutes": 5,
        "variant": "forty-thieves",
    }
    return {**data, **changes}


def soon() -> datetime:
    return timezone.now().replace(second=0, microsecond=0) + timedelta(minutes=10)


def make(owner, league, start: datetime | None = None, **changes: object) -> Arena:
    data = {"minutes": 30, "round_minutes": 5, "variant": "forty-thieves", **changes}
    return league_services.league_arena_create(
        user=owner,
        league_id=league.pk,
        starts_at=start or soon(),
        **data,  # type: ignore[arg-type]
    )


def test_the_owner_makes_an_arena_from_the_league_page(user, bob, make_league, wall_clock):
    league, _ = make_league(user, bob)
    page = client_of(user).get(reverse("leaderboards:league", args=[league.pk])).content.decode()
    assert 'data-testid="league-arena-form"' in page and "csrfmiddlewaretoken" in page
    start = soon()
    made = client_of(user).post(reverse(FORM, args=[league.pk]), fields(start))
    arena = Arena.objects.get()
    assert made.status_code == 302 and made["Location"] == reverse("arena", args=[arena.pk])
    assert (arena.league_id, arena.created_by_id, arena.starts_at) == (league.pk, user.pk, start)
    assert arena.round_count == 6
    # The league's page lists it for every member; the arena's page names the league.
    listed = client_of(bob).get(reverse("leaderboards:league", args=[league.pk])).content.decode()
    upcoming = listed.split('data-testid="league-arenas-upcoming"')[1].split("</ul>")[0]
    assert reverse("arena", args=[arena.pk]) in upcoming
    assert 'data-testid="league-arena-form"' not in listed  # the owner's only
    shown = client_of(bob).get(reverse("arena", args=[arena.pk])).content.decode()
    named = shown.split('data-testid="arena-league"')[1].split("</p>")[0]
    assert "Thursday Club" in named and reverse("leaderboards:league", args=[league.pk]) in named


def test_a_league_arena_is_not_on_the_site_list_and_hidden_from_non_members(
    user, bob, carol, make_league, wall_clock
):
    league, _ = make_league(user, bob)
    arena = make(user, league)
    site = services.arena_create(starts_at=soon(), minutes=15, round_minutes=5)
    listing = Client().get(reverse("arenas")).content.decode()
    assert reverse("arena", args=[site.pk]) in listing
    assert reverse("arena", args=[arena.pk]) not in listing
    for client in (client_of(carol), Client()):
        page = client.get(reverse("arena", args=[arena.pk]))
        assert page.status_code == 404
        assert b"Thursday Club" not in page.content and b"bob" not in page.content


def test_it_refuses_a_non_member_entering_a_league_arena(user, bob, carol, make_league, wall_clock):
    league, _ = make_league(user, bob)
    arena = make(user, league)
    refused = client_of(carol).post(reverse("arena_join", args=[arena.pk]))
    assert refused.status_code == 404 and b"There is no such arena." in refused.content
    with pytest.raises(NotFound):
        services.arena_join(user=carol, arena_id=arena.pk)
    services.arena_join(user=bob, arena_id=arena.pk)
    assert list(ArenaEntry.objects.values_list("player__username", flat=True)) == ["bob"]


def test_it_refuses_a_member_who_is_not_the_owner(user, bob, make_league, wall_clock):
    league, _ = make_league(user, bob)
    page = client_of(bob).post(reverse(FORM, args=[league.pk]), fields(soon()))
    assert page.status_code == 403 and b"Only the league&#x27;s owner may do that." in page.content
    with pytest.raises(Forbidden):
        make(bob, league)
    assert not Arena.objects.exists()


def test_it_refuses_a_non_member_making_an_arena(user, carol, make_league, wall_clock):
    league, _ = make_league(user)
    assert client_of(carol).post(reverse(FORM, args=[league.pk]), fields(soon())).status_code == 404
    assert Client().post(reverse(FORM, args=[league.pk]), fields(soon())).status_code == 302
    assert not Arena.objects.exists()


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"starts_at": "SOON"}, "from 2 minutes to 14 days from now"),
        ({"starts_at": "FAR"}, "from 2 minutes to 14 days from now"),
        ({"starts_at": "yesterday at noon"}, "such as 2026-12-24T18:00"),
        ({"starts_at": ""}, "Give the start"),
        ({"minutes": 200}, "less than or equal to 180"),
        ({"minutes": 12, "round_minutes": 10}, "at least two rounds"),
        ({"round_minutes": 2}, "greater than or equal to 3"),
        ({"minutes": "forty"}, "Enter a whole number"),
        ({"variant": "chess"}, "Choose one of the variants offered"),
    ],
)
def test_it_refuses_an_arena_out_of_bounds_with_a_clear_error(
    user, make_league, wall_clock, changes, expected
):
    league, _ = make_league(user)
    now = timezone.now().replace(second=0, microsecond=0)
    when = {"SOON": now + timedelta(minutes=1), "FAR": now + timedelta(days=15)}
    data = fields(soon(), **changes)
    if data["starts_at"] in when:
        data["starts_at"] = when[str(data["starts_at"])].strftime("%Y-%m-%dT%H:%M")
    page = client_of(user).post(reverse(FORM, args=[league.pk]), data)
    assert page.status_code == 400
    assert expected in page.content.decode()
    assert 'data-testid="league-arena-form"' in page.content.decode()
    assert not Arena.objects.exists()


def test_the_service_refuses_bounds_by_their_code(user, make_league, wall_clock):
    league, _ = make_league(user)
    with pytest.raises(ArenaBounds) as refused:
        make(user, league, start=timezone.now() - timedelta(hours=1))
    assert refused.value.code == "arena_bounds" and refused.value.status == 400
    with pytest.raises(ArenaBounds):
        make(user, league, variant="forty-thieves/9")


def test_it_refuses_more_open_arenas_than_the_limit(user, make_league, settings, wall_clock):
    settings.FT_LEAGUE_ARENAS_OPEN = 2
    league, _ = make_league(user)
    make(user, league)
    make(user, league, start=soon() + timedelta(hours=1))
    with pytest.raises(TooManyArenas) as refused:
        make(user, league, start=soon() + timedelta(hours=2))
    assert refused.value.code == "too_many_arenas" and refused.value.status == 409
    page = client_of(user).post(reverse(FORM, args=[league.pk]), fields(soon()))
    assert page.status_code == 409 and b"not yet finished, the most it may have" in page.content
    # A finished arena no longer counts.
    Arena.objects.filter(pk=Arena.objects.order_by("pk").first().pk).update(
        finished_at=timezone.now()
    )
    make(user, league, start=soon() + timedelta(hours=3))
    assert Arena.objects.filter(league_id=league.pk).count() == 3


def test_it_throttles_a_league_making_arenas(user, make_league, settings, wall_clock):
    settings.FT_RATE_LEAGUE_ARENAS = Rate(2, 86400)
    settings.FT_LEAGUE_ARENAS_OPEN = 10
    league, _ = make_league(user)
    client = client_of(user)
    for hour in (1, 2):
        start = soon() + timedelta(hours=hour)
        assert client.post(reverse(FORM, args=[league.pk]), fields(start)).status_code == 302
    refused = client.post(reverse(FORM, args=[league.pk]), fields(soon()))
    assert refused.status_code == 429 and refused.has_header("Retry-After")
    assert Arena.objects.count() == 2


def test_an_entrant_who_left_the_league_gets_no_more_rounds(
    user, bob, carol, make_league, wall_clock
):
    league, _ = make_league(user, bob, carol)
    arena = make(user, league, start=soon())
    for player in (user, bob, carol):
        services.arena_join(user=player, arena_id=arena.pk)
    league_services.league_member_remove(user=user, league_id=league.pk, member_id=carol.pk)
    wall_clock.move_to(arena.starts_at)
    services.arena_round_open(arena=arena, number=1)
    players = set(ArenaPlay.objects.values_list("entry__player__username", flat=True))
    assert players == {"ada", "bob"}
    assert ArenaEntry.objects.get(player=carol).left_at is not None
    with pytest.raises(NotFound):
        services.arena_join(user=carol, arena_id=arena.pk)


def test_the_arena_of_a_deleted_league_is_gone_for_everyone(user, bob, make_league, wall_clock):
    league, _ = make_league(user, bob)
    arena = make(user, league)
    league_services.league_delete(user=user, league_id=league.pk)
    assert client_of(user).get(reverse("arena", args=[arena.pk])).status_code == 404
    with pytest.raises(NotFound):
        services.arena_join(user=bob, arena_id=arena.pk)


def test_the_form_reads_the_start_as_utc(user, make_league, wall_clock):
    league, _ = make_league(user)
    start = soon() + timedelta(hours=2)
    client_of(user).post(reverse(FORM, args=[league.pk]), fields(start))
    assert Arena.objects.get().starts_at == start.astimezone(UTC)
