"""Shared fixtures for the Django test suite."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, time

import pytest
from django.contrib.auth import get_user_model

from games.models import User
from tests.support.clock import pin_throttle_clock
from tests.support.communicators import patient_communicators


@pytest.fixture(scope="session", autouse=True)
def patient_sockets() -> Iterator[None]:
    """Tests' sockets wait up to 10 s for a message they expect, not channels' 1 s
    (tests/support/communicators.py)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        patient_communicators(monkeypatch)
        yield


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

    from games.privacy.services import sightings_forget_recent

    cache.clear()
    sightings_forget_recent()  # the markers this process keeps besides the cache's
    settings.FT_RATE_SOCKET_MESSAGES = "100000/min"
    settings.FT_RATE_SOCKET_PACE = "100000/s"
    settings.FT_RATE_HINTS = "100000/min"
    settings.FT_RATE_PRACTICE_STARTS = "100000/min"
    settings.FT_RATE_API_USER = "100000/min"
    settings.FT_RATE_API_ANONYMOUS = "100000/min"
    settings.FT_RATE_SIGNUPS_ADDRESS = "100000/h"
    settings.FT_RATE_SIGNUPS_DEVICE = "100000/h"
    settings.FT_RATE_TABLE_SETTINGS = "100000/h"
    settings.FT_RATE_GUESTS_ADDRESS = "100000/h"
    settings.FT_RATE_GUESTS_DEVICE = "100000/h"
    settings.FT_RATE_TABLE_RESTARTS = "100000/h"


@pytest.fixture(autouse=True)
def pinned_throttle_clock(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rate limits count in fixed windows of the clock, so a test that makes a limit's
    N requests and expects the next one refused would pass if its requests straddled two
    windows (seen: a "2/min" test failing on a busy machine). The limits' clock is pinned
    for the whole test (``pin_throttle_clock``). Tests of windows that roll over
    (``real_throttle_clock``) and the browser and integration tiers, whose servers read the
    clock in other threads or processes, keep the real one."""
    if any(
        request.node.get_closest_marker(m)
        for m in ("real_throttle_clock", "browser", "integration")
    ):
        return
    pin_throttle_clock(monkeypatch)


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
    """Each test starts with no game engines held in memory (``games.realtime.live``): a test's
    rolled-back games must not linger in the next one's process cache."""
    from games.realtime.live import live_clear

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


# Deals of a given day with a known winning line ------------------------------------------

#: A classic (forty-thieves) seed the solver wins in a fraction of a second.
CLASSIC_WIN_SEED = 2


@pytest.fixture(scope="session")
def classic_win() -> tuple[int, list[str]]:
    """(seed, moves): a winning line of the classic deal :data:`CLASSIC_WIN_SEED`."""
    from games.engine import GameState
    from games.solver import solve

    # a node budget, not the clock: the restarts win it in about 12,000 positions,
    # however loaded the machine (a 10 s clock ran out at load 25)
    game = GameState.from_seed(CLASSIC_WIN_SEED, "forty-thieves", undo_limit=0)
    result = solve(game, max_seconds=600, max_nodes=200_000)
    assert result.verdict == "win"
    return CLASSIC_WIN_SEED, list(result.line)


@pytest.fixture
def make_daily_deal(db: None, classic_win: tuple[int, list[str]]):
    """``make_daily_deal(day, closed=True, revealed=True)``: the classic daily deal of
    ``day`` made directly with :data:`CLASSIC_WIN_SEED` (so a winning line is known), its
    close at the end of the day; ``revealed`` as the close's reveal leaves it."""
    from games.daily import day_end, day_start
    from games.engine import format_code, parse_variant
    from games.engine.deal import commitment
    from games.models import Deal

    def make(day, *, revealed: bool = True) -> Deal:
        seed, line = classic_win
        code = format_code(parse_variant("forty-thieves"), seed)
        return Deal.objects.create(
            kind=Deal.Kind.DAILY,
            variant="forty-thieves",
            day=day,
            seed_hex=f"{seed:032x}",
            code=f"{code}-{day.isoformat()}"[:48],  # codes are unique; the seed is what plays
            salt="00" * 16,
            commitment=commitment(code, "00" * 16),
            opens_at=day_start(day),
            closes_at=day_end(day),
            revealed_at=day_end(day) if revealed else None,
            solver_verdict="win",
            solution=" ".join(line),
            difficulty=2,
        )

    return make


@pytest.fixture
def make_weekly_deal(db: None):
    """``make_weekly_deal(monday, variant, seed, revealed=False)``: the weekly challenge of
    the week starting ``monday`` made directly with a chosen deal (a known winning log's),
    open from the Monday to the next, 00:00 UTC."""
    from games.engine import format_code, parse_variant
    from games.engine.deal import commitment
    from games.models import Deal
    from games.weekly import week_end, week_start

    def make(monday, variant: str, seed: int, *, revealed: bool = False) -> Deal:
        code = format_code(parse_variant(variant), seed)
        return Deal.objects.create(
            kind=Deal.Kind.WEEKLY,
            variant=parse_variant(variant).spec,
            day=monday,
            seed_hex=f"{seed:032x}",
            code=f"{code}-W{monday.isoformat()}"[:48],  # unique; the seed is what plays
            salt="11" * 16,
            commitment=commitment(code, "11" * 16),
            opens_at=week_start(monday),
            closes_at=week_end(monday),
            revealed_at=week_end(monday) if revealed else None,
            solver_verdict="win",
            solution="s",
            difficulty=1,
        )

    return make
