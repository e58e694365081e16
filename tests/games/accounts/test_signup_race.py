"""Sign-ups racing for one new name (issue 37): the form checks the name, another sign-up
(another process) takes it before this one saves, and the loser must get the form's own
"name taken", in the page's language, never a 500 (``IntegrityError`` at the save)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import services
from games.accounts.forms import SignUpForm
from games.models import Game, User
from games.services import guest_create

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"


@pytest.fixture
def rival_between_check_and_save(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another sign-up takes the name right after this form has found it free."""
    checked = SignUpForm.is_valid

    def valid_then_taken(form: SignUpForm) -> bool:
        valid = checked(form)
        if valid:
            User.objects.create_user(username=form.cleaned_data["username"], password=PASSWORD)
        return valid

    monkeypatch.setattr(SignUpForm, "is_valid", valid_then_taken)


def taken_text(language: str) -> str:
    with translation.override(language):
        return str(User._meta.get_field("username").error_messages["unique"])


def sign_up(client: Client, language: str, username: str = "grace") -> object:
    return client.post(
        reverse("signup"),
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
        HTTP_ACCEPT_LANGUAGE=language,
    )


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_sign_up_that_lost_the_race_for_its_name_is_told_the_name_is_taken(
    client: Client, rival_between_check_and_save: None, language: str
) -> None:
    response = sign_up(client, language)
    assert response.status_code == 200
    page = response.content.decode()
    assert taken_text(language) in page or taken_text(language).replace("'", "&#x27;") in page
    assert User.objects.filter(username="grace").count() == 1  # the rival's
    assert "_auth_user_id" not in client.session  # not signed in as the rival


def test_the_taken_text_is_the_form_s_own_in_both_languages() -> None:
    """The race's answer is the same words as the form's check of a name already taken."""
    User.objects.create_user(username="grace", password=PASSWORD)
    for language in ("en", "it"):
        with translation.override(language):
            form = SignUpForm({"username": "grace", "password1": PASSWORD, "password2": PASSWORD})
            assert form.errors["username"] == [taken_text(language)]
    assert taken_text("it") != taken_text("en")


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_guest_that_lost_the_race_for_its_name_stays_a_guest_and_is_told(
    rival_between_check_and_save: None, language: str
) -> None:
    client = Client()
    started = client.post(reverse("practice"), {"action": "code", "code": "FT1-N-0000007"})
    game = Game.objects.get(pk=started["Location"].split("/")[2])
    response = sign_up(client, language)
    assert response.status_code == 200
    page = response.content.decode()
    assert taken_text(language) in page or taken_text(language).replace("'", "&#x27;") in page
    guest = User.objects.get(pk=game.player_id)
    assert guest.is_guest and guest.username.startswith("guest-")


def test_the_account_service_refuses_a_name_taken_since_the_check() -> None:
    User.objects.create_user(username="grace", password=PASSWORD)
    with pytest.raises(services.UsernameTaken) as refused:
        services.account_create(username="grace", display_name="", email="", password=PASSWORD)
    assert refused.value.code == "username_taken" and refused.value.status == 409
    assert User.objects.filter(username="grace").count() == 1


def test_the_guest_conversion_refuses_a_name_taken_since_the_check() -> None:
    User.objects.create_user(username="grace", password=PASSWORD)
    guest = guest_create(address="198.51.100.7", device=None)
    with pytest.raises(services.UsernameTaken):
        services.guest_convert(user=guest, username="grace", display_name="", password=PASSWORD)
    guest.refresh_from_db()
    assert guest.is_guest and not guest.has_usable_password()
