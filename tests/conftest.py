"""Shared fixtures for the Django test suite."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, time

import pytest
from django.contrib.auth import get_user_model

from games.models import User


@pytest.fixture(autouse=True)
def fast_password_hashing(settings) -> None:
    """Test users need no slow, secure hash; this halves the suite's time."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def solver_off(settings) -> None:
    """No solver work unless a test asks for it: daily deals open uncertified (candidate 0,
    unrated) and practice deals are not rated, so the suite stays fast. Tests of the
    solver's wiring turn these on with small budgets."""
    settings.FT_DAILY_CERTIFY_SECONDS = 0
    settings.FT_DAILY_CERTIFY_NODES = 0
    settings.FT_RATE_SECONDS = 0
    settings.FT_RATE_PRACTICE_ON_START = False
    settings.FT_FORESIGHT_SECONDS = 0


@pytest.fixture(autouse=True)
def generous_rate_limits(settings) -> None:
    """Tests call the API and sockets far faster than any person; the rate limits are
    tested on their own (tests/games/test_throttles.py), with their counters fresh."""
    from django.core.cache import cache

    cache.clear()
    settings.FT_RATE_SOCKET_MESSAGES = "100000/min"
    settings.FT_RATE_HINTS = "100000/min"
    settings.FT_RATE_PRACTICE_STARTS = "100000/min"
    settings.FT_RATE_API_USER = "100000/min"
    settings.FT_RATE_API_ANONYMOUS = "100000/min"


@pytest.fixture(autouse=True)
def pace_check_off(settings) -> None:
    """Tests play whole games in milliseconds, which the fair-play pace check rightly holds
    as machine play; tests of that check (tests/leaderboards/test_fairplay*.py) turn it on."""
    settings.FT_PACE_CHECK = False


@pytest.fixture
def user(db: None) -> User:
    """An ordinary registered player."""
    model: type[User] = get_user_model()  # type: ignore[assignment]
    return model.objects.create_user(
        username="ada", email="ada@example.org", password="correct horse battery staple"
    )


@pytest.fixture
def bob(db: None) -> User:
    """A second player, who must not touch ada's games."""
    model: type[User] = get_user_model()  # type: ignore[assignment]
    return model.objects.create_user(username="bob", password="correct horse battery staple")


@pytest.fixture
def now() -> datetime:
    """Noon (UTC) of the real today: the middle of a day whose deal is still open by the
    real clock, which the play service checks (a ranked move after the close is refused)."""
    return datetime.combine(datetime.now(UTC).date(), time(12), tzinfo=UTC)


@pytest.fixture(autouse=True)
def _fresh_live_games() -> Iterator[None]:
    """Each test starts with no game engines held in memory (``games.live``): a test's
    rolled-back games must not linger in the next one's process cache."""
    from games.live import live_clear

    live_clear()
    yield
    live_clear()


@pytest.fixture
def carol(db: None) -> User:
    """A third player: outside the leagues ada and bob share, unless a test adds her."""
    model: type[User] = get_user_model()  # type: ignore[assignment]
    return model.objects.create_user(username="carol", password="correct horse battery staple")


@pytest.fixture
def make_league(db: None):  # noqa: ANN201 - Callable[..., tuple[League, str]]
    """``make_league(owner, *members, name=...)``: a league made through the service (so
    its owner is a member), the others joined by its invite; returns (league, token)."""
    from leaderboards.leagues.services import league_create, league_join

    def make(owner: User, *members: User, name: str = "Thursday Club") -> tuple[object, str]:
        from leaderboards.leagues.selectors import invite_token

        league = league_create(user=owner, name=name)
        token = invite_token(league=league)
        for member in members:
            league_join(user=member, token=token)
        return league, token

    return make
