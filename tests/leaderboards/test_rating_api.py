"""The skill rating in the JSON API: ``GET /api/v1/players/{username}``, public, throttled
as the rest of the API, refusals with the API's codes."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.throttles import Rate
from leaderboards.rating.models import PlayerRating
from leaderboards.rating.selectors import rating_of

pytestmark = pytest.mark.django_db
API = "/api/v1"


def test_a_players_rating_is_public_and_as_the_scorecard_shows_it() -> None:
    model = get_user_model()
    ann = model.objects.create_user(username="ann", display_name="Ann B.")
    PlayerRating.objects.create(user=ann, mu=27.5, sigma=6.0, ordinal=27.5 - 18.0, matches=4)
    body = Client().get(f"{API}/players/ann").json()
    shown = rating_of(user_id=ann.pk)
    assert shown is not None
    assert body == {
        "username": "ann",
        "name": "Ann B.",
        "rating": {
            "value": shown.value,
            "uncertainty": shown.uncertainty,
            "provisional": True,
            "matches": 4,
            "mu": 27.5,
            "sigma": 6.0,
        },
    }
    model.objects.create_user(username="bob")
    assert Client().get(f"{API}/players/bob").json()["rating"] is None


def test_it_refuses_a_bad_username_with_404_not_found() -> None:
    model = get_user_model()
    model.objects.create_user(username="gone", is_active=False)
    model.objects.create_user(username="guest-x1", is_guest=True)
    for name in ("nobody", "gone", "guest-x1", "a%20b", "x" * 151):
        response = Client().get(f"{API}/players/{name}")
        assert response.status_code in (404, 422), name
        body = response.json()
        assert body["code"] in ("not_found", "bad_field") and body["reason"], name
    bad_token = Client().get(f"{API}/players/nobody", HTTP_AUTHORIZATION="Bearer ft_nope")
    assert bad_token.status_code == 401 and bad_token.json()["code"] == "not_authenticated"
    unknown = Client().get(f"{API}/players/nobody")
    assert unknown.status_code == 404 and unknown.json()["code"] == "not_found"


def test_looking_up_players_is_throttled_with_the_apis_limit(settings) -> None:
    settings.FT_RATE_API_ANONYMOUS = Rate.parse("3/min")
    client = Client(REMOTE_ADDR="198.51.100.77")
    for _ in range(3):
        assert client.get(f"{API}/players/nobody").status_code == 404
    refused = client.get(f"{API}/players/nobody")
    assert refused.status_code == 429
    assert refused.json()["code"] == "rate_limited" and refused["Retry-After"]
