"""The rate limits of ``ftsite/settings.py`` and their one grammar: every ``FT_RATE_*``
limit written count/period (``100/20s``, ``30/min``, ``5/h``), its default, and what it
counts. Each is parsed here once, as the settings load, into a :class:`Rate` (the setting
of its variable's name): no request reads a rate's text. Each refusal is documented in
docs/protocol.md with a retry hint."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from django.core.exceptions import ImproperlyConfigured

from ftsite.env import env_str

#: The periods a rate may be counted over, in seconds.
UNITS: Final[dict[str, int]] = {
    "s": 1,
    "sec": 1,
    "m": 60,
    "min": 60,
    "h": 3600,
    "hour": 3600,
    "d": 86400,
}
#: count/period: a count of 1 or more, a slash, an optional multiple and a unit.
GRAMMAR: Final = re.compile(r"(?P<count>[1-9][0-9]*)/(?P<times>[1-9][0-9]*)?(?P<unit>[a-z]+)")
EXPECTED: Final = "write count/period, e.g. 100/20s or 30/min (periods s, min, h, d)"


@dataclass(frozen=True)
class Rate:
    """``count`` requests per ``seconds``, parsed from text such as ``"100/20s"`` or
    ``"30/min"``.

    >>> Rate.parse("100/20s"), Rate.parse("30/min"), Rate.parse("5/h")
    (Rate(count=100, seconds=20), Rate(count=30, seconds=60), Rate(count=5, seconds=3600))
    """

    count: int
    seconds: int

    def __post_init__(self) -> None:
        if self.count < 1 or self.seconds < 1:
            raise ValueError(f"a rate needs a count and a period of 1 or more: {self!r}")

    @classmethod
    def parse(cls, text: str) -> Rate:
        """The rate ``text`` writes; ``ValueError`` (saying what is expected) otherwise."""
        found = GRAMMAR.fullmatch(text)
        if found is None or found["unit"] not in UNITS:
            raise ValueError(f"{text!r} is not a rate: {EXPECTED}")
        return cls(int(found["count"]), int(found["times"] or 1) * UNITS[found["unit"]])

    def __str__(self) -> str:
        return f"{self.count}/{self.seconds}s"


def env_rate(name: str, default: str) -> Rate:
    """The rate of variable ``name`` (``default`` when unset or blank); one that is not a
    rate raises ``ImproperlyConfigured`` naming the variable and the expected form."""
    value = env_str(name, default)
    try:
        return Rate.parse(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a rate: {EXPECTED}") from None


#: Each limit's environment variable (also its setting's name) and its default.
RATE_DEFAULTS: Final[dict[str, str]] = {
    # Socket messages count across all of a user's sockets.
    "FT_RATE_SOCKET_MESSAGES": "300/min",
    # One socket's pace, a token bucket: count at once, refilled over the period (40/5s: a
    # burst of 40, then 8 a second). Faster is refused with a retry hint, never closed; only
    # a client that ignores the hint is (docs/protocol.md, "Limits").
    "FT_RATE_SOCKET_PACE": "40/5s",
    "FT_RATE_HINTS": "20/min",
    "FT_RATE_PRACTICE_STARTS": "20/min",
    # API calls per user (or per address when anonymous).
    "FT_RATE_API_USER": "300/min",
    "FT_RATE_API_ANONYMOUS": "60/min",
    # Post-game analyses asked for (each up to FT_ANALYSIS_SECONDS of solver work), per user.
    "FT_RATE_ANALYSES": "10/h",
    # Password reset requests, counted per address and per e-mail address asked about
    # (whether or not an account has it); and the account forms (profile, delete,
    # download), per user.
    "FT_RATE_PASSWORD_RESETS": "5/h",
    "FT_RATE_ACCOUNT_FORMS": "20/h",
    # The change-password form, per user: each try answers whether the old password is right.
    "FT_RATE_PASSWORD_CHANGES": "5/15min",
    # Sign-ups, per address (a household or an office shares one) and per device (the
    # ft_device cookie; a script without cookies is held by the address alone).
    "FT_RATE_SIGNUPS_ADDRESS": "10/h",
    "FT_RATE_SIGNUPS_DEVICE": "3/h",
    # Guests made (a visitor's first practice or archive start without an account), per
    # address and per device, like sign-ups: a guest is a row, and a loop of new sessions is
    # no player.
    "FT_RATE_GUESTS_ADDRESS": "20/h",
    "FT_RATE_GUESTS_DEVICE": "5/h",
    # New game and Restart on a practice or archive table, per user (each is also a start).
    "FT_RATE_TABLE_RESTARTS": "30/10min",
    # League actions (create, join, leave, remove a member, rotate the invite, delete), per
    # user.
    "FT_RATE_LEAGUE_ACTIONS": "30/h",
    # Day files downloaded (a closed deal's ranked games, /boards/.../games.json), per
    # address.
    "FT_RATE_DAY_FILES": "60/h",
    # Saves of the table's settings (card size, back, safe cards home) per user.
    "FT_RATE_TABLE_SETTINGS": "60/h",
    # Duels: challenges made and accepted, rematches (per user); and the queue's joins and
    # polls ("play someone now": its page asks every 2 s), per user.
    "FT_RATE_DUELS": "30/10min",
    "FT_RATE_DUEL_QUEUE": "60/min",
    # Arenas: joins and leaves, per user (a page's button, not a script's loop).
    "FT_RATE_ARENA_ACTIONS": "20/10min",
    # Arenas a league's owner makes from its page, per league (a few a day is a busy
    # league; a loop making them would spend the site's certified deals).
    "FT_RATE_LEAGUE_ARENAS": "10/d",
}


def rate_limits() -> dict[str, Rate]:
    """Every limit, parsed from its environment variable or its default; a value that is
    not a rate raises ``ImproperlyConfigured`` naming the variable (:func:`env_rate`)."""
    return {name: env_rate(name, default) for name, default in RATE_DEFAULTS.items()}
