"""Keyed digests of what links two accounts: the same browser, or the same network and browser.

Only these HMACs are stored (``games.models.Sighting``), never the cookie, the address or the
user agent: without the server secret (``settings.FT_PRIVACY_SECRET``) a digest cannot be
tested against guesses, and the small space of addresses could otherwise be brute-forced from
a plain hash. Each kind has its own domain prefix, so a digest of one kind never equals one of
another kind whatever the inputs.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.http import HttpRequest

# The kinds (the values of games.models.Sighting.Kind).
DEVICE = "device"
NETWORK = "network"
ADDRESS = "address"
# A deleted account's name (games.models.DeletedAccount): links a re-registration under it.
NAME = "name"

# A device token is secrets.token_urlsafe(24): 32 URL-safe characters.
DEVICE_TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

_DEVICE_DOMAIN = b"ft-sighting/device\x00"
_NETWORK_DOMAIN = b"ft-sighting/network\x00"
_ADDRESS_DOMAIN = b"ft-sighting/address\x00"
_NAME_DOMAIN = b"ft-sighting/name\x00"
# Addresses in one /24 (IPv4) or one /64 (IPv6, the usual home or office allocation) are one
# network: a household's address changes within it, and another household is elsewhere.
_IPV4_PREFIX = 24
_IPV6_PREFIX = 64


def device_token_valid(*, token: str | None) -> bool:
    """Whether ``token`` looks like a device token this site issued (else a new one is)."""
    return token is not None and DEVICE_TOKEN.fullmatch(token) is not None


def address_network(*, address: str) -> str | None:
    """The network an address belongs to (``"203.0.113.0/24"``), or ``None`` if it is not
    an IP address. An IPv4-mapped IPv6 address counts as its IPv4 address.

    >>> address_network(address="203.0.113.7"), address_network(address="2001:db8::1")
    ('203.0.113.0/24', '2001:db8::/64')
    >>> address_network(address="::ffff:203.0.113.7"), address_network(address="example.org")
    ('203.0.113.0/24', None)
    """
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix, bits = (_IPV4_PREFIX, 32) if ip.version == 4 else (_IPV6_PREFIX, 128)
    # The network's address by its mask, as ``ip_network(..., strict=False)`` has it but
    # for a third of the time (every socket's connect asks, docs/benchmarks.md).
    mask = ((1 << bits) - 1) ^ ((1 << (bits - prefix)) - 1)
    return f"{type(ip)(int(ip) & mask)}/{prefix}"


def client_address(
    *,
    remote: str | None,
    forwarded_for: str,
    proxies: int,
    trusted: Sequence[IPNetwork] | None = None,
) -> str | None:
    """The client's IP address as text (not validated; ``None`` when unknown), from the
    connection's peer ``remote`` and the X-Forwarded-For header.

    Without proxies (``proxies=0``) it is ``remote``: the header is ignored then, because a
    client can send any value in it. Behind ``proxies`` reverse proxies, each appending the
    address it was connected from, the last ``proxies`` entries were written by our own
    proxies; the leftmost of them is what our outermost proxy saw, and anything further left
    is the client's own, unverifiable claim. With ``trusted`` networks, the header is read
    only when the peer itself is in one of them (our proxy): a client that reaches the
    web process directly is its own peer address, whatever header it sends.

    >>> client_address(remote="10.0.0.2", forwarded_for="6.6.6.6, 203.0.113.7", proxies=1)
    '203.0.113.7'
    >>> client_address(
    ...     remote="198.51.100.9", forwarded_for="203.0.113.7", proxies=1,
    ...     trusted=[ipaddress.ip_network("10.0.0.0/8")],
    ... )
    '198.51.100.9'
    """
    if proxies <= 0:
        return remote or None
    if trusted is not None and not peer_in(remote=remote, networks=trusted):
        return remote or None
    entries = [entry.strip() for entry in forwarded_for.split(",")]
    if len(entries) < proxies or not entries[-proxies]:
        return None  # proxies misconfigured or bypassed: better no network than a wrong one
    return entries[-proxies]


def peer_in(*, remote: str | None, networks: Sequence[IPNetwork]) -> bool:
    """Whether the connection's peer address is in one of ``networks`` (an IPv4-mapped
    IPv6 peer counts as its IPv4 address; anything that is no address is in none)."""
    try:
        ip = ipaddress.ip_address((remote or "").strip())
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip.version == net.version and ip in net for net in networks)


def device_digest(*, token: str) -> str:
    """The keyed digest of a device cookie's value (64 hex digits)."""
    return _digest(_DEVICE_DOMAIN + token.encode("utf-8", "surrogatepass"))


def network_digest(*, address: str, user_agent: str) -> str | None:
    """The keyed digest of an address's network together with the browser's user agent;
    ``None`` when the address is not an IP address (nothing to link by then)."""
    network = address_network(address=address)
    return None if network is None else _network_digest(network, user_agent)


def _network_digest(network: str, user_agent: str) -> str:
    # The NUL separator cannot occur in a network's text, so no two pairs digest alike.
    message = f"{network}\x00{user_agent}".encode("utf-8", "surrogatepass")
    return _digest(_NETWORK_DOMAIN + message)


def address_digest(*, address: str) -> str | None:
    """The keyed digest of an address's network alone (every browser of a household);
    ``None`` when the address is not an IP address."""
    network = address_network(address=address)
    return None if network is None else _address_digest(network)


def _address_digest(network: str) -> str:
    return _digest(_ADDRESS_DOMAIN + network.encode("ascii"))


def name_digest(*, username: str) -> str:
    """The keyed digest of a username as Django compares them at sign-up (case-folded), so
    a re-registration under the same name in other capitals is the same name."""
    return _digest(_NAME_DOMAIN + username.casefold().encode("utf-8", "surrogatepass"))


def _digest(message: bytes) -> str:
    key = str(settings.FT_PRIVACY_SECRET).encode("utf-8")
    return hmac.digest(key, message, hashlib.sha256).hex()


def sighting_digests(
    *, device_token: str | None, address: str | None, user_agent: str
) -> dict[str, str]:
    """The digests one visit yields, by kind: ``device`` for a well-formed device token,
    ``network`` (with the user agent) and ``address`` (without) for an IP address; any may
    be missing."""
    digests: dict[str, str] = {}
    if device_token is not None and device_token_valid(token=device_token):
        digests[DEVICE] = device_digest(token=device_token)
    network = address_network(address=address) if address else None  # once for both
    if network is not None:
        digests[NETWORK] = _network_digest(network, user_agent)
        digests[ADDRESS] = _address_digest(network)
    return digests


def signed_in_user(*, request: HttpRequest) -> Any | None:
    """The user an API token authenticated (``request.auth``, set by django-ninja), else the
    session's signed-in user; ``None`` for an anonymous visitor."""
    for candidate in (getattr(request, "auth", None), getattr(request, "user", None)):
        authenticated = getattr(candidate, "is_authenticated", False) is True
        if candidate is not None and authenticated and candidate.pk is not None:
            return candidate
    return None


def request_address(*, request: HttpRequest) -> str | None:
    """The client's address: ``REMOTE_ADDR``, or from X-Forwarded-For behind
    ``FT_TRUSTED_PROXIES`` proxies connecting from ``FT_TRUSTED_PROXY_NETWORKS`` (see
    ``games.privacy.sightings.client_address`` for why)."""
    return client_address(
        remote=request.META.get("REMOTE_ADDR"),
        forwarded_for=request.META.get("HTTP_X_FORWARDED_FOR", ""),
        proxies=settings.FT_TRUSTED_PROXIES,
        trusted=settings.FT_TRUSTED_PROXY_NETWORKS,
    )
