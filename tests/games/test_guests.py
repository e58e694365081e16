"""Guests: practice and the archive without an account, kept by signing up; ranked play,
leagues, API tokens and the account pages need an account; guests are throttled per
address and device, left out of fair play's links, and purged when idle."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ftsite.rates import Rate
from games import services
from games.access import AccountRequired, is_guest
from games.models import Game, Sighting, User
from games.selectors import accounts_linked_to
from games.services import guest_create
from games.services.guests import NotAGuest
from tests.support.games import game_play

from .conftest import closed_daily_deal

pytestmark = pytest.mark.django_db

CODE = "FT1-N-0000007"
PASSWORD = "correct horse battery staple"


def start_as_visitor(client: Client, code: str = CODE) -> Game:
    response = client.post(reverse("practice"), {"action": "code", "code": code})
    assert response.status_code == 302, response.content.decode()[:500]
    return Game.objects.get(pk=response["Location"].split("/")[2])


def sign_up(client: Client, username: str = "grace") -> object:
    return client.post(
        reverse("signup"),
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
    )


def test_a_visitor_practises_as_a_guest_without_an_account() -> None:
    client = Client()
    game = start_as_visitor(client)
    guest = game.player
    assert guest.is_guest and not guest.has_usable_password() and guest.email == ""
    assert guest.public_name == "Guest"  # the generated username is never shown
    page = client.get(f"/games/{game.pk}/")
    assert page.status_code == 200 and b'data-role="player"' in page.content
    assert guest.username.encode() not in page.content
    # The same session plays on: a second start is the same guest, not a new one.
    assert start_as_visitor(client, "FT1-N-0000008").player == guest
    assert User.objects.filter(is_guest=True).count() == 1


def test_a_guest_plays_moves_through_the_play_service() -> None:
    game = start_as_visitor(Client())
    result = game_play(user=game.player, game_id=str(game.pk), move="s")
    assert result.version == 1


def test_a_visitor_starts_an_archive_game_as_a_guest() -> None:
    deal = closed_daily_deal(date(2026, 11, 2))
    client = Client()
    response = client.post(f"/play/archive/{deal.day.isoformat()}/")
    game = Game.objects.get(mode=Game.Mode.ARCHIVE)
    assert response["Location"] == f"/games/{game.pk}/" and game.player.is_guest


def test_a_bad_archive_day_makes_no_guest() -> None:
    Client().post("/play/archive/2026-13-01/")
    assert not User.objects.exists()


def test_signing_up_keeps_the_guests_games_in_the_same_row() -> None:
    client = Client()
    game = start_as_visitor(client)
    guest_id = game.player_id
    response = sign_up(client)
    assert response.status_code == 302
    account = User.objects.get(username="grace")
    assert account.pk == guest_id and not account.is_guest and account.check_password(PASSWORD)
    assert list(account.games.all()) == [game]
    mine = client.get(reverse("my_games"))
    assert str(game.pk).encode() in mine.content
    assert not User.objects.filter(is_guest=True).exists()


def test_a_guest_converted_once_is_refused_a_second_conversion() -> None:
    guest = guest_create(address="198.51.100.7", device=None)
    services.guest_convert(user=guest, username="lin", display_name="", password=PASSWORD)
    with pytest.raises(NotAGuest) as refused:
        services.guest_convert(user=guest, username="lin2", display_name="", password=PASSWORD)
    assert refused.value.code == "not_a_guest"


def test_a_sign_up_taking_a_used_name_leaves_the_guest_a_guest(user: User) -> None:
    client = Client()
    game = start_as_visitor(client)
    response = sign_up(client, username="ada")
    assert response.status_code == 200 and User.objects.get(pk=game.player_id).is_guest


def test_a_guest_is_refused_ranked_play_with_a_sign_up_link() -> None:
    client = Client()
    guest = start_as_visitor(client).player
    for url in ("/play/daily/", "/play/weekly/"):
        response = client.post(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("signup") + "?next=")
        assert any("Sign up" in m.message for m in get_messages(response.wsgi_request))
    assert not Game.objects.filter(mode=Game.Mode.RANKED).exists()
    with pytest.raises(AccountRequired) as refused:
        services.game_start_daily(user=guest)
    assert refused.value.code == "account_required" and refused.value.status == 403


@pytest.mark.parametrize(
    "url",
    ["/leagues/", "/accounts/profile/", "/accounts/password/", "/accounts/data/"],
)
def test_a_guest_is_sent_to_sign_up_from_account_only_pages(url: str) -> None:
    client = Client()
    start_as_visitor(client)
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("signup"))


def test_a_guest_gets_no_api_token() -> None:
    guest = guest_create(address=None, device=None)
    with pytest.raises(AccountRequired):
        services.api_token_create(user=guest, name="bot")
    client = Client(enforce_csrf_checks=False)
    client.force_login(guest)
    response = client.post("/api/v1/tokens", "{}", content_type="application/json")
    assert response.status_code == 403 and response.json()["code"] == "account_required"


def test_a_guest_may_sign_in_to_an_existing_account(user: User) -> None:
    client = Client()
    start_as_visitor(client)
    assert client.get(reverse("login")).status_code == 200
    response = client.post(reverse("login"), {"username": "ada", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("my_games")).wsgi_request.user == user


def test_a_guest_has_no_public_scorecard() -> None:
    guest = guest_create(address=None, device=None)
    assert Client().get(f"/players/{guest.username}/").status_code == 404


def test_guests_are_throttled_per_address_with_retry_after(settings) -> None:
    settings.FT_RATE_GUESTS_ADDRESS = Rate.parse("2/h")
    for _ in range(2):
        start_as_visitor(Client(REMOTE_ADDR="198.51.100.20"))
    refused = Client(REMOTE_ADDR="198.51.100.20").post(
        reverse("practice"), {"action": "code", "code": CODE}
    )
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "sign up" in refused.content.decode()
    assert User.objects.filter(is_guest=True).count() == 2
    start_as_visitor(Client(REMOTE_ADDR="198.51.100.99"))  # another network is not held


def test_guests_are_throttled_per_device(settings, client: Client) -> None:
    settings.FT_RATE_GUESTS_DEVICE = Rate.parse("1/h")
    client.get("/")  # the device cookie
    start_as_visitor(client)
    client.post(reverse("logout"))  # a new session, the same browser
    refused = client.post(reverse("practice"), {"action": "code", "code": CODE})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    other = Client(REMOTE_ADDR=client.defaults.get("REMOTE_ADDR", "127.0.0.1"))
    other.get("/")
    start_as_visitor(other)  # another browser on the same network is not held


def test_a_guest_is_never_recorded_or_linked_by_fair_play(user: User) -> None:
    client = Client()
    client.get("/")
    guest = start_as_visitor(client).player
    client.get(f"/games/{guest.games.get().pk}/")
    assert not Sighting.objects.filter(user=guest).exists()
    # Sightings left from before (a guest row given one by any path) are no link either.
    token = "A" * 32
    for who in (user, guest):
        services.sighting_record(
            user_id=who.pk, device_token=token, address="203.0.113.5", user_agent="x"
        )
    assert guest.pk not in accounts_linked_to(user_id=user.pk)


def test_idle_guests_are_purged_with_their_games_and_busy_ones_kept(settings) -> None:
    settings.FT_GUEST_DAYS = 30
    now = timezone.now()
    idle, busy, fresh = (guest_create(address=None, device=None) for _ in range(3))
    long_ago = now - timedelta(days=40)
    User.objects.filter(pk__in=[idle.pk, busy.pk]).update(date_joined=long_ago, last_login=None)
    old = Game.objects.create(player=idle, deal=services.deal_for_code(code=CODE), mode="practice")
    Game.objects.filter(pk=old.pk).update(created_at=long_ago)
    recent = Game.objects.create(player=busy, deal=old.deal, mode="practice")
    assert services.guests_purge(now=now) == 1
    assert not User.objects.filter(pk=idle.pk).exists() and not Game.objects.filter(pk=old.pk)
    assert User.objects.filter(pk__in=[busy.pk, fresh.pk]).count() == 2
    assert Game.objects.filter(pk=recent.pk).exists()
    assert services.guests_purge(now=now) == 0  # idempotent


def test_the_purge_never_deletes_an_account(user: User) -> None:
    User.objects.filter(pk=user.pk).update(date_joined=timezone.now() - timedelta(days=400))
    assert services.guests_purge() == 0 and User.objects.filter(pk=user.pk).exists()


def test_is_guest_is_false_for_visitors_and_accounts(user: User) -> None:
    from django.contrib.auth.models import AnonymousUser

    assert not is_guest(None) and not is_guest(AnonymousUser()) and not is_guest(user)
    assert is_guest(guest_create(address=None, device=None))


def test_the_home_page_tells_a_guest_ranked_play_needs_an_account() -> None:
    client = Client()
    start_as_visitor(client)
    page = client.get("/").content.decode()
    assert 'data-testid="guest-ranked"' in page and reverse("signup") in page
    assert 'data-testid="play-weekly"' not in page


def test_the_archive_offers_visitors_a_play_button(now) -> None:
    deal = closed_daily_deal((now - timedelta(days=2)).date())
    page = Client().get(f"/archive/{deal.day:%Y-%m}/").content.decode()
    assert f'action="/play/archive/{deal.day.isoformat()}/"' in page


def test_the_api_refuses_a_guest_a_ranked_start_and_serves_practice() -> None:
    client = Client()
    start_as_visitor(client)
    ranked = client.post("/api/v1/games", '{"mode": "daily"}', content_type="application/json")
    assert ranked.status_code == 403 and ranked.json()["code"] == "account_required"
    assert not Game.objects.filter(mode=Game.Mode.RANKED).exists()
    practice = client.post(
        "/api/v1/games",
        '{"mode": "practice", "code": "FT1-N-0000009"}',
        content_type="application/json",
    )
    assert practice.status_code == 201


def test_a_guest_signing_in_to_an_account_brings_its_games_and_is_gone(user: User) -> None:
    client = Client()
    game = start_as_visitor(client)
    guest = game.player
    game_play(user=guest, game_id=str(game.pk), move="s")  # held live here
    response = client.post(reverse("login"), {"username": "ada", "password": PASSWORD})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.player == user and not User.objects.filter(pk=guest.pk).exists()
    assert game_play(user=user, game_id=str(game.pk), move="s").version == 2
    listing = client.get(reverse("my_games"))
    assert str(game.pk) in listing.content.decode()


def test_another_processs_copy_naming_the_guest_reloads_on_the_owners_move(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.services import guests

    game = start_as_visitor(Client())
    guest = game.player
    game_play(user=guest, game_id=str(game.pk), move="s")
    # As in another process: its live copy is not dropped by this one's commit.
    monkeypatch.setattr(guests, "_forget_all", lambda games: None)
    assert services.guest_merge(guest_id=guest.pk, into=user) == 1
    assert game_play(user=user, game_id=str(game.pk), move="s").version == 2


def test_merging_is_only_for_a_guest_and_only_once(user: User, bob: User) -> None:
    assert services.guest_merge(guest_id=bob.pk, into=user) == 0  # an account: untouched
    assert User.objects.filter(pk=bob.pk).exists()
    guest = guest_create(address=None, device=None)
    assert services.guest_merge(guest_id=guest.pk, into=user) == 0  # no games: gone all the same
    assert not User.objects.filter(pk=guest.pk).exists()
    assert services.guest_merge(guest_id=guest.pk, into=user) == 0
