"""One person, one attempt (issue 19, part A): what fair play keeps of a deleted account,
for how long, and the refusal of a second ranked attempt by a re-registration."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import selectors, services
from games.models import DeletedAccount, DeletedPlay, DeletedSighting, Game, User
from games.privacy.middleware import DEVICE_COOKIE
from games.privacy.sightings import name_digest
from tests.support.games import game_play, game_resign

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"
UA = "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0"
TOKEN = "T" * 32


def seen(user: User, *, token: str = TOKEN, address: str = "203.0.113.7") -> None:
    services.sighting_record(user_id=user.pk, device_token=token, address=address, user_agent=UA)


def scout_today(user: User) -> Game:
    """Issue 19's scout: today's ranked game, a few stock cards turned, resigned."""
    game = services.game_start_daily(user=user)
    for n in range(5):
        game_play(user=user, game_id=game.pk, move="s", client_id=f"s{n}")
    game_resign(user=user, game_id=game.pk)
    return game


def test_deleting_keeps_only_keyed_hashes_and_the_open_deals_played(user: User) -> None:
    seen(user)
    game = scout_today(user)
    services.account_delete(user=user, password=PASSWORD)
    assert not User.objects.filter(username="ada").exists()
    assert not Game.objects.filter(pk=game.pk).exists()
    kept = DeletedAccount.objects.get()
    # The keyed digest, never the name ("ada" may well occur in 64 hex digits, by the key).
    assert kept.name_digest == name_digest(username="ada") != "ada"
    assert re.fullmatch(r"[0-9a-f]{64}", kept.name_digest)
    assert kept.keep_until == game.deal.closes_at + timedelta(days=30)
    assert sorted(DeletedSighting.objects.values_list("kind", flat=True)) == [
        "address",
        "device",
        "network",
    ]
    (play,) = DeletedPlay.objects.all()
    assert (play.deal_id, play.mode, play.status, play.turned, play.card_moves) == (
        game.deal_id,
        "ranked",
        "resigned",
        5,
        0,
    )


def test_deleting_an_account_that_played_no_open_deal_keeps_nothing(user: User) -> None:
    seen(user)
    services.game_start_practice(user=user, code="FT1-N-0000007")
    services.account_delete(user=user, password=PASSWORD)
    assert not DeletedAccount.objects.exists() and not DeletedSighting.objects.exists()


def test_what_is_kept_is_pruned_after_the_close_and_the_sightings_days(user: User) -> None:
    seen(user)
    game = scout_today(user)
    services.account_delete(user=user, password=PASSWORD)
    services.sightings_prune(now=game.deal.closes_at + timedelta(days=29))
    assert DeletedAccount.objects.count() == 1
    services.sightings_prune(now=game.deal.closes_at + timedelta(days=30, seconds=1))
    assert not DeletedAccount.objects.exists() and not DeletedPlay.objects.exists()


def test_it_refuses_a_reregistration_under_the_same_name_on_another_browser(
    user: User,
) -> None:
    seen(user)
    scout_today(user)
    services.account_delete(user=user, password=PASSWORD)
    again = User.objects.create_user(username="Ada", password=PASSWORD)  # other capitals
    seen(again, token="N" * 32, address="198.51.100.9")
    assert selectors.deleted_accounts_linked_to(user=again) == {
        DeletedAccount.objects.get().pk: {"name"}
    }
    with pytest.raises(services.AttemptUsed) as refused:
        services.game_start_daily(user=again)
    assert refused.value.code == "attempt_used" and refused.value.status == 409


def test_it_refuses_a_ranked_attempt_on_the_browser_of_a_deleted_account_that_made_one(
    user: User, bob: User
) -> None:
    seen(user)
    scout_today(user)
    services.account_delete(user=user, password=PASSWORD)
    seen(bob)  # the scout's friend, on the scout's browser after the deletion
    with pytest.raises(services.AttemptUsed):
        services.game_start_daily(user=bob)


def test_it_lets_a_browser_play_when_the_deleted_account_only_practised_elsewhere(
    user: User, bob: User
) -> None:
    seen(user)
    scout_today(user)
    services.account_delete(user=user, password=PASSWORD)
    # Another browser on the same network is not the same person: linked, not refused.
    seen(bob, token="B" * 32)
    assert selectors.deleted_accounts_linked_to(user=bob) == {
        DeletedAccount.objects.get().pk: {"address", "network"}
    }
    assert services.game_start_daily(user=bob).mode == "ranked"


def test_a_resumed_game_is_never_refused(user: User, bob: User) -> None:
    seen(user)
    seen(bob)
    game = services.game_start_daily(user=bob)
    scout_today(user)
    services.account_delete(user=user, password=PASSWORD)
    assert services.game_start_daily(user=bob).pk == game.pk


def test_nothing_is_linked_once_the_kept_traces_expire(user: User, now: datetime) -> None:
    seen(user)
    scout_today(user)
    services.account_delete(user=user, password=PASSWORD)
    DeletedAccount.objects.update(keep_until=timezone.now() - timedelta(seconds=1))
    again = User.objects.create_user(username="ada", password=PASSWORD)
    seen(again)
    assert selectors.deleted_accounts_linked_to(user=again) == {}
    assert services.game_start_daily(user=again).mode == "ranked"


def test_a_reregistration_through_the_pages_gets_no_second_attempt(client: Client) -> None:
    # Issue 19's attack 1 in one browser (one cookie jar): sign up, play, delete, sign up
    # again under the same name, ask for today's ranked game.
    client.cookies[DEVICE_COOKIE] = TOKEN
    form = {"username": "ada", "password1": PASSWORD, "password2": PASSWORD}
    assert client.post(reverse("signup"), form, HTTP_USER_AGENT=UA).status_code == 302
    assert client.post(reverse("play_daily"), HTTP_USER_AGENT=UA).status_code == 302
    scout_today(User.objects.get(username="ada"))
    deleted = client.post(reverse("account_delete"), {"password": PASSWORD}, HTTP_USER_AGENT=UA)
    assert deleted.status_code == 302
    assert client.post(reverse("signup"), form, HTTP_USER_AGENT=UA).status_code == 302
    response = client.post("/api/v1/games", {"mode": "daily"}, content_type="application/json")
    assert response.status_code == 409 and response.json()["code"] == "attempt_used"
    page = client.post(reverse("play_daily"), HTTP_USER_AGENT=UA, follow=True)
    assert "already made from this browser or under this name" in page.content.decode()
    assert not Game.objects.filter(player__username="ada", mode="ranked").exists()


def test_the_data_download_says_what_a_deletion_would_keep(user: User) -> None:
    assert services.account_export(user=user)["fair_play_after_deletion"]["open_deals"] == []
    game = scout_today(user)
    kept = services.account_export(user=user)["fair_play_after_deletion"]
    assert "keyed hashes" in kept["terms"] and kept["sighting_days"] == 30
    assert kept["would_keep_until"] == (game.deal.closes_at + timedelta(days=30)).isoformat()
    assert kept["open_deals"] == [
        {
            "kind": "daily",
            "day": game.deal.day.isoformat(),
            "variant": game.deal.variant,
            "mode": "ranked",
            "turned": 5,
            "card_moves": 0,
        }
    ]


def test_the_privacy_page_says_what_a_deletion_keeps_and_for_how_long(client: Client) -> None:
    html = client.get(reverse("privacy")).content.decode()
    assert 'data-testid="privacy-deletion-keeps"' in html
    assert "30 days after\n      the last of those deals has closed" in html or (
        "30 days after the last of those deals has closed" in " ".join(html.split())
    )
    italian = client.get(reverse("privacy"), headers={"accept-language": "it"}).content.decode()
    assert "ultima di quelle smazzate" in italian
