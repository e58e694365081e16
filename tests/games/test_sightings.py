"""Fair-play sightings: keyed digests of the device cookie and of the network+browser, recorded
for signed-in users (pages, the API and the game socket), linking accounts, pruned after
``FT_SIGHTING_DAYS`` days; and the privacy page that says so."""

from __future__ import annotations

import ipaddress
import secrets
from datetime import datetime, timedelta
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ftsite.asgi import application
from games import middleware, selectors, services, tasks
from games.middleware import DEVICE_COOKIE
from games.models import Sighting, User
from games.sightings import (
    address_digest,
    address_network,
    client_address,
    device_digest,
    network_digest,
)
from tests.support.sockets import ORIGIN, ask, cookie_of, db, receive, run_async

from .conftest import Api, practice_game, token_for

UA = "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0"
OTHER_UA = "Mozilla/5.0 (Macintosh) Safari/18.0"


def a_token() -> str:
    return secrets.token_urlsafe(24)


@pytest.fixture(autouse=True)
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


# The digests -----------------------------------------------------------------------------


def test_it_keys_the_digests_with_the_server_secret(settings) -> None:
    token = a_token()
    settings.FT_PRIVACY_SECRET = "one secret"
    device, network = (
        device_digest(token=token),
        network_digest(address="203.0.113.7", user_agent=UA),
    )
    settings.FT_PRIVACY_SECRET = "another secret"
    assert device_digest(token=token) != device
    assert network_digest(address="203.0.113.7", user_agent=UA) != network
    assert len(device) == 64 and int(device, 16) >= 0


def test_it_never_puts_the_raw_input_in_a_digest() -> None:
    token = a_token()
    digest = device_digest(token=token)
    assert token not in digest
    network = network_digest(address="203.0.113.7", user_agent="Firefox")
    assert network is not None
    assert "203.0.113" not in network and "Firefox" not in network


def test_it_gives_each_kind_its_own_domain() -> None:
    """The same text digested as a device token and as a network never match."""
    assert device_digest(token="203.0.113.0/24\x00") != network_digest(
        address="203.0.113.1", user_agent=""
    )


def test_it_groups_ipv4_addresses_by_their_24_bit_network() -> None:
    same = network_digest(address="203.0.113.7", user_agent=UA)
    assert network_digest(address="203.0.113.250", user_agent=UA) == same
    assert network_digest(address="203.0.114.7", user_agent=UA) != same
    assert network_digest(address="::ffff:203.0.113.9", user_agent=UA) == same
    assert address_network(address="203.0.113.7") == "203.0.113.0/24"


def test_it_groups_ipv6_addresses_by_their_64_bit_network() -> None:
    same = network_digest(address="2001:db8:1:2::1", user_agent=UA)
    assert network_digest(address="2001:db8:1:2:ffff::9", user_agent=UA) == same
    assert network_digest(address="2001:db8:1:3::1", user_agent=UA) != same
    assert address_network(address="2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64"


def test_it_links_a_network_only_with_the_same_browser() -> None:
    assert network_digest(address="203.0.113.7", user_agent=UA) != network_digest(
        address="203.0.113.7", user_agent=OTHER_UA
    )


@pytest.mark.parametrize("address", ["", "not an address", "203.0.113", "1.2.3.4:80", "[::1]"])
def test_it_has_no_network_digest_for_an_unparseable_address(address: str) -> None:
    assert network_digest(address=address, user_agent=UA) is None


def test_it_takes_the_client_address_from_the_trusted_proxies_only() -> None:
    forwarded = "6.6.6.6, 203.0.113.7, 10.0.0.1"
    assert client_address(remote="10.0.0.2", forwarded_for=forwarded, proxies=0) == "10.0.0.2"
    assert client_address(remote="10.0.0.2", forwarded_for=forwarded, proxies=1) == "10.0.0.1"
    assert client_address(remote="10.0.0.2", forwarded_for=forwarded, proxies=2) == "203.0.113.7"
    assert client_address(remote="10.0.0.2", forwarded_for="", proxies=2) is None


def test_it_reads_the_header_only_from_a_peer_in_a_trusted_network() -> None:
    trusted = [ipaddress.ip_network("10.0.0.0/8"), ipaddress.ip_network("::1/128")]
    forwarded = "6.6.6.6, 203.0.113.7"

    def seen(remote: str | None) -> str | None:
        return client_address(remote=remote, forwarded_for=forwarded, proxies=1, trusted=trusted)

    assert seen("10.1.2.3") == "203.0.113.7"
    assert seen("::1") == "203.0.113.7"
    assert seen("::ffff:10.1.2.3") == "203.0.113.7"  # IPv4-mapped: the IPv4 address
    assert seen("198.51.100.9") == "198.51.100.9"  # around the proxy: its own address
    assert seen("not an address") == "not an address"
    assert seen(None) is None


# Recording and pruning -------------------------------------------------------------------


@pytest.mark.django_db
def test_it_records_both_kinds_and_bumps_them_idempotently(user: User, now: datetime) -> None:
    token = a_token()
    seen = {"device_token": token, "address": "203.0.113.7", "user_agent": UA}
    assert services.sighting_record(user_id=user.pk, now=now, **seen) == 3
    later = now + timedelta(hours=1)
    assert services.sighting_record(user_id=user.pk, now=later, **seen) == 3
    rows = list(Sighting.objects.filter(user=user).order_by("kind"))
    assert [row.kind for row in rows] == ["address", "device", "network"]
    assert all(row.first_seen == now and row.last_seen == later for row in rows)
    assert rows[1].digest == device_digest(token=token)


@pytest.mark.django_db
def test_it_stores_nothing_raw(user: User) -> None:
    token = a_token()
    services.sighting_record(
        user_id=user.pk, device_token=token, address="203.0.113.7", user_agent=UA
    )
    stored = " ".join(str(v) for row in Sighting.objects.values() for v in row.values())
    assert token not in stored and "203.0.113" not in stored and "Firefox" not in stored


@pytest.mark.django_db
def test_it_records_only_the_device_for_a_bad_address(user: User) -> None:
    assert (
        services.sighting_record(
            user_id=user.pk, device_token=a_token(), address="garbage", user_agent=UA
        )
        == 1
    )
    assert kinds_of(user) == ["device"]


@pytest.mark.django_db
def test_it_ignores_a_malformed_device_token(user: User) -> None:
    assert (
        services.sighting_record(user_id=user.pk, device_token="short", address=None, user_agent=UA)
        == 0
    )
    assert not Sighting.objects.exists()


@pytest.mark.django_db
def test_it_prunes_sightings_older_than_the_retention(settings, user: User, now: datetime) -> None:
    assert settings.FT_SIGHTING_DAYS == 30
    old, recent = a_token(), a_token()
    services.sighting_record(
        user_id=user.pk, device_token=old, address=None, user_agent=UA, now=now - timedelta(days=31)
    )
    services.sighting_record(
        user_id=user.pk,
        device_token=recent,
        address=None,
        user_agent=UA,
        now=now - timedelta(days=29),
    )
    assert services.sightings_prune(now=now) == 1
    assert list(user.sightings.values_list("digest", flat=True)) == [device_digest(token=recent)]


def test_the_task_calls_the_prune_service(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(services, "sightings_prune", lambda **kw: calls.append(kw) or 3)
    assert tasks.prune_sightings.delay().get() == 3
    assert calls == [{}]


def test_beat_prunes_the_sightings_daily(settings) -> None:
    entries = [
        e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "games.prune_sightings"
    ]
    assert len(entries) == 1


# Linked accounts -------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_links_accounts_by_device(user: User, bob: User) -> None:
    token = a_token()
    services.sighting_record(user_id=user.pk, device_token=token, address=None, user_agent=UA)
    services.sighting_record(user_id=bob.pk, device_token=token, address=None, user_agent=UA)
    assert selectors.accounts_linked_to(user_id=user.pk) == {bob.pk: {"device"}}
    assert selectors.accounts_linked_to(user_id=bob.pk) == {user.pk: {"device"}}


@pytest.mark.django_db
def test_it_links_by_network_and_browser_and_by_network_alone(user: User, bob: User) -> None:
    carol = User.objects.create_user(username="carol", password="x")
    services.sighting_record(
        user_id=user.pk, device_token=a_token(), address="203.0.113.7", user_agent=UA
    )
    services.sighting_record(
        user_id=bob.pk, device_token=a_token(), address="203.0.113.8", user_agent=UA
    )
    services.sighting_record(
        user_id=carol.pk, device_token=a_token(), address="203.0.113.9", user_agent=OTHER_UA
    )
    # carol shares only the network: a weak link ("address"), never a hold by itself.
    assert selectors.accounts_linked_to(user_id=user.pk) == {
        bob.pk: {"address", "network"},
        carol.pk: {"address"},
    }


@pytest.mark.django_db
def test_it_names_every_kind_that_links_two_accounts(user: User, bob: User) -> None:
    token = a_token()
    for who in (user, bob):
        services.sighting_record(
            user_id=who.pk, device_token=token, address="203.0.113.7", user_agent=UA
        )
    assert selectors.accounts_linked_to(user_id=user.pk) == {
        bob.pk: {"address", "device", "network"}
    }


@pytest.mark.django_db
def test_it_links_in_two_indexed_queries_however_many_sightings(
    user: User, bob: User, django_assert_num_queries
) -> None:
    token = a_token()
    for who in (user, bob):
        services.sighting_record(
            user_id=who.pk, device_token=token, address="203.0.113.7", user_agent=UA
        )
    with django_assert_num_queries(2):
        assert set(selectors.accounts_linked_to(user_id=bob.pk)) == {user.pk}


def test_a_player_never_seen_costs_one_query(user: User, django_assert_num_queries) -> None:
    with django_assert_num_queries(1):
        assert selectors.accounts_linked_to(user_id=user.pk) == {}


@pytest.mark.django_db
def test_it_does_not_link_by_sightings_past_the_retention(user: User, bob: User) -> None:
    token = a_token()
    services.sighting_record(
        user_id=bob.pk,
        device_token=token,
        address=None,
        user_agent=UA,
        now=timezone.now() - timedelta(days=31),
    )
    services.sighting_record(user_id=user.pk, device_token=token, address=None, user_agent=UA)
    assert selectors.accounts_linked_to(user_id=user.pk) == {}


# The middleware --------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_sets_the_device_cookie_once_httponly_and_lax(client: Client) -> None:
    first = client.get(reverse("rules"))
    cookie = first.cookies[DEVICE_COOKIE]
    assert len(cookie.value) == 32
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert cookie["max-age"] == 400 * 24 * 60 * 60
    assert not cookie["secure"]  # the embedded default serves plain http
    second = client.get(reverse("rules"))
    assert DEVICE_COOKIE not in second.cookies
    assert client.cookies[DEVICE_COOKIE].value == cookie.value


@pytest.mark.django_db
def test_it_replaces_a_malformed_device_cookie(client: Client) -> None:
    client.cookies[DEVICE_COOKIE] = "not-a-token"
    response = client.get(reverse("rules"))
    assert response.cookies[DEVICE_COOKIE].value != "not-a-token"


@pytest.mark.django_db
def test_it_does_not_record_an_anonymous_visitor(client: Client, records: list) -> None:
    client.get(reverse("rules"), HTTP_USER_AGENT=UA)
    client.get(reverse("rules"), HTTP_USER_AGENT=UA)
    assert records == [] and not Sighting.objects.exists()


@pytest.mark.django_db
def test_it_records_a_signed_in_user_once_per_interval(
    client: Client, user: User, records: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    client.cookies[DEVICE_COOKIE] = token = a_token()
    client.force_login(user)
    for _ in range(3):
        assert client.get(reverse("rules"), HTTP_USER_AGENT=UA).status_code == 200
    assert len(records) == 1
    assert records[0]["device_token"] == token and records[0]["address"] == "127.0.0.1"
    assert kinds_of(user) == ["address", "device", "network"]

    # Another browser on the same device is another (user, device, network): recorded.
    client.get(reverse("rules"), HTTP_USER_AGENT=OTHER_UA)
    assert len(records) == 2

    later = middleware.timezone.now() + timedelta(seconds=601)
    monkeypatch.setattr(middleware.timezone, "now", lambda: later)
    client.get(reverse("rules"), HTTP_USER_AGENT=OTHER_UA)
    assert len(records) == 3


@pytest.mark.django_db
def test_it_records_the_user_who_just_logged_in(client: Client, user: User) -> None:
    client.cookies[DEVICE_COOKIE] = a_token()
    response = client.post(
        reverse("login"),
        {"username": "ada", "password": "correct horse battery staple"},
        HTTP_USER_AGENT=UA,
    )
    assert response.status_code == 302
    assert kinds_of(user) == ["address", "device", "network"]


@pytest.mark.django_db
def test_it_records_an_api_tokens_user_once_per_interval(user: User, records: list) -> None:
    api = Api(Client(), token_for(user))
    api.client.cookies[DEVICE_COOKIE] = a_token()
    assert api.get("/games").status_code == 200
    assert api.get("/games").status_code == 200
    assert len(records) == 1 and records[0]["user_id"] == user.pk


@pytest.mark.django_db
def test_a_client_without_cookies_is_recorded_by_network_only(user: User) -> None:
    Api(Client(), token_for(user)).get("/games")
    assert kinds_of(user) == ["address", "network"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "forwarded", ["garbage", ",,,", "203.0.113.7:443", "\u00ff\u00fe", "1.2.3.4, , "]
)
def test_a_garbage_forwarded_for_header_does_not_fail_the_page(
    settings, client: Client, user: User, forwarded: str
) -> None:
    settings.FT_TRUSTED_PROXIES = 1
    client.cookies[DEVICE_COOKIE] = a_token()
    client.force_login(user)
    response = client.get(reverse("rules"), HTTP_X_FORWARDED_FOR=forwarded, HTTP_USER_AGENT=UA)
    assert response.status_code == 200
    assert kinds_of(user) == ["device"]


@pytest.mark.django_db
def test_behind_a_trusted_proxy_it_takes_the_forwarded_address(
    settings, client: Client, user: User, records: list
) -> None:
    settings.FT_TRUSTED_PROXIES = 1
    client.force_login(user)
    client.get(reverse("rules"), HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7")
    assert records[0]["address"] == "203.0.113.7"


@pytest.mark.django_db
def test_a_client_around_the_proxy_is_recorded_at_its_own_address(
    settings, user: User, records: list
) -> None:
    settings.FT_TRUSTED_PROXIES = 1
    client = Client(REMOTE_ADDR="198.51.100.9")  # not in FT_TRUSTED_PROXY_NETWORKS
    client.force_login(user)
    client.get(reverse("rules"), HTTP_X_FORWARDED_FOR="203.0.113.7")
    assert records[0]["address"] == "198.51.100.9"


@pytest.mark.django_db
def test_a_failing_record_does_not_fail_the_page(
    client: Client, user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(**kwargs: Any) -> int:
        raise RuntimeError("the database is away")

    monkeypatch.setattr(services, "sighting_record", broken)
    client.force_login(user)
    assert client.get(reverse("rules")).status_code == 200


# The game socket -------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("empty_channel_layer")
@run_async
async def test_the_game_socket_records_its_player(user: User) -> None:
    game = await db(practice_game)(user)
    token = a_token()
    cookie = await db(cookie_of)(user) + f"; {DEVICE_COOKIE}={token}".encode()
    headers = [*ORIGIN, (b"cookie", cookie), (b"user-agent", UA.encode())]
    ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
    ws.scope["client"] = ["203.0.113.7", 50000]  # read once the application starts
    connected, _ = await ws.connect()
    assert connected
    assert (await receive(ws))["type"] == "hello"
    # The sighting is written after the hello; a socket handles its next frame only then.
    assert await ask(ws, {"type": "ping"}) == {"type": "pong"}
    sightings = await db(lambda: dict(Sighting.objects.values_list("kind", "digest")))()
    assert sightings == {
        "device": device_digest(token=token),
        "network": network_digest(address="203.0.113.7", user_agent=UA),
        "address": address_digest(address="203.0.113.7"),
    }
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("empty_channel_layer")
@run_async
async def test_the_game_socket_takes_the_forwarded_address_only_from_the_proxy(
    settings, user: User
) -> None:
    settings.FT_TRUSTED_PROXIES = 1
    game = await db(practice_game)(user)
    cookie = await db(cookie_of)(user)
    recorded = []
    for peer in ("10.0.0.5", "198.51.100.9"):  # the proxy, then a client around it
        headers = [*ORIGIN, (b"cookie", cookie), (b"user-agent", UA.encode())]
        headers.append((b"x-forwarded-for", b"6.6.6.6, 203.0.113.7"))
        ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
        ws.scope["client"] = [peer, 50000]
        connected, _ = await ws.connect()
        assert connected and (await receive(ws))["type"] == "hello"
        assert await ask(ws, {"type": "ping"}) == {"type": "pong"}
        await ws.disconnect()
        recorded.append(
            await db(
                lambda: set(
                    Sighting.objects.filter(kind="network").values_list("digest", flat=True)
                )
            )()
        )
    assert recorded[0] == {network_digest(address="203.0.113.7", user_agent=UA)}
    assert recorded[1] - recorded[0] == {network_digest(address="198.51.100.9", user_agent=UA)}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("empty_channel_layer")
@run_async
async def test_a_reconnecting_socket_records_its_sighting_once_per_period(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket opens on every reconnect (a storm after a deploy): like pages, it writes
    a (user, device, network) at most once per FT_SIGHTING_EVERY seconds."""
    from games.services import sightings as sightings_service

    written: list[int] = []
    real = sightings_service.sighting_record

    def spy(**kwargs: Any) -> int:
        written.append(kwargs["user_id"])
        return real(**kwargs)

    monkeypatch.setattr(sightings_service, "sighting_record", spy)
    game = await db(practice_game)(user)
    cookie = await db(cookie_of)(user) + f"; {DEVICE_COOKIE}={a_token()}".encode()
    for _ in range(3):
        headers = [*ORIGIN, (b"cookie", cookie), (b"user-agent", UA.encode())]
        ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
        ws.scope["client"] = ["203.0.113.7", 50000]
        connected, _ = await ws.connect()
        assert connected and (await receive(ws))["type"] == "hello"
        assert await ask(ws, {"type": "ping"}) == {"type": "pong"}
        await ws.disconnect()
    assert written == [user.pk]
    # One write of its three digests: device, network + browser, and network alone.
    assert await db(lambda: Sighting.objects.filter(user=user).count())() == 3


# The privacy page ------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_privacy_page_says_what_is_kept_and_for_how_long(settings, client: Client) -> None:
    settings.FT_SIGHTING_DAYS = 45
    response = client.get(reverse("privacy"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "deleted 45 days after" in html
    assert "ft_device" in html and "sessionid" in html and "csrftoken" in html
    assert reverse("privacy") in client.get(reverse("home")).content.decode()
