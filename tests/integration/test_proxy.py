"""The front door: Debian's nginx, run from the repository's configuration
(``ftsite/deploy/nginx.conf.template``, the file compose.yaml's proxy renders), terminating
TLS with a certificate made for the run, in front of two live daphne processes.

Pages, the API, a sign-in and a game socket go through it; the static files come from the
proxy itself, compressed and with cache headers; the app's security headers survive it;
the client address the app sees is the one the proxy saw, never one a client claims; and
kill -9 of one web process behind it while 30 players play loses and doubles nothing (the
fault suite, ``load.faults --proxy``).
"""

from __future__ import annotations

import asyncio
import gzip
import http.client
import json
import os
import random
import re
import subprocess
import sys
import urllib.request
import uuid
from collections.abc import Iterator
from email.message import Message
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from websockets.asyncio.client import connect

from games import services
from games.models import User
from load.players import session_cookie
from tests.integration.conftest import IN_CI, server_env, start_pair
from tests.support.proxy import Proxy, nginx_available, start_proxy
from tests.support.servers import JEMALLOC, Server, free_port
from tests.support.waiting import clear_of_window_edge

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "correct horse battery staple"
# The app's own security headers: the proxy must pass each on as the app set it.
SECURITY_HEADERS = (
    "content-security-policy",
    "x-content-type-options",
    "referrer-policy",
    "x-frame-options",
    "cross-origin-opener-policy",
)
# An hour per address, for the servers behind this proxy (an hour's window, and the tests
# keep clear of its edge: a count straddling two windows would be wrong).
ANONYMOUS_API_CALLS = 3
METRICS_PORTS: dict[int, int] = {}  # a web process's port -> its metrics port


@pytest.fixture(scope="module", autouse=True)
def nginx_installed() -> None:
    if nginx_available():
        return
    if IN_CI:
        pytest.fail("nginx is missing (.ci/run installs Debian's nginx)", pytrace=False)
    pytest.skip("nginx is not installed: apt-get install nginx")


@pytest.fixture(scope="module")
def stack(
    django_db_setup: None, static_collected: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Proxy, list[Server]]]:
    """nginx in front of two daphne processes that trust only it (127.0.0.1) for the
    client's address; clients of this test connect from other loopback addresses. The
    proxy serves the static files the tier collected (``static_collected``)."""
    env = server_env() | {
        "FT_TRUSTED_PROXIES": "1",
        "FT_TRUSTED_PROXY_NETWORKS": "127.0.0.1/32",
        "FT_RATE_API_ANONYMOUS": f"{ANONYMOUS_API_CALLS}/h",
    }
    logs = tmp_path_factory.mktemp("proxy")
    metrics_ports = (free_port(), free_port())
    each = ({"FT_METRICS_PORT": str(metrics_ports[0])}, {"FT_METRICS_PORT": str(metrics_ports[1])})
    servers = list(start_pair(env, logs, each=each))
    for served, metrics_port in zip(servers, metrics_ports, strict=True):
        METRICS_PORTS[served.port] = metrics_port
    try:
        proxy = start_proxy([s.port for s in servers], ROOT / "staticfiles", logs)
        try:
            yield proxy, servers
        finally:
            proxy.stop()
    finally:
        for server in servers:
            server.stop()


def loopback() -> str:
    """A loopback address of its own for one client (the throttles count per address,
    in the shared Redis, across runs)."""
    return f"127.{random.randint(1, 254)}.{random.randint(1, 254)}.{random.randint(2, 254)}"


def request(
    stack: tuple[Proxy, list[Server]],
    path: str,
    *,
    method: str = "GET",
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
    source: str = "127.0.0.1",
    direct: Server | None = None,
) -> tuple[int, Message, bytes]:
    """One request through the proxy (over TLS), or ``direct`` to a web process, made
    from the loopback address ``source``: status, headers, body (not decoded)."""
    proxy, _ = stack
    if direct is None:
        conn: http.client.HTTPConnection = http.client.HTTPSConnection(
            "127.0.0.1", proxy.port, context=proxy.ssl_context(), source_address=(source, 0)
        )
    else:
        conn = http.client.HTTPConnection("127.0.0.1", direct.port, source_address=(source, 0))
    try:
        conn.request(method, path, body=body, headers=headers or {})
        answer = conn.getresponse()
        return answer.status, answer.headers, answer.read()
    finally:
        conn.close()


def test_pages_come_through_with_the_app_s_security_headers(stack) -> None:
    proxy, servers = stack
    status, headers, body = request(stack, "/rules/")
    assert status == 200 and b"<html" in gzip_aware(headers, body)
    _, direct, _ = request(stack, "/rules/", direct=servers[0])
    for name in SECURITY_HEADERS:
        assert headers[name] is not None and headers[name] == direct[name], name
    assert "script-src" in headers["content-security-policy"]
    assert headers["server"] == "nginx"  # no version


def gzip_aware(headers: Message, body: bytes) -> bytes:
    return gzip.decompress(body) if headers["content-encoding"] == "gzip" else body


def test_it_compresses_the_app_s_pages_and_json(stack) -> None:
    status, headers, body = request(stack, "/rules/", headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert b"</html>" in gzip.decompress(body)
    status, headers, body = request(
        stack, "/api/v1/openapi.json", headers={"Accept-Encoding": "gzip"}, source=loopback()
    )
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert json.loads(gzip.decompress(body))["openapi"].startswith("3.")


def hashed_static_file() -> tuple[str, str]:
    """A CSS file's hashed name (from collectstatic's manifest) and its unhashed name."""
    manifest = json.loads((ROOT / "staticfiles" / "staticfiles.json").read_text())
    for plain, hashed in manifest["paths"].items():
        if plain.endswith(".css"):
            return hashed, plain
    raise AssertionError("no CSS file in the static manifest")


def test_the_proxy_serves_static_files_compressed_and_cached(stack) -> None:
    hashed, plain = hashed_static_file()
    status, headers, body = request(stack, f"/static/{hashed}", headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers["content-type"] == "text/css"
    assert headers["content-encoding"] == "gzip" and "Accept-Encoding" in headers["vary"]
    on_disk = (ROOT / "staticfiles" / hashed).read_bytes()
    assert gzip.decompress(body) == on_disk
    # The proxy's own cache policy (whitenoise would say "max-age=315360000, public, ..."):
    # content-hashed names never change.
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    assert headers["x-content-type-options"] == "nosniff"
    status, headers, _ = request(stack, f"/static/{plain}")
    assert status == 200 and headers["cache-control"] == "public, max-age=60"
    assert request(stack, "/static/no-such-file.css")[0] == 404


def test_plain_http_is_sent_to_tls(stack) -> None:
    proxy, _ = stack
    conn = http.client.HTTPConnection("127.0.0.1", proxy.http_port)
    try:
        conn.request("GET", "/rules/?x=1", headers={"Host": "example.org"})
        answer = conn.getresponse()
        assert answer.status == 301
        assert answer.headers["location"] == "https://example.org/rules/?x=1"
    finally:
        conn.close()


def cookies_of(headers: Message) -> dict[str, str]:
    jar: SimpleCookie = SimpleCookie()
    for value in headers.get_all("set-cookie") or []:
        jar.load(value)
    return {name: morsel.value for name, morsel in jar.items()}


@pytest.fixture
def ada() -> User:
    """A user the servers can sign in (their password hasher is the default one, not the
    tests' fast one)."""
    user = User.objects.create(username=f"ada-{uuid.uuid4().hex[:8]}")
    user.password = PBKDF2PasswordHasher().encode(PASSWORD, "frontdoorsalt", iterations=1000)
    user.save(update_fields=["password"])
    return user


def sign_in(stack, user: User) -> str:
    """Sign in through the proxy with the site's form; returns the session cookie."""
    proxy, _ = stack
    status, headers, _ = request(stack, "/accounts/login/")
    assert status == 200
    csrf = cookies_of(headers)["csrftoken"]
    form = f"username={user.username}&password={PASSWORD.replace(' ', '+')}"
    form += f"&csrfmiddlewaretoken={csrf}"
    status, headers, body = request(
        stack,
        "/accounts/login/",
        method="POST",
        body=form.encode(),
        headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={csrf}",
            # Django's CSRF check compares the origin with https://<Host>: the proxy must
            # pass on the scheme (X-Forwarded-Proto) and the host with its port.
            "Origin": proxy.https,
            "Referer": f"{proxy.https}/accounts/login/",
        },
    )
    assert status == 302, body[:500]
    return f"sessionid={cookies_of(headers)['sessionid']}"


def play_through(
    proxy: Proxy, game_id: object, cookie: str, moves: int, *, stale: bool = False
) -> list[dict[str, Any]]:
    """Open the game's socket through the proxy (wss) and draw ``moves`` cards (then,
    with ``stale``, send one more at the first version, which is refused)."""

    async def play() -> list[dict[str, Any]]:
        async with connect(
            f"{proxy.wss}/ws/games/{game_id}/",
            origin=proxy.https,  # type: ignore[arg-type]
            additional_headers={"Cookie": cookie},
            ssl=proxy.ssl_context(),
            open_timeout=15,
        ) as ws:
            hello = json.loads(await asyncio.wait_for(ws.recv(), 15))
            assert hello["type"] == "hello" and hello["role"] == "player"
            answers = []
            for n in range(moves):
                version = hello["game"]["version"] + n
                frame = {"type": "move", "id": f"p{version}", "move": "s", "version": version}
                await ws.send(json.dumps(frame))
                answers.append(json.loads(await asyncio.wait_for(ws.recv(), 15)))
            if stale:
                version = hello["game"]["version"]
                frame = {"type": "move", "id": "stale", "move": "s", "version": version}
                await ws.send(json.dumps(frame))
                answers.append(json.loads(await asyncio.wait_for(ws.recv(), 15)))
            return answers

    return asyncio.run(play())


def test_a_player_signs_in_and_plays_over_the_proxy_s_websocket(stack, ada: User) -> None:
    proxy, _ = stack
    cookie = sign_in(stack, ada)
    game = services.game_start_practice(user=ada, code="FT1-N-0000007")
    status, _, body = request(
        stack, f"/api/v1/games/{game.pk}", headers={"Cookie": cookie}, source=loopback()
    )
    assert status == 200 and json.loads(body)["version"] == 0
    answers = play_through(proxy, game.pk, cookie, 3)
    assert [(a["type"], a["version"]) for a in answers] == [("accepted", v) for v in (1, 2, 3)]
    game.refresh_from_db()
    assert game.version == 3


# Metrics ----------------------------------------------------------------------------------

METRIC_NAMES = {
    "ft_move_ack_seconds",
    "ft_socket_connect_seconds",
    "ft_socket_connects",
    "ft_socket_disconnects",
    "ft_sockets_open",
    "ft_celery_queue_depth",
    "ft_verification_lag_seconds",
    "ft_verification_unverified",
    "ft_verification_unranked_oldest_seconds",
    "ft_solver_pool_jobs",
    "ft_database_up",
    "ft_broker_up",
}


def scrape(server: Server) -> dict[str, dict[tuple[tuple[str, str], ...], float]]:
    """A web process's metrics endpoint (its own port), as {family: {labels: value}}."""
    from prometheus_client.parser import text_string_to_metric_families

    port = METRICS_PORTS[server.port]
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    found: dict[str, dict[tuple[tuple[str, str], ...], float]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = tuple(sorted(sample.labels.items()))
            found.setdefault(sample.name, {})[labels] = sample.value
            found.setdefault(family.name, {})
    return found


def summed(servers: list[Server], name: str, **labels: str) -> float:
    """A sample's value summed over the processes (as ``sum without (instance)``)."""
    key = tuple(sorted(labels.items()))
    return sum(scrape(server).get(name, {}).get(key, 0.0) for server in servers)


def test_each_web_process_serves_its_metrics_and_a_move_moves_the_histogram(
    stack, user: User
) -> None:
    proxy, servers = stack
    for server in servers:
        found = scrape(server)
        assert set(found) >= METRIC_NAMES, METRIC_NAMES - set(found)
        queues = {dict(labels)["queue"] for labels in found["ft_celery_queue_depth"]}
        assert queues == {"celery", "solver", "fairplay", "analysis"}
        assert found["ft_database_up"] == found["ft_broker_up"] == {(): 1.0}
        # the allocator compose.yaml gives the socket processes, as the harness does
        c, objects = ("jemalloc", "malloc") if JEMALLOC.exists() else ("glibc", "pymalloc")
        assert found["ft_allocator"] == {(("c", c), ("objects", objects)): 1.0}
    acked = summed(servers, "ft_move_ack_seconds_count", kind="move")
    refused = summed(servers, "ft_refusals_total", code="stale_version")
    game = services.game_start_practice(user=user, code="FT1-N-0000007")
    answers = play_through(proxy, game.pk, session_cookie(user), 4, stale=True)
    assert answers[-1]["code"] == "stale_version"
    # Five answers (four moves, one refusal): five acks; the refusal counted by its code.
    assert summed(servers, "ft_move_ack_seconds_count", kind="move") == acked + 5
    assert summed(servers, "ft_refusals_total", code="stale_version") == refused + 1


def test_the_metrics_are_not_reachable_through_the_proxy(stack) -> None:
    status, _, _ = request(stack, "/metrics", source=loopback())
    assert status == 404


def api_calls_until_refused(stack, source: str, **kwargs: Any) -> int:
    """How many anonymous API calls from ``source`` are answered before a 429."""
    for n in range(ANONYMOUS_API_CALLS + 2):
        status = request(stack, "/api/v1/daily", source=source, **kwargs)[0]
        if status == 429:
            return n
        assert status in (200, 404), status
    return n + 1


def test_the_app_counts_the_address_the_proxy_saw(stack) -> None:
    """Through the proxy each client has its own count (the app reads the address nginx
    appended), and an address a client writes into X-Forwarded-For itself is ignored."""
    first, second = loopback(), loopback()
    clear_of_window_edge(3600, margin=30)
    assert api_calls_until_refused(stack, first) == ANONYMOUS_API_CALLS
    # The second client claims to be the first: it still has a count of its own.
    claim = {"X-Forwarded-For": first}
    assert api_calls_until_refused(stack, second, headers=claim) == ANONYMOUS_API_CALLS


def test_a_client_around_the_proxy_cannot_choose_its_address(stack) -> None:
    """Straight to a web process (its peer is not the proxy): the header is not read, so
    a client cannot escape its count by naming other addresses."""
    _, servers = stack
    client, named = loopback(), loopback()
    clear_of_window_edge(3600, margin=30)
    counted = 0
    for n in range(ANONYMOUS_API_CALLS + 1):
        claim = {"X-Forwarded-For": f"{named}, 198.51.100.{n + 1}"}
        status = request(stack, "/api/v1/daily", source=client, headers=claim, direct=servers[0])[0]
        counted += status != 429
    assert counted == ANONYMOUS_API_CALLS
    # ... and the address it named was never charged.
    assert api_calls_until_refused(stack, named) == ANONYMOUS_API_CALLS


def faults_database_url() -> str:
    from django.conf import settings

    db = settings.DATABASES["default"]
    host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    return f"postgres://{db['USER']}@{host}:{port}/{db['NAME']}_faults_it"


def test_kill_9_of_a_web_process_behind_the_proxy_loses_nothing(tmp_path: Path) -> None:
    """The fault suite's kill-asgi through the proxy: 30 players on one address; one
    daphne dies; its players reconnect through the same address to the other process and
    resume at the right version; every acknowledged action is in the log once."""
    out = tmp_path / "faults.json"
    command = [
        sys.executable, "-m", "load.faults", "--quick", "--fault", "kill-asgi", "--proxy",
        "--database-url", faults_database_url(), "--logs", str(tmp_path / "logs"),
        "--json", str(out),
    ]  # fmt: skip
    run = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=280, env=dict(os.environ)
    )
    if not out.exists():
        pytest.fail(f"the fault suite wrote no report:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}")
    (report,) = json.loads(out.read_text())
    assert report["through_proxy"] is True
    assert report["failures"] == [], run.stdout
    assert (report["lost"], report["doubled"], report["unacked_rows"]) == (0, 0, 0), report
    assert report["acked"] > 30 and report["acked"] == report["rows"], report
    # The proxy had put some players on each process; the victim's all came back.
    assert 0 < report["players_on_victim"] < 30, report
    assert report["reconnected_players"] == report["players_on_victim"], report
    assert report["rechecked"] == 30, report
    assert re.search(r"kill -9 daphne", " ".join(report["events"]))
