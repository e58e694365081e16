"""Every way in that a client can repeat has a limit with a documented refusal and a retry
hint: socket messages across all of a user's sockets, hints, practice starts, API calls.
Also the API's JSON answers for unknown paths and methods, and the security headers."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client

from games import services
from games.models import User
from games.throttles import Pace, Rate, RateLimited
from tests.support.fresh_settings import setting_in_new_process
from tests.support.sockets import ask, db, join, run_async

from .conftest import API, Api, practice_game, token_for

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def test_a_bad_rate_in_the_environment_stops_start_up() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env={"DJANGO_SETTINGS_MODULE": "ftsite.settings", "FT_RATE_HINTS": "lots", "PATH": ""},
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0 and "FT_RATE_HINTS='lots' is not a rate" in done.stderr


# Rates are parsed once, with the settings -------------------------------------------------


@pytest.fixture
def no_rate_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on any parse of a rate's text fails (the settings hold parsed rates)."""

    def refuse(cls: type, text: str) -> Rate:
        raise AssertionError(f"a request parsed the rate {text!r}")

    monkeypatch.setattr(Rate, "parse", classmethod(refuse))


def test_no_api_call_parses_a_rate(settings, no_rate_parsed) -> None:
    settings.FT_RATE_API_ANONYMOUS = Rate(2, 60)  # as the settings hold it
    client = Client(REMOTE_ADDR="198.51.100.77")
    url = f"{API}/games/00000000-0000-0000-0000-000000000000"
    assert [client.get(url).status_code for _ in range(3)] == [404, 404, 429]


@pytest.mark.django_db(transaction=True)
@run_async
async def test_no_socket_message_parses_a_rate(user, settings, no_rate_parsed) -> None:
    settings.FT_RATE_SOCKET_MESSAGES = Rate(2, 60)
    settings.FT_RATE_SOCKET_PACE = Rate(100, 1)
    game = await db(practice_game)(user)
    ws, _ = await join(game.pk, user)
    assert [(await ask(ws, {"type": "ping"})).get("code") for _ in range(3)] == [
        None,
        None,
        "rate_limited",
    ]
    await ws.disconnect()


# Socket messages, across every socket of the user ---------------------------------------


@pytest.mark.django_db(transaction=True)
@run_async
async def test_it_limits_messages_across_all_of_a_users_sockets(user, settings) -> None:
    settings.FT_RATE_SOCKET_MESSAGES = Rate.parse("5/min")
    game = await db(practice_game)(user)
    first, _ = await join(game.pk, user)
    second, _ = await join(game.pk, user)
    for ws in (first, second, first, second, first):
        assert await ask(ws, {"type": "ping"}) == {"type": "pong"}
    refused = await ask(second, {"type": "move", "id": "m1", "move": "s"})
    assert (refused["type"], refused["code"], refused["id"]) == ("refused", "rate_limited", "m1")
    assert 1 <= refused["retry_after"] <= 61 and "try again" in refused["reason"]
    # Refused, not closed: the socket still answers once the window allows.
    assert (await ask(first, {"type": "ping"}))["code"] == "rate_limited"
    await first.disconnect()
    await second.disconnect()


# Hints and practice starts ----------------------------------------------------------------


def test_it_limits_hints_per_player(user: User, settings) -> None:
    settings.FT_RATE_HINTS, settings.FT_HINT_SECONDS = Rate.parse("2/min"), 0.05
    game = practice_game(user)
    for _ in range(2):
        services.game_hint(user=user, game_id=game.pk)
    with pytest.raises(RateLimited) as limited:
        services.game_hint(user=user, game_id=game.pk)
    assert limited.value.code == "rate_limited" and limited.value.status == 429
    api = Api(Client(), token_for(user))
    response = api.post(f"/games/{game.pk}/hint")
    assert response.status_code == 429 and response.json()["code"] == "rate_limited"
    assert int(response["Retry-After"]) == response.json()["retry_after"] >= 1


def test_it_limits_practice_games_started_per_player(user: User, bob: User, settings) -> None:
    settings.FT_RATE_PRACTICE_STARTS = Rate.parse("3/min")
    api = Api(Client(), token_for(user))
    for _ in range(3):
        assert api.post("/games", {"mode": "practice"}).status_code == 201
    refused = api.post("/games", {"mode": "practice"})
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert "practice games started" in refused.json()["reason"]
    # Counted per player: bob is not held back by ada.
    assert Api(Client(), token_for(bob)).post("/games", {"mode": "practice"}).status_code == 201


def test_it_limits_ranked_starts_and_resumes_apart_from_practice(
    client: Client, user: User, settings
) -> None:
    settings.FT_RATE_PRACTICE_STARTS = Rate.parse("3/min")
    api = Api(Client(), token_for(user))
    assert api.post("/games", {"mode": "practice"}).status_code == 201
    first = services.game_start_daily(user=user)
    for _ in range(2):  # resuming is counted as starting is
        assert services.game_start_daily(user=user) == first
    with pytest.raises(RateLimited, match="ranked games started or resumed"):
        services.game_start_daily(user=user)
    with pytest.raises(RateLimited):
        services.game_start_weekly(user=user)
    # The page's button says so instead of failing: a message on the home page.
    client.force_login(user)
    response = client.post("/play/daily/", follow=True)
    assert response.status_code == 200 and b"ranked games started or resumed" in response.content


# API calls ----------------------------------------------------------------------------------


def test_it_limits_anonymous_api_calls_per_address_without_keeping_the_address(settings) -> None:
    settings.FT_RATE_API_ANONYMOUS = Rate.parse("3/min")
    client = Client(REMOTE_ADDR="198.51.100.23")
    for _ in range(3):
        assert client.get(f"{API}/games/00000000-0000-0000-0000-000000000000").status_code == 404
    refused = client.get(f"{API}/games/00000000-0000-0000-0000-000000000000")
    assert refused.status_code == 429 and refused["Content-Type"].startswith("application/json")
    body = refused.json()
    assert body["code"] == "rate_limited" and body["retry_after"] == int(refused["Retry-After"])
    # Another address has its own count; no key in the cache holds an address.
    assert Client(REMOTE_ADDR="203.0.113.9").get(f"{API}/daily").status_code != 429
    keys = " ".join(str(k) for k in cache._cache)  # the local-memory cache of the tests
    assert "198.51.100.23" not in keys and "ft:throttle:api-anon" in keys


def test_behind_the_proxy_each_client_address_has_its_own_api_count(settings) -> None:
    settings.FT_RATE_API_ANONYMOUS = Rate.parse("2/min")
    settings.FT_TRUSTED_PROXIES = 1
    proxy = Client(REMOTE_ADDR="10.0.0.5")  # the proxy, in a trusted network
    url = f"{API}/games/00000000-0000-0000-0000-000000000000"
    for _ in range(2):
        assert proxy.get(url, HTTP_X_FORWARDED_FOR="198.51.100.40").status_code == 404
    assert proxy.get(url, HTTP_X_FORWARDED_FOR="198.51.100.40").status_code == 429
    # Another client of the same proxy has its own count; a forged entry on the left of
    # the header (the client's own claim) changes nothing.
    assert proxy.get(url, HTTP_X_FORWARDED_FOR="198.51.100.41").status_code == 404
    forged = "203.0.113.99, 198.51.100.40"
    assert proxy.get(url, HTTP_X_FORWARDED_FOR=forged).status_code == 429


def test_it_refuses_to_let_a_client_around_the_proxy_pick_its_address(settings) -> None:
    """A client that reaches the web process directly (not from a trusted network) is
    counted by its own address whatever X-Forwarded-For it sends."""
    settings.FT_RATE_API_ANONYMOUS = Rate.parse("2/min")
    settings.FT_TRUSTED_PROXIES = 1
    direct = Client(REMOTE_ADDR="198.51.100.50")
    url = f"{API}/games/00000000-0000-0000-0000-000000000000"
    for n in range(2):
        assert direct.get(url, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}").status_code == 404
    assert direct.get(url, HTTP_X_FORWARDED_FOR="203.0.113.77").status_code == 429


def test_it_limits_a_signed_in_callers_api_calls(user: User, settings) -> None:
    settings.FT_RATE_API_USER = Rate.parse("2/min")
    api = Api(Client(), token_for(user))
    assert [api.get("/tokens").status_code for _ in range(3)] == [200, 200, 429]


# JSON everywhere under /api/v1/ --------------------------------------------------------------


def test_an_unknown_api_path_answers_json_404() -> None:
    response = Client().get(f"{API}/no/such/thing")
    assert response.status_code == 404 and response["Content-Type"] == "application/json"  # noqa: E501
    assert response.json()["code"] == "not_found" and "/api/v1/docs" in response.json()["reason"]


def test_a_method_an_operation_does_not_take_answers_json_405() -> None:
    response = Client().put(f"{API}/daily", data="{}", content_type="application/json")
    assert response.status_code == 405 and response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == "method_not_allowed" and "GET" in response["Allow"]
    assert "PUT is not allowed" in body["reason"]


def test_pages_outside_the_api_keep_their_html_404(client: Client) -> None:
    response = client.get("/no/such/page/")
    assert response.status_code == 404 and "text/html" in response["Content-Type"]


# Headers ------------------------------------------------------------------------------------


def test_pages_carry_a_content_security_policy_without_inline_script(client: Client) -> None:
    policy = client.get("/rules/")["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["script-src"] == "'self'" and "unsafe" not in policy
    assert directives["frame-ancestors"] == "'none'" and directives["object-src"] == "'none'"


def test_no_page_has_an_inline_script() -> None:
    """Inline scripts would be blocked by the policy: none in any template (JSON data in
    ``type="application/json"`` is not script)."""
    offenders = []
    for template in (ROOT / "templates").rglob("*.html"):
        text = template.read_text()
        for chunk in text.split("<script")[1:]:
            tag = chunk.split(">", 1)[0]
            if "src=" not in tag and "application/json" not in tag:
                offenders.append(str(template.relative_to(ROOT)))
    assert offenders == []


def test_hsts_is_sent_when_the_site_is_served_over_https() -> None:
    def hsts(**env: str) -> str:
        return setting_in_new_process("SECURE_HSTS_SECONDS", **env)

    assert hsts(DJANGO_SECURE_COOKIES="true") == "31536000"
    assert hsts(DJANGO_SECURE_COOKIES="false") == "0"  # Django's default: no header


def test_the_api_docs_page_is_left_out_of_the_policy(client: Client) -> None:
    assert "Content-Security-Policy" not in client.get(f"{API}/docs")


def test_the_refusal_of_a_rate_limit_is_json_with_its_retry(user: User, settings) -> None:
    settings.FT_RATE_API_USER = Rate.parse("1/min")
    api = Api(Client(), token_for(user))
    api.get("/tokens")
    body = json.loads(api.get("/tokens").content)
    assert set(body) == {"code", "reason", "retry_after"}


def test_no_template_has_an_inline_style() -> None:
    """The policy allows styles from the site's sheets only: no style attribute in markup
    (scripts may still set properties through the DOM, which the policy allows)."""
    offenders = [
        str(t.relative_to(ROOT))
        for t in (ROOT / "templates").rglob("*.html")
        if ' style="' in t.read_text() or "<style" in t.read_text()
    ]
    assert offenders == []


def test_a_sockets_allowance_takes_units_in_batches_and_the_shared_limit_still_holds() -> None:
    from games.throttles import Allowance, throttle_reserve

    rate = Rate.parse("200/h")  # an hour's window: the test never straddles two
    sockets = [
        Allowance.for_rate(name="t-batch", rate=rate, ident=f"u{uuid.uuid4().hex}", what="x")
    ]
    sockets.append(Allowance.for_rate(name="t-batch", rate=rate, ident=sockets[0].ident, what="x"))
    assert sockets[0].batch == 10  # one cache round trip per ten messages
    served = 0
    with pytest.raises(RateLimited):
        while True:
            allowance = sockets[served % 2]
            if allowance.needs_refill(now=time.time()):
                throttle_reserve(allowance)
            allowance.spend()
            served += 1
    # Every unit was counted in the shared cache: two sockets together got the limit, no more.
    assert served <= 200 and served >= 200 - 2 * (sockets[0].batch - 1)
    # A small limit is counted one by one.
    assert Allowance.for_rate(name="n", rate=Rate.parse("5/min"), ident="i", what="x").batch == 1


# A socket's pace (the bucket itself; through the socket: test_consumer_pace.py) -----------


def test_a_pace_lets_a_burst_through_then_refills_at_its_rate() -> None:
    pace = Pace(rate=Rate.parse("40/5s"))  # 40 at once, then 8 a second
    assert [pace.take(now=0.0) for _ in range(40)] == [0.0] * 40
    assert pace.take(now=0.0) == 0.13  # an eighth of a second, rounded up
    assert pace.take(now=0.125) == 0.0
    # Ten taps a second for ten seconds never wait: 40 + 8 a second covers 100.
    fresh = Pace(rate=Rate.parse("40/5s"))
    assert all(fresh.take(now=n / 10) == 0.0 for n in range(100))


def test_a_pace_counts_messages_before_the_wait_as_strikes_until_one_is_on_time() -> None:
    pace = Pace(rate=Rate(1, 1))
    assert pace.take(now=0.0) == 0.0 and pace.take(now=0.0) == 1.0
    assert [pace.early(now=t) for t in (0.1, 0.5, 0.99)] == [True, True, True]
    assert pace.strikes == 3
    assert not pace.early(now=1.0) and pace.take(now=1.0) == 0.0
    assert pace.strikes == 0
    pace.refuse_until(30.0)  # another limit's wait (the user's) counts as well
    assert pace.early(now=29.0) and pace.strikes == 1
