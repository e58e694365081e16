"""The typed readers of environment variables that ``ftsite/settings.py`` is written with:
each returns a value of its type or raises ``ImproperlyConfigured`` naming the variable,
what it holds and what is expected."""

from __future__ import annotations

import ipaddress
import os
from typing import overload

from django.core.exceptions import ImproperlyConfigured

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def _raw(name: str) -> str | None:
    """Return the variable's value, treating empty/blank strings as unset."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return None
    return value.strip()


@overload
def env_str(name: str, default: str, *, required: bool = False, why: str = "") -> str: ...


@overload
def env_str(
    name: str, default: None = None, *, required: bool = False, why: str = ""
) -> str | None: ...


def env_str(
    name: str, default: str | None = None, *, required: bool = False, why: str = ""
) -> str | None:
    """Read a string variable; with ``required`` an unset variable is an error."""
    value = _raw(name)
    if value is None:
        if required:
            reason = why or "in this configuration"
            raise ImproperlyConfigured(f"{name} is not set; it is required {reason}")
        return default
    return value


def env_secret(name: str, *, dev_default: str, debug: bool, why: str) -> str:
    """A secret: required unless ``debug``, where ``dev_default`` stands in for it."""
    value = _raw(name)
    if value is not None:
        return value
    if not debug:
        raise ImproperlyConfigured(f"{name} is not set; it is required {why}")
    return dev_default


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean variable (true/false/1/0/yes/no/on/off, case-insensitive)."""
    value = _raw(name)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean; use true/false/1/0/yes/no")


def env_int(
    name: str, default: int, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    """Read an integer variable, optionally bounded (inclusive)."""
    value = _raw(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(
            f"{name}={value!r} is not an integer; use a whole number such as 60"
        ) from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={value!r} is too small; use a value >= {minimum}")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name}={value!r} is too large; use a value <= {maximum}")
    return number


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    """Read a comma-separated list; blank items are dropped."""
    value = _raw(name)
    if value is None:
        return list(default or [])
    return [item.strip() for item in value.split(",") if item.strip()]


def env_seconds(name: str, default: float, *, maximum: float = 600.0) -> float:
    """Read a duration in seconds (decimals allowed), from 0 to ``maximum``."""
    value = _raw(name)
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a number of seconds") from None
    if not 0 <= number <= maximum:
        raise ImproperlyConfigured(f"{name}={value!r} is out of range; use 0 to {maximum:g}")
    return number


def env_networks(
    name: str, default: str
) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """Read a comma-separated list of IP networks (``10.0.0.0/8,::1/128``; a bare address
    is a network of one)."""
    networks = []
    for item in env_list(name) or default.split(","):
        try:
            networks.append(ipaddress.ip_network(item.strip(), strict=False))
        except ValueError:
            raise ImproperlyConfigured(
                f"{name}: {item.strip()!r} is not an IP network; write networks such as"
                " 10.0.0.0/8 or 2001:db8::/32, separated by commas"
            ) from None
    return tuple(networks)
