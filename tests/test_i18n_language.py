"""The right language first time: the browser's on a first visit, the footer's picker
without a separate button, the account keeps the choice, and a shared link opens in the
reader's language (games/accounts/language.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games import services
from games.models import User

ROOT = Path(__file__).resolve().parent.parent
PRACTICE_CODE = "FT1-N-0000007"
PASSWORD = "correct horse battery staple"


def lang_of(html: str) -> str:
    match = re.search(r'<html lang="([\w-]+)">', html)
    assert match is not None, "no <html lang>"
    return match.group(1)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("nl", "nl"),
        ("nl-NL,nl;q=0.9,en;q=0.5", "nl"),
        ("nl-BE", "nl"),
        ("fi-FI,fi;q=0.9", "fi"),
        ("it-IT", "it"),
        ("de-DE,de;q=0.9", "en"),
    ],
)
def test_a_first_visit_gets_the_browser_language(
    client: Client, accept: str, expected: str
) -> None:
    assert lang_of(client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE=accept).content.decode()) == (
        expected
    )


@pytest.mark.django_db
def test_the_picker_offers_every_language_and_switches_on_change(client: Client) -> None:
    html = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    form = re.search(r'<form class="lang-form"[^>]*>(.*?)</form>', html, re.DOTALL)
    assert form is not None
    for code, name in settings.LANGUAGES:
        assert f'<option value="{code}" lang="{code}"' in form.group(1) and name in form.group(1)
    assert '<option value="nl" lang="nl" selected>Nederlands</option>' in form.group(1)
    # The button stays for pages without JavaScript; the module hides it and submits on
    # change, so with JavaScript choosing a language is the whole gesture.
    assert 'type="submit"' in form.group(1)
    assert 'src="/static/js/lang-switch.js"' in html
    script = (ROOT / "static" / "js" / "lang-switch.js").read_text(encoding="utf-8")
    assert 'addEventListener("change"' in script and "requestSubmit" in script
    assert "submit.hidden = true" in script


@pytest.mark.django_db
def test_choosing_a_language_while_signed_in_keeps_it_on_the_account(
    client: Client, user: User
) -> None:
    client.force_login(user)
    response = client.post(reverse("set_language"), {"language": "nl", "next": reverse("rules")})
    assert response.status_code == 302 and response["Location"] == reverse("rules")
    user.refresh_from_db()
    assert user.language == "nl"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "nl"


@pytest.mark.django_db
def test_the_kept_language_is_in_the_account_data(client: Client, user: User) -> None:
    client.force_login(user)
    client.post(reverse("set_language"), {"language": "fi", "next": "/"})
    user.refresh_from_db()
    assert services.account_export(user=user)["profile"]["language"] == "fi"


@pytest.mark.django_db
def test_an_unknown_language_is_not_kept(client: Client, user: User) -> None:
    client.force_login(user)
    client.post(reverse("set_language"), {"language": "xx", "next": reverse("rules")})
    user.refresh_from_db()
    assert user.language == ""


@pytest.mark.django_db
def test_a_visitor_choosing_a_language_gets_only_the_cookie(client: Client) -> None:
    response = client.post(reverse("set_language"), {"language": "fi", "next": "/"})
    assert response.status_code == 302
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fi"
    assert lang_of(client.get(reverse("home")).content.decode()) == "fi"


@pytest.mark.django_db
def test_signing_in_applies_the_account_language_on_another_browser(
    client: Client, user: User
) -> None:
    user.language = "nl"
    user.save(update_fields=["language"])
    # A new browser that prefers English and has an Italian cookie from an earlier visit.
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"
    response = client.post(
        reverse("login"), {"username": "ada", "password": PASSWORD}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 302
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "nl"
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert lang_of(html) == "nl"
    # Signed out, the browser stays in the account's language (the cookie).
    client.post(reverse("logout"))
    assert lang_of(client.get(reverse("home")).content.decode()) == "nl"


@pytest.mark.django_db
def test_a_signed_in_account_without_a_choice_follows_the_browser(
    client: Client, user: User
) -> None:
    client.force_login(user)
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert lang_of(html) == "fi"


@pytest.mark.django_db
def test_a_shared_link_opens_in_the_reader_language(client: Client, user: User) -> None:
    """No language prefix in any URL: the link one player shares is the same page in
    whatever language the reader's browser (or account) asks for."""
    game = services.game_start_practice(user=user, code=PRACTICE_CODE)
    client.force_login(user)
    for url in (reverse("rules"), reverse("practice"), reverse("game", args=[game.pk])):
        assert not re.match(r"^/(en|it|nl|fi)/", url), url
        for code in ("nl", "fi", "it", "en"):
            html = client.get(url, HTTP_ACCEPT_LANGUAGE=code).content.decode()
            assert lang_of(html) == code, (url, code)
