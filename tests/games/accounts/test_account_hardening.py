"""Accounts that resist guessing (issue 21): the reset mail leaves the request, a new
password revokes every API token, the change-password form and sign-up are throttled
(sign-up per address and per device), and every cookie the site sets is flagged."""

from __future__ import annotations

import os
import subprocess
import sys
from http.cookies import Morsel
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from ftsite.rates import Rate
from games import services, tasks
from games.models import ApiToken, User

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"
NEW_PASSWORD = "another long pass phrase 42"
ROOT = Path(__file__).resolve().parents[3]


# The reset mail leaves the request ------------------------------------------------------


def test_a_reset_request_enqueues_the_mail_for_any_address(
    client: Client, user: User, monkeypatch
) -> None:
    user.email = "ada@example.org"
    user.save()
    queued: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tasks.password_reset_mail, "delay", lambda *a: queued.append(a))
    for email in ("ADA@example.org", "nobody@example.org"):
        response = client.post(reverse("password_reset"), {"email": email})
        assert response.status_code == 302
    # The same step either way, and no mail rendered or sent in the request.
    assert [q[0] for q in queued] == ["ada@example.org", "nobody@example.org"]
    assert mail.outbox == []


def test_the_reset_task_mails_the_link_in_the_language_asked(user: User) -> None:
    user.email = "ada@example.org"
    user.save()
    tasks.password_reset_mail("ada@example.org", "example.org", True, "it")
    tasks.password_reset_mail("nobody@example.org", "example.org", True, "it")
    assert [m.to for m in mail.outbox] == [["ada@example.org"]]
    assert "https://example.org/accounts/password/reset/" in mail.outbox[0].body


# A new password revokes the API tokens ----------------------------------------------------


def _tokens(user: User) -> int:
    return ApiToken.objects.filter(user=user).count()


def test_changing_the_password_revokes_every_api_token(client: Client, user: User) -> None:
    services.api_token_create(user=user, name="a")
    services.api_token_create(user=user, name="b")
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert _tokens(user) == 0


def test_a_password_reset_revokes_every_api_token(client: Client, user: User) -> None:
    _, raw = services.api_token_create(user=user, name="a")
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    link = reverse("password_reset_confirm", args=[uid, default_token_generator.make_token(user)])
    form = client.get(link, follow=True)
    response = client.post(
        form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert response.status_code == 302
    assert _tokens(user) == 0
    assert services.api_token_authenticate(raw=raw) is None


def test_other_saves_of_the_account_keep_its_tokens(client: Client, user: User) -> None:
    services.api_token_create(user=user, name="a")
    user.display_name = "Ada L."
    user.save()
    # A sign-in (which may upgrade the stored hash) is no password change either.
    response = client.post(reverse("login"), {"username": "ada", "password": PASSWORD})
    assert response.status_code == 302
    assert _tokens(user) == 1


# The change-password form is throttled --------------------------------------------------------


def test_it_throttles_the_change_password_form(client: Client, user: User, settings) -> None:
    settings.FT_RATE_PASSWORD_CHANGES = Rate.parse("3/15min")
    client.force_login(user)
    wrong = {"old_password": "guess", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    for _ in range(3):
        assert client.post(reverse("password_change"), wrong).status_code == 200
    refused = client.post(reverse("password_change"), {**wrong, "old_password": PASSWORD})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "try again in" in refused.content.decode()
    user.refresh_from_db()
    assert user.check_password(PASSWORD)  # the right password, refused, changed nothing


# Sign-up is throttled per address and per device -----------------------------------------------


def _sign_up(client: Client, name: str) -> Any:
    return client.post(
        reverse("signup"), {"username": name, "password1": PASSWORD, "password2": PASSWORD}
    )


def test_it_throttles_sign_ups_per_device(settings) -> None:
    settings.FT_RATE_SIGNUPS_DEVICE = Rate.parse("2/h")
    browser = Client(REMOTE_ADDR="198.51.100.1")
    browser.get("/")  # the device cookie
    for n in range(2):
        assert _sign_up(browser, f"player{n}").status_code == 302
        browser.post(reverse("logout"))
    refused = _sign_up(browser, "player9")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "try again in" in refused.content.decode()
    assert not User.objects.filter(username="player9").exists()
    # Another browser on the same network signs up.
    other = Client(REMOTE_ADDR="198.51.100.1")
    other.get("/")
    assert _sign_up(other, "player10").status_code == 302


def test_it_throttles_sign_ups_per_address_across_cookie_jars(settings) -> None:
    settings.FT_RATE_SIGNUPS_ADDRESS = Rate.parse("3/h")
    for n in range(3):
        assert _sign_up(Client(REMOTE_ADDR="198.51.100.2"), f"jar{n}").status_code == 302
    assert _sign_up(Client(REMOTE_ADDR="198.51.100.2"), "jar9").status_code == 429
    assert _sign_up(Client(REMOTE_ADDR="198.51.100.3"), "jar10").status_code == 302


# Every cookie is flagged ---------------------------------------------------------------------


def _tour(client: Client) -> dict[str, Morsel]:
    """Every cookie a visitor collects: a page, the language switch, a sign-up, a message."""
    client.get("/")
    client.post("/i18n/setlang/", {"language": "it", "next": "/"})
    _sign_up(client, "touring")
    return dict(client.cookies.items())


def test_every_cookie_is_samesite_and_server_only_or_csrf(client: Client) -> None:
    cookies = _tour(client)
    assert {"sessionid", "csrftoken", "ft_device", "django_language"} <= set(cookies)
    for name, morsel in cookies.items():
        assert morsel["samesite"] == "Lax", name
        # The CSRF token is read by the pages' scripts (for the API's X-CSRFToken).
        assert morsel["httponly"] or name == "csrftoken", name


def test_every_cookie_is_secure_when_the_site_says_so(client: Client, settings) -> None:
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True
    settings.LANGUAGE_COOKIE_SECURE = True
    for name, morsel in _tour(client).items():
        assert morsel["secure"], name


def test_production_settings_make_the_language_cookie_secure() -> None:
    env = {
        **os.environ,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECURE_COOKIES": "true",
        "DJANGO_SECRET_KEY": "x" * 50,
        "FT_DAILY_SECRET": "y" * 20,
        "DJANGO_ALLOWED_HOSTS": "example.org",
    }
    code = (
        "import ftsite.settings as s;"
        "print(s.LANGUAGE_COOKIE_SECURE, s.LANGUAGE_COOKIE_SAMESITE, s.LANGUAGE_COOKIE_HTTPONLY)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.stdout.split() == ["True", "Lax", "True"], out.stderr[-2000:]


def test_the_privacy_page_says_how_sign_ups_and_sign_ins_are_counted(client: Client) -> None:
    assert "Sign-ups are counted the same way" in client.get("/privacy/").content.decode()
    italian = client.get("/privacy/", headers={"accept-language": "it"}).content.decode()
    assert "Le iscrizioni sono contate allo stesso modo" in italian
