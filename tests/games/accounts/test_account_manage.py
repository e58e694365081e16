"""Accounts people manage: the e-mail address on the profile, password reset by e-mail,
deleting the account and downloading its data (games.accounts.views, services.accounts)."""

from __future__ import annotations

import json
import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from ftsite.rates import Rate
from games import services
from games.models import Action, ApiToken, Deal, Game, Sighting, User
from tests.support.games import game_play

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"
NEW_PASSWORD = "a different long passphrase 42"
PRACTICE_CODE = "FT1-N-0000007"


@pytest.fixture
def signed_in(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def _practice_with_a_move(user: User) -> Game:
    game = services.game_start_practice(user=user, code=PRACTICE_CODE)
    game_play(user=user, game_id=game.pk, move="s", client_id="m1")
    return game


# The profile's e-mail address ------------------------------------------------------------


def test_it_saves_an_optional_email_address_on_the_profile(signed_in: Client, user: User) -> None:
    response = signed_in.post(
        reverse("profile"), {"display_name": "Ada L.", "email": "ada@new.example"}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.email == "ada@new.example" and user.display_name == "Ada L."
    signed_in.post(reverse("profile"), {"display_name": "Ada L.", "email": ""})
    user.refresh_from_db()
    assert user.email == ""


def test_it_names_a_malformed_email_address(signed_in: Client, user: User) -> None:
    response = signed_in.post(reverse("profile"), {"display_name": "", "email": "not-an-address"})
    assert response.status_code == 200
    assert "email" in response.context["form"].errors
    user.refresh_from_db()
    assert user.email == "ada@example.org"


def test_it_throttles_the_profile_form(signed_in: Client, settings) -> None:
    settings.FT_RATE_ACCOUNT_FORMS = Rate.parse("2/h")
    for _ in range(2):
        signed_in.post(reverse("profile"), {"display_name": "x", "email": ""})
    response = signed_in.post(reverse("profile"), {"display_name": "y", "email": ""})
    assert response.status_code == 429 and "Retry-After" in response
    assert "Too many attempts" in response.content.decode()


# Password reset ----------------------------------------------------------------------------


def _reset_link(message: mail.EmailMessage) -> str:
    match = re.search(r"https?://[^/\s]+(/accounts/password/reset/\S+/\S+/)", message.body)
    assert match, message.body
    return match.group(1)


def test_it_resets_a_password_through_the_emailed_link(client: Client, user: User) -> None:
    page = client.get(reverse("password_reset"))
    assert page.status_code == 200 and 'name="email"' in page.content.decode()
    response = client.post(reverse("password_reset"), {"email": "ADA@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["ada@example.org"]
    form_page = client.get(_reset_link(mail.outbox[0]), follow=True)
    assert form_page.context["validlink"]
    done = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert done.status_code == 302 and done["Location"] == reverse("password_reset_complete")
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    # The link works once.
    again = client.get(_reset_link(mail.outbox[0]), follow=True)
    assert not again.context["validlink"]
    assert "Ask for a new link" in again.content.decode()


def test_it_answers_the_same_for_an_address_without_an_account(client: Client, user: User) -> None:
    known = client.post(reverse("password_reset"), {"email": "ada@example.org"})
    unknown = client.post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]
    assert [m.to for m in mail.outbox] == [["ada@example.org"]]


def test_it_throttles_reset_requests_per_email_address(
    client: Client, user: User, settings
) -> None:
    settings.FT_RATE_PASSWORD_RESETS = Rate.parse("2/h")
    for _ in range(2):
        Client().post(reverse("password_reset"), {"email": "ada@example.org"})
    # From a fresh client address: only the e-mail address's count is used up.
    response = client.post(
        reverse("password_reset"), {"email": "ada@example.org"}, REMOTE_ADDR="10.0.0.9"
    )
    assert response.status_code == 429 and "Too many attempts" in response.content.decode()
    assert len(mail.outbox) == 2


def test_it_throttles_reset_requests_per_client_address(client: Client, settings) -> None:
    settings.FT_RATE_PASSWORD_RESETS = Rate.parse("2/h")
    for n in range(2):
        client.post(reverse("password_reset"), {"email": f"someone{n}@example.org"})
    response = client.post(reverse("password_reset"), {"email": "else@example.org"})
    assert response.status_code == 429
    # Unknown addresses count the same: the limit tells nothing about accounts.


def test_the_login_page_links_to_the_reset(client: Client) -> None:
    assert reverse("password_reset") in client.get(reverse("login")).content.decode()


# Deleting an account -----------------------------------------------------------------------


def test_it_refuses_to_delete_with_a_wrong_password(user: User) -> None:
    with pytest.raises(services.WrongPassword):
        services.account_delete(user=user, password="not it")
    assert User.objects.filter(pk=user.pk).exists()


def test_it_deletes_the_account_and_its_data_but_not_the_deal(user: User, bob: User) -> None:
    mine = _practice_with_a_move(user)
    theirs = _practice_with_a_move(bob)
    services.api_token_create(user=user, name="bot")
    Sighting.objects.create(
        user=user, kind="device", digest="d" * 64, first_seen=mine.created_at,
        last_seen=mine.created_at,
    )  # fmt: skip
    services.account_delete(user=user, password=PASSWORD)
    assert not User.objects.filter(pk=user.pk).exists()
    assert not Game.objects.filter(pk=mine.pk).exists()
    assert not Action.objects.filter(game_id=mine.pk).exists()
    assert not ApiToken.objects.filter(user_id=user.pk).exists()
    assert not Sighting.objects.filter(user_id=user.pk).exists()
    assert Deal.objects.filter(pk=mine.deal_id).exists()
    assert Game.objects.get(pk=theirs.pk).actions.count() == 1


def test_it_drops_the_deleted_games_engines_from_memory(
    user: User, django_capture_on_commit_callbacks
) -> None:
    from games.runtime import live

    game = _practice_with_a_move(user)
    assert live.game_pk(game.pk) in live._entries
    with django_capture_on_commit_callbacks(execute=True):
        services.account_delete(user=user, password=PASSWORD)
    assert live.game_pk(game.pk) not in live._entries


def test_the_delete_page_asks_for_the_password(signed_in: Client, user: User) -> None:
    page = signed_in.get(reverse("account_delete"))
    assert page.status_code == 200 and 'name="password"' in page.content.decode()
    wrong = signed_in.post(reverse("account_delete"), {"password": "nope"})
    assert wrong.status_code == 400
    assert "The password is not right" in wrong.content.decode()
    empty = signed_in.post(reverse("account_delete"), {"password": ""})
    assert "Enter your password" in empty.content.decode()
    assert User.objects.filter(pk=user.pk).exists()


def test_the_delete_page_deletes_and_signs_out(signed_in: Client, user: User) -> None:
    response = signed_in.post(reverse("account_delete"), {"password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert not User.objects.filter(pk=user.pk).exists()
    home = signed_in.get(reverse("home"))
    assert not home.wsgi_request.user.is_authenticated
    assert "Your account and everything kept about it are deleted." in home.content.decode()


def test_it_throttles_deletion_attempts(signed_in: Client, user: User, settings) -> None:
    settings.FT_RATE_ACCOUNT_FORMS = Rate.parse("2/h")
    for _ in range(2):
        signed_in.post(reverse("account_delete"), {"password": "guess"})
    response = signed_in.post(reverse("account_delete"), {"password": PASSWORD})
    assert response.status_code == 429
    assert User.objects.filter(pk=user.pk).exists()


def test_the_delete_page_needs_a_csrf_token(user: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.post(reverse("account_delete"), {"password": PASSWORD}).status_code == 403
    assert User.objects.filter(pk=user.pk).exists()


# Downloading one's data --------------------------------------------------------------------


def test_it_exports_the_profile_and_games_with_their_moves(user: User, bob: User) -> None:
    game = _practice_with_a_move(user)
    _practice_with_a_move(bob)
    data = services.account_export(user=user)
    assert data["profile"]["username"] == "ada"
    assert data["profile"]["email"] == "ada@example.org"
    assert [g["id"] for g in data["games"]] == [str(game.pk)]
    assert [a["move"] for a in data["games"][0]["actions"]] == ["s"]
    assert data["games"][0]["deal_code"] == PRACTICE_CODE
    assert data["results"] == []  # added by leaderboards (games.signals.account_exporting)
    json.dumps(data)


def test_the_download_is_a_json_attachment(signed_in: Client, user: User) -> None:
    _practice_with_a_move(user)
    response = signed_in.post(reverse("account_export"))
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith("attachment;")
    assert json.loads(response.content)["games"][0]["actions"][0]["move"] == "s"
    assert signed_in.get(reverse("account_export")).status_code == 405


def test_the_profile_offers_download_and_deletion(signed_in: Client) -> None:
    html = signed_in.get(reverse("profile")).content.decode()
    assert reverse("account_export") in html and reverse("account_delete") in html


# The privacy page and the Italian pages ----------------------------------------------------


def test_the_privacy_page_covers_email_addresses_and_deletion(client: Client, settings) -> None:
    settings.PASSWORD_RESET_TIMEOUT = 2 * 3600
    html = client.get(reverse("privacy")).content.decode()
    assert "Your e-mail address, only if you give one when you sign up or add one" in html
    assert "works once, for 2 hours" in html
    assert "Deleting your account removes" in html and "as one JSON file" in html


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("password_reset", "Password dimenticata"),
        ("password_reset_done", "Controlla la tua e-mail"),
        ("privacy", "Eliminare l'account rimuove"),
    ],
)
def test_it_speaks_italian_on_the_new_pages(client: Client, name: str, words: str) -> None:
    html = client.get(reverse(name), headers={"accept-language": "it"}).content.decode()
    assert words in html


def test_the_delete_page_speaks_italian(signed_in: Client) -> None:
    html = signed_in.get(reverse("account_delete"), headers={"accept-language": "it"})
    assert "Elimina il mio account" in html.content.decode()
