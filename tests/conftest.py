"""Shared fixtures for the Django test suite."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest
import time_machine
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.utils import translation
from hypothesis import settings as hypothesis_settings

from ftsite.rates import Rate
from games.models import User
from tests.support.clock import PINNED_AT
from tests.support.communicators import patient_communicators
from tests.support.messages import checked_communicators

# No test fails by the clock (issue 38): Hypothesis's per-example deadline is wall time, and
# on a loaded machine an example of a few ms took 557 ms once. Speed lives in benchmarks/.
hypothesis_settings.register_profile("no-deadline", deadline=None)
hypothesis_settings.load_profile("no-deadline")


@pytest.fixture(autouse=True)
def site_language_first() -> Iterator[None]:
    """Each test starts in the site's default language. A request through LocaleMiddleware
    leaves its language active on the thread (Django resets it only at the next request),
    so a Dutch page test made a later share-text test on the same worker speak Dutch (CI,
    session 19)."""
    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(scope="session", autouse=True)
def patient_sockets() -> Iterator[None]:
    """Tests' sockets wait up to 10 s for a message they expect, not channels' 1 s
    (tests/support/communicators.py), and check every message they receive against its
    schema (tests/support/messages.py)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        patient_communicators(monkeypatch)
        checked_communicators(monkeypatch)
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
    settings.FT_RATE_SOCKET_MESSAGES = Rate.parse("100000/min")
    settings.FT_RATE_SOCKET_PACE = Rate.parse("100000/s")
    settings.FT_RATE_HINTS = Rate.parse("100000/min")
    settings.FT_RATE_PRACTICE_STARTS = Rate.parse("100000/min")
    settings.FT_RATE_API_USER = Rate.parse("100000/min")
    settings.FT_RATE_API_ANONYMOUS = Rate.parse("100000/min")
    settings.FT_RATE_SIGNUPS_ADDRESS = Rate.parse("100000/h")
    settings.FT_RATE_SIGNUPS_DEVICE = Rate.parse("100000/h")
    settings.FT_RATE_TABLE_SETTINGS = Rate.parse("100000/h")
    settings.FT_RATE_GUESTS_ADDRESS = Rate.parse("100000/h")
    settings.FT_RATE_GUESTS_DEVICE = Rate.parse("100000/h")
    settings.FT_RATE_TABLE_RESTARTS = Rate.parse("100000/h")


@pytest.fixture(autouse=True)
def wall_clock(request: pytest.FixtureRequest) -> Iterator[time_machine.Traveller | None]:
    """The wall clock of the whole process starts at ``PINNED_AT`` (noon UTC of a
    Wednesday, the start of a minute) in every test and runs on (tests/support/clock.py):
    a day's deal is open and a rate limit's window fresh whatever the real time, so a test
    that makes a limit's N requests and expects the next one refused cannot straddle two
    windows (seen: a "2/min" test failing on a busy machine under the real clock). A test
    moves it with ``wall_clock.move_to(...)`` or ``wall_clock.shift(...)``. The browser
    and integration tiers, whose servers read the clock in other processes, keep the
    real one (``None`` here)."""
    if any(request.node.get_closest_marker(m) for m in ("browser", "integration")):
        yield None
        return
    with time_machine.travel(PINNED_AT, tick=True) as traveller:
        yield traveller


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
    """Where the unit tier's clock starts (``wall_clock``): noon UTC, the middle of a day
    whose deal is still open by that clock, which the play service checks (a ranked move
    after the close is refused)."""
    return PINNED_AT


@pytest.fixture(autouse=True)
def _fresh_live_games() -> Iterator[None]:
    """Each test starts with no game engines held in memory (``games.runtime.live``): a test's
    rolled-back games must not linger in the next one's process cache."""
    from games.runtime.live import live_clear

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


@pytest.fixture
def reserve_deal(db: None, classic_win: tuple[int, list[str]]):  # noqa: ANN201 - Callable
    """``reserve_deal()``: an unopened duel deal of the classic seed whose winning line is
    ``classic_win``'s, as the reserve holds them (the next duel draws it)."""
    from games.engine import format_code, parse_variant
    from games.models import Deal

    def make() -> Deal:
        seed, _ = classic_win
        return Deal.objects.create(
            kind=Deal.Kind.DUEL,
            variant="forty-thieves",
            seed_hex=f"{seed:032x}",
            code=f"{format_code(parse_variant('forty-thieves'), seed)}-duel-{Deal.objects.count()}",
            commitment="c" * 64,
            solver_verdict="win",
        )

    return make
