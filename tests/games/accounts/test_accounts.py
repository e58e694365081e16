"""Accounts: sign up, log in and out, change the password, edit the profile."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import User

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"
NEW_PASSWORD = "a different long passphrase 42"


def test_sign_up_creates_the_user_and_logs_in(client: Client) -> None:
    response = client.post(
        reverse("signup"),
        {
            "username": "grace",
            "display_name": "Grace H.",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    user = User.objects.get(username="grace")
    assert user.display_name == "Grace H." and user.check_password(PASSWORD)
    home = client.get(reverse("home"))
    assert home.wsgi_request.user == user
    assert "Grace H." in home.content.decode()  # the nav names the player


def test_the_display_name_is_optional_at_sign_up(client: Client) -> None:
    response = client.post(
        reverse("signup"), {"username": "linus", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302
    assert User.objects.get(username="linus").public_name == "linus"


def test_sign_up_keeps_an_optional_email_for_password_resets(client: Client) -> None:
    response = client.post(
        reverse("signup"),
        {
            "username": "hedy",
            "email": "hedy@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    assert User.objects.get(username="hedy").email == "hedy@example.org"


def test_the_sign_up_form_offers_the_email_as_optional_and_says_what_for(
    client: Client,
) -> None:
    html = client.get(reverse("signup")).content.decode()
    assert 'name="email"' in html and "E-mail address (optional)" in html
    assert "forgotten password cannot be reset" in html


def test_sign_up_refuses_a_malformed_email_naming_the_field(client: Client) -> None:
    response = client.post(
        reverse("signup"),
        {
            "username": "ida",
            "email": "not an address",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 200
    assert "email" in response.context["form"].errors
    assert "Enter a valid email address." in response.content.decode()
    assert not User.objects.filter(username="ida").exists()


def test_a_bad_sign_up_re_renders_with_errors(client: Client, user: User) -> None:
    response = client.post(
        reverse("signup"),
        {"username": "ada", "password1": PASSWORD, "password2": "something else entirely"},
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert "username" in form.errors  # taken
    assert "password2" in form.errors  # mismatch
    assert 'class="errorlist' in response.content.decode()
    assert User.objects.count() == 1
    assert not response.wsgi_request.user.is_authenticated


def test_the_sign_up_page_renders_for_a_visitor(client: Client) -> None:
    response = client.get(reverse("signup"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="password1"' in html and 'name="display_name"' in html


def test_login_and_logout(client: Client, user: User) -> None:
    page = client.get(reverse("login"))
    assert page.status_code == 200 and 'name="username"' in page.content.decode()
    response = client.post(reverse("login"), {"username": "ada", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    home = client.get(reverse("home")).content.decode()
    assert reverse("logout") in home and "Log out" in home
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert not client.get(reverse("home")).wsgi_request.user.is_authenticated


def test_a_wrong_password_does_not_log_in(client: Client, user: User) -> None:
    response = client.post(reverse("login"), {"username": "ada", "password": "nope"})
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert not response.wsgi_request.user.is_authenticated


def test_logout_by_get_is_refused(client: Client, user: User) -> None:
    client.force_login(user)
    assert client.get(reverse("logout")).status_code == 405
    assert client.get(reverse("home")).wsgi_request.user.is_authenticated


def test_login_is_required_and_comes_back(client: Client, user: User) -> None:
    response = client.get(reverse("profile"))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={reverse('profile')}"
    response = client.post(
        response["Location"],
        {"username": "ada", "password": PASSWORD, "next": reverse("profile")},
    )
    assert response["Location"] == reverse("profile")


def test_password_change(client: Client, user: User) -> None:
    client.force_login(user)
    assert client.get(reverse("password_change")).status_code == 200
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("password_change_done")
    assert client.get(reverse("password_change_done")).status_code == 200
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


def test_password_change_needs_the_old_password(client: Client, user: User) -> None:
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 200 and "old_password" in response.context["form"].errors
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_profile_edit(client: Client, user: User) -> None:
    client.force_login(user)
    page = client.get(reverse("profile"))
    assert page.status_code == 200 and 'name="display_name"' in page.content.decode()
    response = client.post(reverse("profile"), {"display_name": "Countess"}, follow=True)
    assert response.redirect_chain == [(reverse("profile"), 302)]
    user.refresh_from_db()
    assert user.display_name == "Countess"
    assert "Your profile is saved." in response.content.decode()


def test_a_too_long_display_name_is_refused(client: Client, user: User) -> None:
    client.force_login(user)
    response = client.post(reverse("profile"), {"display_name": "x" * 41})
    assert response.status_code == 200 and "display_name" in response.context["form"].errors
    user.refresh_from_db()
    assert user.display_name == ""
