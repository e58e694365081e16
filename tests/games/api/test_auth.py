"""The HTTP JSON API's callers: private operations answer 401 without credentials and a bad
token is refused even on public ones; API tokens are created by a session, listed, revoked,
capped per user, note their last use and stop working for an inactive user; a session
needs the CSRF token on unsafe methods, a bearer token does not.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.accounts.tokens import API_TOKENS_PER_USER
from games.models import ApiToken, Game, User

from ..conftest import API, Api, assert_refused, token_for

pytestmark = pytest.mark.django_db


def test_without_credentials_the_private_operations_answer_401(anonymous, practice) -> None:
    for response in (
        anonymous.get("/games"),
        anonymous.post("/games", {"mode": "daily"}),
        anonymous.post(f"/games/{practice['id']}/actions", {"type": "move", "move": "s"}),
        anonymous.get("/tokens"),
        anonymous.post("/tokens", {"name": "x"}),
    ):
        refusal = assert_refused(response, 401, "not_authenticated")
        assert "Bearer" in refusal["reason"] and response["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize("header", ["Bearer nonsense", "Bearer ft_forged", "Bearer ", "Bearer é"])
def test_a_bad_token_is_401_even_on_public_operations(header) -> None:
    client = Client(headers={"Authorization": header})
    assert_refused(client.get(f"{API}/games"), 401, "not_authenticated")
    assert_refused(client.get(f"{API}/daily"), 401, "not_authenticated")
    refusal = client.post(f"{API}/games", {"mode": "daily"}, content_type="application/json")
    assert assert_refused(refusal, 401, "not_authenticated")["reason"].startswith("the API token")


def test_a_token_is_created_by_session_used_listed_and_revoked(user) -> None:
    site = Client()
    site.force_login(user)
    response = site.post(f"{API}/tokens", {"name": "my bot"}, content_type="application/json")
    assert response.status_code == 201
    created = response.json()
    raw = created["token"]
    assert raw.startswith("ft_") and len(raw) > 40 and created["name"] == "my bot"
    assert raw not in "".join(ApiToken.objects.values_list("digest", flat=True))

    bot = Api(Client(), raw)
    assert bot.post("/games", {"mode": "practice"}).status_code == 201
    listed = bot.get("/tokens").json()
    assert [t["id"] for t in listed] == [created["id"]]
    assert listed[0]["prefix"] == raw[:8] and listed[0]["last_used_at"] is not None
    assert raw not in json.dumps(listed)

    assert bot.delete(f"/tokens/{created['id']}").status_code == 204
    assert_refused(bot.get("/games"), 401, "not_authenticated")
    assert site.get(f"{API}/tokens").json() == []


def test_a_token_cannot_mint_tokens_nor_revoke_anothers(user, bob) -> None:
    bot = Api(Client(), token_for(user))
    assert_refused(bot.post("/tokens", {"name": "child"}), 401, "not_authenticated")
    bobs_token, _ = services.api_token_create(user=bob, name="bob's")
    assert_refused(bot.delete(f"/tokens/{bobs_token.pk}"), 404, "not_found")
    assert ApiToken.objects.filter(user=bob).exists()
    assert_refused(bot.delete("/tokens/0"), 422, "bad_field")


def test_a_token_notes_its_last_use_at_most_once_a_minute(user) -> None:
    token, raw = services.api_token_create(user=user, name="")
    start = timezone.now()
    assert services.api_token_authenticate(raw=raw, now=start) == user
    services.api_token_authenticate(raw=raw, now=start + timedelta(seconds=30))
    token.refresh_from_db()
    assert token.last_used_at == start
    services.api_token_authenticate(raw=raw, now=start + timedelta(seconds=61))
    token.refresh_from_db()
    assert token.last_used_at == start + timedelta(seconds=61)


def test_an_inactive_users_token_stops_working(user) -> None:
    raw = token_for(user)
    User.objects.filter(pk=user.pk).update(is_active=False)
    assert services.api_token_authenticate(raw=raw) is None


def test_a_session_needs_the_csrf_token_on_unsafe_methods_but_not_to_read(user) -> None:
    site = Client(enforce_csrf_checks=True)
    site.force_login(user)
    assert site.get(f"{API}/games").status_code == 200
    refused = site.post(f"{API}/games", {"mode": "daily"}, content_type="application/json")
    refusal = assert_refused(refused, 403, "csrf_failed")
    assert "X-CSRFToken" in refusal["reason"]
    assert not Game.objects.exists()

    secret = "k" * 32  # any 32-character secret: cookie and header must agree
    site.cookies["csrftoken"] = secret
    response = site.post(
        f"{API}/games",
        {"mode": "daily"},
        content_type="application/json",
        headers={"X-CSRFToken": secret},
    )
    assert response.status_code == 201


def test_a_bearer_token_needs_no_csrf_token(user) -> None:
    client = Client(
        enforce_csrf_checks=True, headers={"Authorization": f"Bearer {token_for(user)}"}
    )
    response = client.post(f"{API}/games", {"mode": "daily"}, content_type="application/json")
    assert response.status_code == 201


def test_an_anonymous_post_is_told_to_authenticate_not_about_csrf() -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post(f"{API}/games", {"mode": "daily"}, content_type="application/json")
    assert_refused(response, 401, "not_authenticated")


def test_tokens_are_capped_per_user(user) -> None:
    for _ in range(API_TOKENS_PER_USER):
        token_for(user)
    site = Client()
    site.force_login(user)
    response = site.post(f"{API}/tokens", {}, content_type="application/json")
    assert_refused(response, 409, "conflict")
    too_long = site.post(f"{API}/tokens", {"name": "n" * 61}, content_type="application/json")
    assert_refused(too_long, 422, "bad_field")
