"""The table settings' operations of the JSON API (``GET``/``PUT /settings``): card size,
card back, "send safe cards home" and what a tap does, as the site's table saves them. Added to
``games.api.endpoints.api`` with the API's authentication and throttle; the operation ids
are those the operations had before they moved here, so clients keep them."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router

from games import services
from games.api.auth import api_user
from games.api.schemas import ERRORS, ErrorOut, TableSettingsIn, TableSettingsOut
from games.table_settings import settings_of

router = Router(tags=["settings"])


@router.get(
    "/settings",
    response={200: TableSettingsOut, **ERRORS},
    operation_id="games_api_endpoints_table_settings_get",
    summary="Your table settings",
    description="Card size, card back, whether new games send safe cards home, and what a tap "
    "on a card does.",
)
def table_settings_get(request: HttpRequest) -> dict[str, Any]:
    return settings_of(api_user(request).table_settings)


@router.put(
    "/settings",
    response={200: TableSettingsOut, 429: ErrorOut, **ERRORS},
    operation_id="games_api_endpoints_table_settings_put",
    summary="Change your table settings",
    description=(
        "Any of size, back, auto_home, tap; the rest keep their values. `auto_home` applies to "
        "games started from now on (a game keeps the option it started with). Limited by "
        "FT_RATE_TABLE_SETTINGS per user (429 `rate_limited`)."
    ),
)
def table_settings_put(request: HttpRequest, payload: TableSettingsIn) -> dict[str, Any]:
    data = payload.dict(exclude_none=True)
    return services.table_settings_save(user=api_user(request), data=data)
