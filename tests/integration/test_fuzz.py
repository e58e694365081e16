"""The fuzz tier (issue 21): no client input is a server error, on PostgreSQL.

PostgreSQL is where odd text hurts (it refuses a NUL in text; an integer past 64 bits is
out of range), so this runs in the integration tier, in-process over the test client
against the real database, autocommitting as the servers do:

* **every URL pattern** the site routes (admin, API, pages; walked from the resolver, so a
  new one is fuzzed without being listed) with odd path values (dates of years 1 to 9999,
  week names, NUL and other control characters, huge numbers, malformed UUIDs, real ids
  mixed in so the views get past their lookups), odd query strings and, by GET and POST,
  odd form bodies carrying every field name the site's forms read; each by an anonymous
  visitor, a player and a staff member. Every answer is below 500, and every answer under
  ``/api/v1/`` (but the docs page) is JSON;
* **every API operation** through Schemathesis from the OpenAPI schema (valid and invalid
  bodies, paths and queries), with a player's token: never a 5xx.

``FT_FUZZ_EXAMPLES`` sets the examples per pattern and method (default 2, the CI depth:
the sweep of the issue's cases runs whatever it is); the runtime and the long run are in
docs/reliability.md ("The fuzz tier").
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ftsite.rates import Rate
from games import services
from games.daily import utc_today
from games.dates import FIRST_DAY
from games.models import User
from games.weekly import week_label, week_monday
from tests.integration.conftest import clear_celery_and_boards
from tests.support.games import game_play, game_resign

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(1800),
]

EXAMPLES = int(os.environ.get("FT_FUZZ_EXAMPLES", "2"))
PASSWORD = "correct horse battery staple"
API_DOCS = "/api/v1/docs"

# Odd text ------------------------------------------------------------------------------------

NASTY = [
    "0001-01-01", "0001-01-07", "9999-12-31", "0000-01-01", "0001-01", "0000-01", "9999-12",
    "0001-W01", "9999-W52", "2026-W00", "2026-W54", "2026-w1", "1-W01", "2026-W+1",
    "2026-02-30", "2026-13-01", "20261201", "２０２６-１２-０１", "1999-12-31", "2000-01-02",
    "\x00", "a\x00b", "\x00" * 3, "\t", "\r\n", "\x1b[31m", "\x7f", "\u202e", "\ufeff",
    "\U0001f0a1", "-1", "0", "9" * 30, "1e309", "NaN", "-0",
    "00000000-0000-0000-0000-000000000000", "not-a-uuid", "ffffffff-ffff-ffff-ffff-fffffffffffff",
    "..", ".", "%", "%00", "'", '"', "<script>", " ", "a" * 300, "null", "[]", "{}",
    "FT1-N-0000007", "FT1-J-0000007", "FT1-?-x", "forty-thieves", "undo", "resign", "s",
]  # fmt: skip

_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40
)  # a lone surrogate cannot be sent in a URL or a form at all


def _week_name(day: date) -> str:
    year, week, _ = day.isocalendar()
    return f"{year:04d}-W{week:02d}"


def odd_text() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(NASTY),
        _TEXT,
        st.dates().map(date.isoformat),
        st.dates().map(_week_name),
        st.dates().map(lambda d: f"{d.year:04d}-{d.month:02d}"),
        st.integers(min_value=-(10**30), max_value=10**30).map(str),
    )


# The URL patterns ------------------------------------------------------------------------------

_CONVERTER = re.compile(r"<(?:(?P<kind>[^>:]+):)?(?P<name>[^>]+)>")


def url_patterns() -> Iterator[tuple[str, URLPattern]]:
    """Every leaf pattern with the routes of the includes above it."""

    def walk(resolver: URLResolver, prefix: str) -> Iterator[tuple[str, URLPattern]]:
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                assert isinstance(pattern.pattern, RoutePattern), pattern  # the site's includes
                yield from walk(pattern, prefix + str(pattern.pattern))
            else:
                yield prefix, pattern

    yield from walk(get_resolver(), "")


PATTERNS = [(prefix, p) for prefix, p in url_patterns()]


def _id(item: tuple[str, URLPattern]) -> str:
    return item[0] + str(item[1].pattern)


class World:
    """What the fuzzer mixes in among odd values so the views get past their lookups."""

    def __init__(self, ada: User) -> None:
        self.game = services.game_start_practice(user=ada, code="FT1-N-0000007")
        game_play(user=ada, game_id=self.game.pk, move="s")
        finished = services.game_start_practice(user=ada, code="FT1-N-0000009")
        game_resign(user=ada, game_id=finished.pk)
        self.finished = finished
        from leaderboards.leagues.selectors import invite_token
        from leaderboards.leagues.services import league_create

        self.league = league_create(user=ada, name="Fuzz Club")
        self.invite = invite_token(league=self.league)
        today = utc_today(timezone.now())
        self.texts = [
            "ada", today.isoformat(), (today - timedelta(days=1)).isoformat(),
            week_label(week_monday(today)), f"{today:%Y-%m}", FIRST_DAY.isoformat(),
            self.invite, str(self.game.pk),
        ]  # fmt: skip
        self.ints = [self.league.pk, ada.pk, self.game.deal_id, 1]
        self.uuids = [str(self.game.pk), str(finished.pk)]

    def value(self, kind: str) -> st.SearchStrategy[str]:
        odd = odd_text().filter(lambda t: t != "")
        if kind == "int":
            huge = st.integers(min_value=0, max_value=10**40).map(str)
            return st.one_of(st.sampled_from([str(i) for i in self.ints]), huge)
        if kind == "uuid":
            return st.one_of(st.sampled_from(self.uuids), st.uuids().map(str))
        if kind == "path":
            return st.one_of(st.sampled_from(self.texts + [str(i) for i in self.ints]), odd)
        # str (the default): anything but a slash
        return st.one_of(st.sampled_from(self.texts), odd.filter(lambda t: "/" not in t))

    def path(self, prefix: str, pattern: URLPattern) -> st.SearchStrategy[str]:
        if isinstance(pattern.pattern, RegexPattern):
            regex = pattern.pattern.regex.pattern.lstrip("^")
            tail = st.from_regex(re.compile(regex), fullmatch=True).filter(lambda t: "\n" not in t)
            return tail.map(lambda t: "/" + prefix + quote(t, safe="/"))
        route = str(pattern.pattern)
        parts = _CONVERTER.split(route)
        # split() interleaves: text, kind, name, text, kind, name, ..., text
        pieces: list[st.SearchStrategy[str]] = []
        for n in range(0, len(parts), 3):
            pieces.append(st.just(parts[n]))
            if n + 1 < len(parts):
                value = self.value(parts[n + 1] or "str")
                pieces.append(value.map(lambda v: quote(v, safe="")))
        return st.tuples(*pieces).map(lambda bits: "/" + prefix + "".join(bits))


# Every field name the site's forms and views read (templates, forms, request.POST/GET).
FIELDS = [
    "username", "password", "password1", "password2", "email", "display_name", "name",
    "old_password", "new_password1", "new_password2", "code", "variant", "action", "type",
    "move", "version", "client_id", "next", "language", "a", "b", "by", "start", "page",
    "state", "dev", "decision", "note", "reason", "token",
]  # fmt: skip


def _form(world: World) -> st.SearchStrategy[dict[str, str]]:
    values = st.one_of(odd_text(), st.sampled_from(world.texts))
    return st.dictionaries(st.sampled_from(FIELDS), values, max_size=6)


# The test --------------------------------------------------------------------------------------


@pytest.fixture
def callers(user: User, db: None) -> dict[str, Client]:
    staff = User.objects.create_superuser("staff", "staff@example.org", PASSWORD)
    return {"anonymous": Client(), "ada": Client(), "staff": Client(), "_staff": staff}  # type: ignore[dict-item]


@pytest.fixture
def generous(settings: Any) -> None:
    """Limits count fuzz requests like any others; the fuzzer wants depth, not 429s."""
    for name in (
        "FT_RATE_ACCOUNT_FORMS",
        "FT_RATE_LEAGUE_ACTIONS",
        "FT_RATE_PASSWORD_RESETS",
        "FT_RATE_PASSWORD_CHANGES",
        "FT_RATE_ANALYSES",
    ):
        setattr(settings, name, Rate.parse("100000/h"))


# The cases, put in every slot of every pattern and in the query and form before
# the random examples, so they are checked on every run whatever Hypothesis draws.
KILLERS = ["0001-01-01", "0001-W01", "0001-01", "9" * 30, "a\x00b"]
QUERIES = [
    {"start": "0001-01-01", "by": "9" * 30, "a": "0001-W01", "next": "//x", "code": "0001-01"},
    {"start": "a\x00b", "name": "\x00", "username": "a\x00b"},
]


def _sweep(prefix: str, pattern: URLPattern, client: Client) -> None:
    if isinstance(pattern.pattern, RegexPattern):
        return
    route = str(pattern.pattern)
    slots = [quote(k, safe="") for k in KILLERS] if _CONVERTER.search(route) else [None]
    for slot in slots:
        path = "/" + prefix + (_CONVERTER.sub(slot.replace("\\", "\\\\"), route) if slot else route)
        for query in QUERIES if slot is None else QUERIES[:1]:
            for method in ("get", "post"):
                response = getattr(client, method)(path, query)
                assert response.status_code < 500, (method, path, query)


def test_no_url_pattern_answers_a_server_error(user: User, callers, generous) -> None:
    world = World(user)
    staff = callers.pop("_staff")
    logins = {"ada": user, "staff": staff}
    checked = 0
    try:
        for prefix, pattern in PATTERNS:
            # The admin's patterns as staff; the site's as a visitor and as a player.
            sweepers = ["staff"] if prefix.startswith("admin/") else ["anonymous", "ada"]
            for who in sweepers:
                if who in logins:
                    callers[who].force_login(logins[who])
                _sweep(prefix, pattern, callers[who])
            _fuzz_pattern(world, prefix, pattern, callers, logins)
            checked += 1
    finally:
        clear_celery_and_boards()  # the reset mails the fuzzer asked for
    assert checked == len(PATTERNS) > 100


def _fuzz_pattern(
    world: World,
    prefix: str,
    pattern: URLPattern,
    callers: dict[str, Client],
    logins: dict[str, User],
) -> None:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        path=world.path(prefix, pattern),
        query=st.dictionaries(st.sampled_from(FIELDS), odd_text(), max_size=3),
        form=_form(world),
        who=st.sampled_from(sorted(callers)),
        method=st.sampled_from(["get", "post"]),
    )
    def run(path: str, query: dict, form: dict, who: str, method: str) -> None:
        client = callers[who]
        if who in logins:
            client.force_login(logins[who])
        if method == "get":
            response = client.get(path, {**query, **form})
        else:
            target = path + ("?" + _encode(query) if query else "")
            response = client.post(target, form)
        assert response.status_code < 500, (method, path, query, form, who)
        if path.startswith("/api/v1/") and not path.startswith(API_DOCS):
            content_type = response.get("Content-Type", "")
            if response.status_code >= 400 or response.content:
                assert content_type.startswith("application/json"), (path, content_type)

    run()


def _encode(query: dict[str, str]) -> str:
    return "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in query.items())


def test_no_api_operation_answers_a_server_error(user: User, generous) -> None:
    """Schemathesis, in-process over WSGI on PostgreSQL: valid and invalid inputs to every
    operation, with a player's token, answer anything but a 5xx."""
    import schemathesis
    from django.core.wsgi import get_wsgi_application
    from hypothesis.errors import Unsatisfiable
    from schemathesis.checks import not_a_server_error

    world = World(user)
    token = services.api_token_create(user=user, name="fuzz")[1]
    headers = {"Authorization": f"Bearer {token}"}
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 10
    for operation in operations:
        strategies = [operation.as_strategy(mode) for mode in schemathesis.GenerationMode]
        if "{game_id}" in operation.path:  # also the real game, not only unknown ids
            strategies.append(operation.as_strategy(path_parameters={"game_id": world.game.pk}))
        for strategy in strategies:
            # An operation without parameters has no invalid input to make.
            with contextlib.suppress(Unsatisfiable):
                _call_each(strategy, headers, not_a_server_error)()
    clear_celery_and_boards()


def _call_each(strategy: Any, headers: dict[str, str], check: Any) -> Any:
    @settings(
        max_examples=EXAMPLES * 4,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy)
    def run(case: Any) -> None:
        response = case.call_and_validate(checks=[check], headers=headers)
        content_type = (response.headers.get("content-type") or [""])[0]
        assert content_type.startswith("application/json") or (
            response.status_code < 400 and not response.content
        ), (case.path, response.status_code, content_type)

    return run
