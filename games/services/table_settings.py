"""Writes of a player's table settings (card size, card back, safe cards sent home, taps)."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from games.errors import BadRequest
from games.models import User
from games.table_settings import SettingsProblem, settings_clean
from games.throttles import throttle_check, who


def table_settings_save(*, user: User, data: object) -> dict[str, Any]:
    """Keep ``data`` (all four settings, or some: the rest keep their stored values) on
    the account; returns the settings as stored. Limited per user by
    ``FT_RATE_TABLE_SETTINGS`` (the panel saves on each change); a value the table cannot
    take is refused naming the field and what it expects. A game already started keeps
    the "send safe cards home" it started with."""
    throttle_check(
        name="table_settings",
        rate=settings.FT_RATE_TABLE_SETTINGS,
        ident=who(user_id=user.pk),
        what="settings changes",
    )
    if not isinstance(data, dict):
        raise BadRequest("the settings are an object with size, back, auto_home and tap")
    stored = user.table_settings if isinstance(user.table_settings, dict) else {}
    try:
        clean = settings_clean({**_known(stored), **data})
    except SettingsProblem as problem:
        raise BadRequest(str(problem)) from None
    user.table_settings = clean
    user.save(update_fields=["table_settings"])
    return clean


def _known(stored: dict[str, Any]) -> dict[str, Any]:
    try:
        return settings_clean(stored)
    except SettingsProblem:  # never written unclean; a hand edit starts from the defaults
        return {}
