"""League pages: members only (404 for anyone else), owner actions (403 for other members),
join on POST only, CSRF and throttles on every form, and clear refusals, never a 500."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.test import Client
from django.urls import reverse

from ftsite.rates import Rate
from games import services as game_services
from games.weekly import week_label, week_monday
from leaderboards.leagues import services
from leaderboards.leagues.models import League, Membership
from tests.support.pages import mentions

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery staple"


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def league_get_urls(league_id: int, day: str) -> list[str]:
    return [
        reverse("leaderboards:league", args=[league_id]),
        reverse("leaderboards:league_daily_today", args=[league_id]),
        reverse("leaderboards:league_daily", args=[league_id, day]),
        reverse("leaderboards:league_daily_rows", args=[league_id, day]),
        reverse("leaderboards:league_week", args=[league_id]),
        reverse("leaderboards:league_month", args=[league_id]),
        reverse("leaderboards:league_all", args=[league_id]),
        reverse("leaderboards:league_compare", args=[league_id]),
        reverse("leaderboards:league_weekly_current", args=[league_id]),
        reverse("leaderboards:league_weekly", args=[league_id, _week_of(day)]),
    ]


def _week_of(day: str) -> str:
    return week_label(week_monday(date.fromisoformat(day)))


def league_post_urls(league_id: int, member_id: int) -> list[str]:
    return [
        reverse("leaderboards:league_leave", args=[league_id]),
        reverse("leaderboards:league_member_remove", args=[league_id, member_id]),
        reverse("leaderboards:league_rotate", args=[league_id]),
        reverse("leaderboards:league_delete", args=[league_id]),
        reverse("leaderboards:league_arena_create", args=[league_id]),
    ]


def test_every_league_page_answers_a_member(user, bob, make_league, now):
    league, _ = make_league(user, bob)
    client = signed_in(bob)
    for url in league_get_urls(league.pk, now.date().isoformat()):
        response = client.get(url)
        assert response.status_code == 200, url
        assert b"<script>" not in response.content and b"style=" not in response.content, url
    day = now.date().isoformat()
    live = signed_in(bob).get(f"/leagues/{league.pk}/daily/{day}/").content.decode()
    assert f'data-socket-path="/ws/leagues/{league.pk}/daily/{day}/"' in live
    assert f'data-rows-url="/leagues/{league.pk}/daily/{day}/rows/"' in live
    assert "data-position-url" not in live


def test_a_non_member_gets_404_on_every_league_page_and_action(user, bob, carol, make_league, now):
    league, _ = make_league(user, bob)
    client = signed_in(carol)
    for url in league_get_urls(league.pk, now.date().isoformat()):
        response = client.get(url)
        assert response.status_code == 404, url
        assert not mentions(response.content, "bob"), url
        assert b"Thursday Club" not in response.content, url
    for url in league_post_urls(league.pk, bob.pk):
        assert client.post(url).status_code == 404, url
    # A league that does not exist answers the same.
    assert client.get(reverse("leaderboards:league", args=[league.pk + 999])).status_code == 404
    assert Membership.objects.filter(league=league).count() == 2


def test_a_visitor_is_sent_to_sign_in(user, make_league):
    league, token = make_league(user)
    for url in (
        reverse("leaderboards:league", args=[league.pk]),
        reverse("leaderboards:league_join", args=[token]),
    ):
        response = Client().get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url


def test_a_member_who_is_not_the_owner_gets_403_on_owner_actions(user, bob, carol, make_league):
    league, _ = make_league(user, bob, carol)
    client = signed_in(bob)
    for url in (
        reverse("leaderboards:league_member_remove", args=[league.pk, carol.pk]),
        reverse("leaderboards:league_rotate", args=[league.pk]),
        reverse("leaderboards:league_delete", args=[league.pk]),
        reverse("leaderboards:league_arena_create", args=[league.pk]),
    ):
        response = client.post(url)
        assert response.status_code == 403, url
        assert b"Only the league&#x27;s owner may do that." in response.content
    assert Membership.objects.filter(league=league).count() == 3


def test_creating_a_league_shows_its_owner_the_invite_link_in_every_session(user, bob):
    client = signed_in(user)
    response = client.post(reverse("leaderboards:league_create"), {"name": "Club"}, follow=True)
    assert response.status_code == 200
    link = re.search(rb'data-testid="invite-link">([^<]+)<', response.content)
    assert link and b"/leagues/join/" in link.group(1)
    # The link is derived, not kept in a session: the owner's other browser shows it too.
    league = League.objects.get()
    page = reverse("leaderboards:league", args=[league.pk])
    again = re.search(rb'data-testid="invite-link">([^<]+)<', signed_in(user).get(page).content)
    assert again and again.group(1) == link.group(1)
    # A member who is not the owner sees no link.
    services.league_join(user=bob, token=link.group(1).decode().rstrip("/").rsplit("/", 1)[1])
    assert b"invite-link" not in signed_in(bob).get(page).content


def test_opening_an_invite_shows_a_join_button_and_only_the_post_joins(user, bob, make_league):
    league, token = make_league(user)
    client = signed_in(bob)
    url = reverse("leaderboards:league_join", args=[token])
    page = client.get(url)
    assert page.status_code == 200 and b"Join the league" in page.content
    # No member list (the page also holds tokens, in which "ada" may well appear).
    assert b"Thursday Club" in page.content and not mentions(page.content, "ada")
    assert not Membership.objects.filter(user=bob).exists()
    response = client.post(url)
    assert response.status_code == 302
    assert response["Location"] == reverse("leaderboards:league", args=[league.pk])
    assert Membership.objects.filter(user=bob, league=league).exists()


def test_a_stale_invite_is_refused_with_a_clear_message(user, bob, make_league):
    league, token = make_league(user)
    signed_in(user).post(reverse("leaderboards:league_rotate", args=[league.pk]))
    client = signed_in(bob)
    url = reverse("leaderboards:league_join", args=[token])
    for response in (client.get(url), client.post(url)):
        assert response.status_code == 404
        assert b"has made a new one" in response.content
    assert not Membership.objects.filter(user=bob).exists()


def test_a_full_league_or_too_many_leagues_is_a_409_naming_the_limit(
    settings, user, bob, carol, make_league
):
    settings.FT_LEAGUE_MEMBERS = 2
    _, token = make_league(user, bob)
    response = signed_in(carol).post(reverse("leaderboards:league_join", args=[token]))
    assert response.status_code == 409 and b"the most a league may have (2)" in response.content
    settings.FT_LEAGUES_PER_PLAYER = 1
    response = signed_in(user).post(reverse("leaderboards:league_create"), {"name": "Two"})
    assert response.status_code == 409 and b"leave one before" in response.content


def test_a_bad_name_is_a_400(user):
    response = signed_in(user).post(reverse("leaderboards:league_create"), {"name": " "})
    assert response.status_code == 400 and b"1 to 60 characters" in response.content


def test_every_league_form_is_throttled(settings, user, make_league):
    settings.FT_RATE_LEAGUE_ACTIONS = Rate.parse("2/h")
    client = signed_in(user)
    url = reverse("leaderboards:league_create")
    assert client.post(url, {"name": "One"}).status_code == 302
    assert client.post(url, {"name": "Two"}).status_code == 302
    response = client.post(url, {"name": "Three"})
    assert response.status_code == 429 and int(response["Retry-After"]) >= 1
    assert b"too many league actions" in response.content
    assert League.objects.count() == 2


def test_every_league_form_needs_the_csrf_token(user, bob, make_league):
    league, token = make_league(user, bob)
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    urls = [
        reverse("leaderboards:league_create"),
        reverse("leaderboards:league_join", args=[token]),
    ]
    for url in urls + league_post_urls(league.pk, bob.pk):
        assert client.post(url, {"name": "x"}).status_code == 403, url
    assert Membership.objects.filter(league=league).count() == 2


def test_leave_remove_and_delete_from_the_pages(user, bob, carol, make_league):
    league, _ = make_league(user, bob, carol)
    assert (
        signed_in(bob).post(reverse("leaderboards:league_leave", args=[league.pk])).status_code
        == 302
    )
    owner = signed_in(user)
    remove = reverse("leaderboards:league_member_remove", args=[league.pk, carol.pk])
    assert owner.post(remove).status_code == 302
    response = owner.post(reverse("leaderboards:league_leave", args=[league.pk]))
    assert response.status_code == 409 and b"delete the league instead" in response.content
    assert owner.post(reverse("leaderboards:league_delete", args=[league.pk])).status_code == 302
    assert not League.objects.exists()


def test_the_compare_page_shows_two_members_side_by_side(user, bob, carol, make_league):
    league, _ = make_league(user, bob)
    url = reverse("leaderboards:league_compare", args=[league.pk])
    response = signed_in(user).get(url, {"a": "ada", "b": "bob"})
    assert response.status_code == 200 and b'data-testid="league-compare"' in response.content
    assert signed_in(user).get(url, {"a": "ada", "b": "carol"}).status_code == 404


def test_the_home_page_lists_the_players_leagues_with_todays_rank(
    user, bob, make_league, make_result, now
):
    make_league(user, bob, name="Alpha")
    make_result(bob, day=now.date(), won=True, score=1000)
    make_result(user, day=now.date(), won=False, score=300)
    response = signed_in(user).get(reverse("home"))
    assert b'data-testid="home-leagues"' in response.content
    assert b"Alpha" in response.content and b"ranked 2 of 2 today" in response.content
    assert b"home-leagues" not in Client().get(reverse("home")).content


def test_a_download_of_my_data_lists_my_league_memberships(user, bob, make_league):
    make_league(user, bob, name="Alpha")
    data = game_services.account_export(user=bob)
    assert [(m["league"], m["owner"]) for m in data["league_memberships"]] == [("Alpha", False)]


def test_a_deleted_owners_league_passes_to_its_oldest_member_else_goes(
    user, bob, carol, make_league
):
    kept, _ = make_league(user, bob, carol, name="Kept")
    make_league(user, name="Alone")
    game_services.account_delete(user=user, password=PASSWORD)
    assert list(League.objects.values_list("name", flat=True)) == ["Kept"]
    kept.refresh_from_db()
    assert kept.owner == bob
    assert set(Membership.objects.values_list("user__username", flat=True)) == {"bob", "carol"}


def test_a_deleted_member_leaves_their_leagues(user, bob, make_league):
    league, _ = make_league(user, bob)
    game_services.account_delete(user=bob, password=PASSWORD)
    assert list(Membership.objects.filter(league=league).values_list("user_id", flat=True)) == [
        user.pk
    ]


def test_a_member_opening_the_invite_again_goes_to_the_league(user, bob, make_league):
    league, token = make_league(user, bob)
    response = signed_in(bob).get(reverse("leaderboards:league_join", args=[token]))
    assert response.status_code == 302
    assert response["Location"] == reverse("leaderboards:league", args=[league.pk])


@pytest.fixture
def back_to_the_default_language():
    """The locale middleware leaves the last request's language active in this thread:
    later tests in the process must not read the services' reasons in Italian."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.mark.usefixtures("back_to_the_default_language")
def test_the_league_pages_speak_italian(user, bob, make_league):
    league, _ = make_league(user, bob)
    client = signed_in(bob)
    client.cookies["django_language"] = "it"
    page = client.get(reverse("leaderboards:league", args=[league.pk])).content.decode()
    assert "Membri" in page and "Lascia la lega" in page
    index = client.get(reverse("leaderboards:leagues")).content.decode()
    assert "Le tue leghe" in index and "Crea una lega" in index


def test_opening_invite_links_is_throttled_apart_from_joining(settings, user, bob, make_league):
    settings.FT_RATE_LEAGUE_ACTIONS = Rate.parse("2/h")
    league, token = make_league(user)
    client = signed_in(bob)
    url = reverse("leaderboards:league_join", args=[token])
    assert client.get(url).status_code == 200
    assert client.get(reverse("leaderboards:league_join", args=["guess" * 9])).status_code == 404
    refused = client.get(url)
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    # The join itself has its own count: opening the link twice did not use it up.
    assert client.post(url).status_code == 302
    assert Membership.objects.filter(league=league, user=bob).exists()


def test_the_league_admin_lists_and_deletes_but_never_shows_or_edits_an_invite(
    user, bob, make_league
) -> None:
    league, token = make_league(user, bob, name="Rude name")
    staff = signed_in(type(user).objects.create_superuser(username="root", password=PASSWORD))

    listing = staff.get("/admin/leaderboards/league/", {"q": "rude"})
    assert listing.status_code == 200 and listing.context["cl"].result_count == 1
    assert '<td class="field-members">2</td>' in listing.content.decode()
    page = staff.get(f"/admin/leaderboards/league/{league.pk}/change/").content.decode()
    assert "bob" in page and league.invite_nonce not in page and token not in page
    assert staff.get("/admin/leaderboards/league/add/").status_code == 403
    staff.post(f"/admin/leaderboards/league/{league.pk}/change/", {"name": "Renamed"})
    league.refresh_from_db()
    assert league.name == "Rude name"

    staff.post(f"/admin/leaderboards/league/{league.pk}/delete/", {"post": "yes"})
    assert not League.objects.filter(pk=league.pk).exists()
    assert not Membership.objects.filter(league_id=league.pk).exists()


def test_the_weekly_challenge_board_redirects_other_spellings_and_refuses_future_weeks(
    user, bob, make_league, now
):
    league, _ = make_league(user, bob)
    client = signed_in(bob)
    monday = week_monday(now.date())
    label = week_label(monday)
    page = client.get(reverse("leaderboards:league_weekly_current", args=[league.pk]))
    html = page.content.decode()
    assert label in html and f'href="/boards/weekly/{label}/"' in html
    assert 'aria-current="page">Weekly challenge' in html
    other = client.get(f"/leagues/{league.pk}/weekly/{(monday + timedelta(days=2)).isoformat()}/")
    assert other.status_code == 302 and other.url == f"/leagues/{league.pk}/weekly/{label}/"
    later = week_label(monday + timedelta(days=7))
    for bad in (later, "2026-W60", "next-week"):
        assert client.get(f"/leagues/{league.pk}/weekly/{bad}/").status_code == 404, bad
