"""The rate limits of ``ftsite/settings.py``: every ``FT_RATE_*`` limit written
count/period (``100/20s``, ``30/min``, ``5/h``), its default, and what it counts. Each
refusal is documented in docs/protocol.md with a retry hint."""

from __future__ import annotations

from typing import Final

from ftsite.env import env_rate

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
}


def rate_limits() -> dict[str, str]:
    """Every limit, from its environment variable or its default; a value that is not a
    rate raises ``ImproperlyConfigured`` naming the variable (``ftsite.env.env_rate``)."""
    return {name: env_rate(name, default) for name, default in RATE_DEFAULTS.items()}
