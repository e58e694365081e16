"""Sign-in throttling (django-axes): five wrong passwords for one username from one address
lock that pair out with a 429 that says how long, on the site's form and the admin's; a
right password in between resets the count; other addresses are not locked out; and the
address is only ever counted as a keyed hash."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.models import User

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"


def sign_in(client: Client, password: str, *, url: str | None = None, username: str = "ada"):
    return client.post(url or reverse("login"), {"username": username, "password": password})


def test_it_locks_out_a_username_from_an_address_after_five_wrong_passwords(user: User) -> None:
    client = Client(REMOTE_ADDR="198.51.100.7")
    for _ in range(4):
        assert sign_in(client, "wrong").status_code == 200  # the form again, with its error
    locked = sign_in(client, "wrong")
    assert locked.status_code == 429 and int(locked["Retry-After"]) == 15 * 60
    assert 'data-testid="locked-out"' in locked.content.decode()
    assert "15 minutes" in locked.content.decode()
    # Even the right password is refused while locked out.
    assert sign_in(client, PASSWORD).status_code == 429
    # Another address is not locked out, and signs in.
    assert sign_in(Client(REMOTE_ADDR="203.0.113.50"), PASSWORD).status_code == 302


def test_a_right_password_resets_the_count(user: User) -> None:
    client = Client(REMOTE_ADDR="198.51.100.8")
    for _ in range(4):
        sign_in(client, "wrong")
    assert sign_in(client, PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        assert sign_in(client, "wrong").status_code == 200


def test_the_admins_sign_in_is_throttled_too(user: User) -> None:
    user.is_staff = True
    user.save()
    client = Client(REMOTE_ADDR="198.51.100.9")
    url = reverse("admin:login")
    for _ in range(5):
        sign_in(client, "wrong", url=url)
    assert sign_in(client, PASSWORD, url=url).status_code == 429


def test_no_address_is_kept_in_the_cache(user: User) -> None:
    client = Client(REMOTE_ADDR="198.51.100.77")
    for _ in range(5):
        sign_in(client, "wrong")
    keys_and_values = " ".join(f"{k}={v}" for k, v in cache._cache.items())
    assert keys_and_values and "198.51.100.77" not in keys_and_values
