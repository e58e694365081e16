"""The table's settings on the account: validated, throttled, read when a game starts."""

from __future__ import annotations

import json

import pytest

from ftsite.rates import Rate
from games import services
from games.models import User
from games.table_settings import DEFAULTS, SettingsProblem, settings_clean, settings_of
from games.throttles import RateLimited

from .conftest import assert_refused


def test_the_defaults_fill_what_is_missing() -> None:
    assert settings_clean({}) == DEFAULTS
    assert settings_clean({"back": "lattice"}) == {**DEFAULTS, "back": "lattice"}


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ({"size": "huge"}, "size: 'huge' is not a card size; one of small, medium, large"),
        ({"back": "gold"}, "back: 'gold' is not a card back"),
        ({"auto_home": "yes"}, "auto_home: 'yes' is not true or false"),
        ({"tap": "double"}, "tap: 'double' is not a tap; one of best, home"),
        ({"colour": 1}, "colour: not a setting"),
        ([], "the settings are an object"),
    ],
)
def test_it_refuses_a_value_naming_the_field_and_what_fits(data, named: str) -> None:
    with pytest.raises(SettingsProblem, match=named.replace("(", r"\(")):
        settings_clean(data)


def test_an_unreadable_stored_record_reads_as_the_defaults() -> None:
    assert settings_of({"size": "enormous"}) == DEFAULTS
    assert settings_of(None) == DEFAULTS


def test_the_api_keeps_the_settings_on_the_account(ada, user: User) -> None:
    response = ada.client.put(
        "/api/v1/settings",
        json.dumps({"size": "large", "auto_home": True}),
        content_type="application/json",
        headers=ada.headers,
    )
    assert response.status_code == 200, response.content
    assert response.json() == {"size": "large", "back": "blue", "auto_home": True, "tap": "best"}
    user.refresh_from_db()
    assert user.table_settings == {**DEFAULTS, "size": "large", "auto_home": True}
    assert ada.get("/settings").json()["size"] == "large"


def test_the_api_refuses_a_bad_value_naming_the_field(ada) -> None:
    response = ada.client.put(
        "/api/v1/settings",
        json.dumps({"size": "huge"}),
        content_type="application/json",
        headers=ada.headers,
    )
    body = assert_refused(response, 422, "bad_field")
    assert "size" in body["reason"]


def test_what_a_tap_does_is_kept_on_the_account_and_an_old_record_reads_best(
    ada, user: User
) -> None:
    response = ada.client.put(
        "/api/v1/settings",
        json.dumps({"tap": "home"}),
        content_type="application/json",
        headers=ada.headers,
    )
    assert response.status_code == 200, response.content
    assert response.json()["tap"] == "home"
    user.refresh_from_db()
    assert user.table_settings["tap"] == "home"
    # A record kept before the setting existed: the tap it had, the best place.
    assert settings_of({"size": "large", "back": "red", "auto_home": True})["tap"] == "best"
    bad = ada.client.put(
        "/api/v1/settings",
        json.dumps({"tap": "sideways"}),
        content_type="application/json",
        headers=ada.headers,
    )
    assert assert_refused(bad, 422, "bad_field")["reason"].count("tap")


def test_a_visitor_has_no_settings_on_the_server(anonymous) -> None:
    assert_refused(anonymous.get("/settings"), 401, "not_authenticated")


def test_it_slows_a_flood_of_changes(settings, user: User) -> None:
    settings.FT_RATE_TABLE_SETTINGS = Rate.parse("3/h")
    for size in ("small", "medium", "large"):
        services.table_settings_save(user=user, data={"size": size})
    with pytest.raises(RateLimited):
        services.table_settings_save(user=user, data={"size": "small"})
    user.refresh_from_db()
    assert user.table_settings["size"] == "large"


def test_a_game_keeps_the_option_it_started_with(user: User) -> None:
    before = services.game_start_practice(user=user, code="FT1-N-0000063")
    services.table_settings_save(user=user, data={"auto_home": True})
    after = services.game_start_practice(user=user, code="FT1-N-0000063")
    before.refresh_from_db()
    assert (before.auto_home, after.auto_home) == (False, True)


def test_the_board_page_carries_a_signed_in_players_settings(client, user: User) -> None:
    services.table_settings_save(user=user, data={"back": "red"})
    game = services.game_start_practice(user=user, code="FT1-N-0000063")
    client.force_login(user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    expected = '{"size": "medium", "back": "red", "auto_home": false, "tap": "best"}'
    assert f'"table_settings": {expected}' in page
    assert '"settings_url": "/api/v1/settings"' in page
