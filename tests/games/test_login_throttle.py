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


def test_it_locks_out_a_username_from_an_address_after_five_wrong_passwords(
    user: User, bob: User
) -> None:
    client = Client(REMOTE_ADDR="198.51.100.7")
    for _ in range(4):
        assert sign_in(client, "wrong").status_code == 200  # the form again, with its error
    locked = sign_in(client, "wrong")
    assert locked.status_code == 429 and int(locked["Retry-After"]) == 15 * 60
    assert 'data-testid="locked-out"' in locked.content.decode()
    assert "15 minutes" in locked.content.decode()
    # Even the right password is refused while locked out.
    assert sign_in(client, PASSWORD).status_code == 429
    # Another address is not locked out: another account signs in from it (ada's own
    # username is locked for browsers new to her account: see the tests below).
    assert sign_in(Client(REMOTE_ADDR="203.0.113.50"), PASSWORD, username="bob").status_code == 302


def test_a_right_password_resets_the_count(user: User) -> None:
    client = Client(REMOTE_ADDR="198.51.100.8")
    for _ in range(4):
        sign_in(client, "wrong")
    assert sign_in(client, PASSWORD).status_code == 302
    client.get("/")  # her browser now counts as hers
    client.post(reverse("logout"))
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


# Across addresses and usernames (issue 21) ---------------------------------------------


def test_it_locks_out_one_address_trying_many_usernames(user: User, bob: User) -> None:
    client = Client(REMOTE_ADDR="198.51.100.20")
    for n in range(4):
        assert sign_in(client, "wrong", username=f"nobody{n}").status_code == 200
    assert sign_in(client, "wrong", username="nobody9").status_code == 429
    assert sign_in(client, PASSWORD, username="bob").status_code == 429
    # The lock is the address's (for browsers new to the account): another one is free.
    assert sign_in(Client(REMOTE_ADDR="203.0.113.21"), PASSWORD).status_code == 302


def test_it_locks_out_one_username_tried_from_many_addresses(user: User) -> None:
    for n in range(4):
        client = Client(REMOTE_ADDR=f"198.51.100.{30 + n}")
        assert sign_in(client, "wrong").status_code == 200
    assert sign_in(Client(REMOTE_ADDR="198.51.100.39"), "wrong").status_code == 429
    assert sign_in(Client(REMOTE_ADDR="198.51.100.40"), PASSWORD).status_code == 429


def _browser_that_signed_in(address: str) -> Client:
    """ada's own browser: it has signed in (so its device cookie is in her sightings)."""
    client = Client(REMOTE_ADDR=address)
    assert sign_in(client, PASSWORD).status_code == 302
    client.get("/")  # the device cookie is set on the first answer, noted on the next
    client.post(reverse("logout"))  # (the test client's logout() would drop every cookie)
    return client


def test_an_attacker_cannot_lock_the_owner_out_of_her_own_browser(user: User) -> None:
    own = _browser_that_signed_in("198.51.100.50")
    # Failures for her username from other addresses, and from her own (a shared network).
    for n in range(6):
        sign_in(Client(REMOTE_ADDR=f"203.0.113.{60 + n}"), "wrong")
    for _ in range(6):
        sign_in(Client(REMOTE_ADDR="198.51.100.50"), "wrong")
    assert sign_in(Client(REMOTE_ADDR="203.0.113.70"), PASSWORD).status_code == 429
    assert sign_in(own, PASSWORD).status_code == 302


def test_the_owners_browser_is_still_limited_by_its_own_failures(user: User) -> None:
    own = _browser_that_signed_in("198.51.100.51")
    for _ in range(5):
        sign_in(own, "wrong")
    assert sign_in(own, PASSWORD).status_code == 429


def test_a_success_on_another_account_does_not_reset_the_addresss_count(
    user: User, bob: User
) -> None:
    address = "198.51.100.52"
    for n in range(4):
        sign_in(Client(REMOTE_ADDR=address), "wrong", username=f"nobody{n}")
    assert sign_in(Client(REMOTE_ADDR=address), PASSWORD, username="bob").status_code == 302
    # Reset, the count would start again; it goes on: this fifth failure locks the address.
    assert sign_in(Client(REMOTE_ADDR=address), "wrong", username="nobody9").status_code == 429
