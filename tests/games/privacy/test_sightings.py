"""Fair-play sightings: keyed digests of the device cookie and of the network+browser, recorded
for signed-in users (pages, the API and the game socket), linking accounts, pruned after
``FT_SIGHTING_DAYS`` days; and the privacy page that says so."""

from __future__ import annotations

import ipaddress
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone
from hypothesis import given
from hypothesis import settings as settings_of_hypothesis
from hypothesis import strategies as st

from games import selectors, services, tasks
from games.models import Sighting, User
from games.privacy.sightings import (
    address_network,
    client_address,
    device_digest,
    network_digest,
)

from ..conftest import (
    OTHER_UA,
    UA,
    a_token,
    kinds_of,
)

pytestmark = pytest.mark.usefixtures("empty_cache")


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


@settings_of_hypothesis(max_examples=300, deadline=None)
@given(st.ip_addresses())
def test_the_network_is_the_one_ip_network_names(ip: Any) -> None:
    # The stored digests of every sighting hash this text: it must never change.
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = 24 if ip.version == 4 else 64
    expected = str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))
    assert address_network(address=str(ip)) == expected


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
