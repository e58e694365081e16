"""Shared helpers and fixtures for the games tests: the HTTP API client and the socket game.

The ``test_api_*`` modules call the API through :class:`Api` (a bearer token, a session or
nobody), with ``ada``'s and an ``anonymous`` caller and ada's ``practice`` game as
fixtures; the ``test_consumer_*`` modules start a practice game with ``practice_game`` and
empty the channel layer after each test (``empty_channel_layer``). Plain helpers are
imported with ``from .conftest import ...``.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.test import Client

from games import services
from games.models import Game, User

# The HTTP API ---------------------------------------------------------------------------

API = "/api/v1"


class Api:
    """A JSON client for one caller: a bearer token, a session, or nobody."""

    def __init__(self, client: Client, token: str | None = None) -> None:
        self.client = client
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}

    def get(self, path: str, **params: Any) -> Any:
        return self.client.get(API + path, params, headers=self.headers)

    def post(self, path: str, body: Any = None, *, raw: str | None = None) -> Any:
        data = raw if raw is not None else ("" if body is None else json.dumps(body))
        return self.client.post(
            API + path, data, content_type="application/json", headers=self.headers
        )

    def delete(self, path: str) -> Any:
        return self.client.delete(API + path, headers=self.headers)


def token_for(user: User, name: str = "bot") -> str:
    return services.api_token_create(user=user, name=name)[1]


@pytest.fixture
def ada(user: User) -> Api:
    return Api(Client(), token_for(user))


@pytest.fixture
def anonymous() -> Api:
    return Api(Client())


@pytest.fixture
def practice(ada: Api) -> dict[str, Any]:
    """ada's practice game of deal 7, whose first column shows the king of clubs."""
    response = ada.post("/games", {"mode": "practice", "code": "FT1-N-0000007"})
    assert response.status_code == 201
    return response.json()


def assert_refused(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == code and body["reason"], body
    return body


# The websocket --------------------------------------------------------------------------

PRACTICE_CODE = "FT1-N-0000007"


@pytest.fixture
def empty_channel_layer() -> Iterator[None]:
    """Nothing a test sent through the channel layer is left for the next one."""
    yield
    async_to_sync(get_channel_layer().flush)()


def practice_game(user: User) -> Game:
    return services.game_start_practice(user=user, code=PRACTICE_CODE)


# Sightings (test_sightings.py, test_sightings_recorded.py) ------------------------------

UA = "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0"
OTHER_UA = "Mozilla/5.0 (Macintosh) Safari/18.0"


def a_token() -> str:
    """A well-formed device token, as the middleware makes them."""
    return secrets.token_urlsafe(24)


@pytest.fixture
def empty_cache() -> None:
    """The API's once-per-interval memory lives in the cache, which outlives a test."""
    cache.clear()


@pytest.fixture
def records(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The calls the middleware makes to ``sighting_record`` (which still runs)."""
    calls: list[dict[str, Any]] = []
    real = services.sighting_record

    def spy(**kwargs: Any) -> int:
        calls.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(services, "sighting_record", spy)
    return calls


def kinds_of(user: User) -> list[str]:
    return sorted(user.sightings.values_list("kind", flat=True))


# Deals ----------------------------------------------------------------------------------


def closed_daily_deal(day: Any) -> Any:
    """A closed, revealed daily deal of ``day`` (no winning line needed here)."""
    from games.daily import day_end, day_start
    from games.models import Deal

    return Deal.objects.create(
        kind=Deal.Kind.DAILY,
        variant="forty-thieves",
        day=day,
        seed_hex=f"{7:032x}",
        code=f"FT1-N-0000007-{day.isoformat()}",
        opens_at=day_start(day),
        closes_at=day_end(day),
        revealed_at=day_end(day),
    )
