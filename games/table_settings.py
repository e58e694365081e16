"""The table's settings: card size, card back, "send safe cards home" and what a tap on a
card does (pure: no Django).

The browser keeps them for everyone (``localStorage``, static/js/board/settings-state.js,
which holds the same choices); a signed-in player's are kept on the account too
(``User.table_settings``, written by ``services.table_settings.table_settings_save``), so
they follow the player to another browser. ``auto_home`` is read once, when a game starts,
and fixed on the game (``Game.auto_home``): a game is played under one rule from its first
move to its last, and the audit judges its log by it. ``tap`` is the board's alone
(static/js/board/place.js): ``best`` sends a tapped card home, else to the best column that
takes it; ``home`` only home (a double-tap places it anywhere), as the table first did.
"""

from __future__ import annotations

from typing import Any

SIZES = ("small", "medium", "large")
BACKS = ("blue", "red", "green", "lattice")
TAPS = ("best", "home")
DEFAULTS: dict[str, Any] = {"size": "medium", "back": "blue", "auto_home": False, "tap": "best"}


class SettingsProblem(ValueError):
    """A settings value the table cannot take; the message names the field and what fits."""


def settings_clean(data: object) -> dict[str, Any]:
    """``data`` as a complete, valid settings record (missing fields take the defaults);
    :class:`SettingsProblem` names the first field that is wrong and what it expects.

    >>> settings_clean({"size": "large"})
    {'size': 'large', 'back': 'blue', 'auto_home': False, 'tap': 'best'}
    >>> settings_clean({"size": "huge"})
    Traceback (most recent call last):
    ...
    games.table_settings.SettingsProblem: size: 'huge' is not a card size; one of small, ...
    """
    if not isinstance(data, dict):
        raise SettingsProblem("the settings are an object with size, back, auto_home and tap")
    unknown = sorted(str(key) for key in data if key not in DEFAULTS)
    if unknown:
        raise SettingsProblem(f"{unknown[0]}: not a setting; known: {', '.join(DEFAULTS)}")
    clean = {**DEFAULTS, **data}
    if clean["size"] not in SIZES:
        raise SettingsProblem(
            f"size: {clean['size']!r} is not a card size; one of {', '.join(SIZES)}"
        )
    if clean["back"] not in BACKS:
        raise SettingsProblem(
            f"back: {clean['back']!r} is not a card back; one of {', '.join(BACKS)}"
        )
    if not isinstance(clean["auto_home"], bool):
        raise SettingsProblem(f"auto_home: {clean['auto_home']!r} is not true or false")
    if clean["tap"] not in TAPS:
        raise SettingsProblem(f"tap: {clean['tap']!r} is not a tap; one of {', '.join(TAPS)}")
    return clean


def settings_of(stored: object) -> dict[str, Any]:
    """An account's stored settings, complete; the defaults for anything unreadable (a
    stored record is only ever written cleaned, so this is belt and braces)."""
    try:
        return settings_clean(stored or {})
    except SettingsProblem:
        return dict(DEFAULTS)
