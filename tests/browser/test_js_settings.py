"""Unit tests of the table's settings (settings-state.js, pure) and of the reducer taking an
action with the server's automatic moves (state.js), run in Chromium."""

from __future__ import annotations

from typing import Any

import pytest

from games.table_settings import BACKS, DEFAULTS, SIZES
from tests.browser.test_js_units import NOW, Call, _open_units_page, action, game_state

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

CALL = """async ([module, name, args]) => {
  const exports = await import(`/static/js/board/${module}`);
  const value = exports[name];
  return typeof value === "function" ? value(...args) : value;
}"""


@pytest.fixture
def call(page: Any, live_url: str) -> Call:
    _open_units_page(page, live_url)
    return lambda module, name, *args: page.evaluate(CALL, [module, name, list(args)])


def test_the_choices_are_the_servers(call: Call) -> None:
    assert call("settings-state.js", "SIZES") == list(SIZES)
    assert call("settings-state.js", "BACKS") == list(BACKS)
    assert call("settings-state.js", "DEFAULTS") == DEFAULTS


def test_a_stored_copy_is_read_field_by_field_falling_back_to_the_defaults(call: Call) -> None:
    read = lambda text: call("settings-state.js", "readStored", text)  # noqa: E731
    assert read(None) == DEFAULTS
    assert read("not json") == DEFAULTS
    assert read("[1, 2]") == DEFAULTS
    assert read('{"size": "large", "back": "gold", "auto_home": "yes"}') == {
        **DEFAULTS,
        "size": "large",
    }
    assert read('{"size": "small", "back": "lattice", "auto_home": true}') == {
        "size": "small",
        "back": "lattice",
        "auto_home": True,
    }


def test_the_accounts_settings_win_over_the_browsers(call: Call) -> None:
    stored = '{"size": "small", "back": "red", "auto_home": false}'
    account = {"size": "large", "back": "green", "auto_home": True}
    assert call("settings-state.js", "initialSettings", stored, account) == account
    assert call("settings-state.js", "initialSettings", stored, None)["back"] == "red"


def test_a_choice_the_table_does_not_know_changes_nothing(call: Call) -> None:
    settings = dict(DEFAULTS)
    assert call("settings-state.js", "withChoice", settings, "size", "large")["size"] == "large"
    assert call("settings-state.js", "withChoice", settings, "size", "huge") == settings
    assert call("settings-state.js", "withChoice", settings, "colour", "red") == settings
    assert call("settings-state.js", "withChoice", settings, "auto_home", True)["auto_home"] is True
    assert call("settings-state.js", "withChoice", settings, "auto_home", "true") == settings


def test_a_save_sends_only_what_changed(call: Call) -> None:
    saved = dict(DEFAULTS)
    assert call("settings-state.js", "changedFields", saved, saved) is None
    changed = {**saved, "back": "red", "auto_home": True}
    assert call("settings-state.js", "changedFields", saved, changed) == {
        "back": "red",
        "auto_home": True,
    }


def test_the_board_carries_the_size_and_back_for_the_css(call: Call) -> None:
    data = call("settings-state.js", "boardData", {"size": "small", "back": "lattice"})
    assert data == {"cardSize": "small", "cardBack": "lattice"}
    assert call("settings-state.js", "boardData", {"size": 3}) == {
        "cardSize": "medium",
        "cardBack": "blue",
    }


# The reducer and the server's automatic moves ---------------------------------------------


def test_an_action_with_automatic_moves_moves_the_version_by_each(call: Call) -> None:
    game = game_state()  # at version 3
    msg = action(6, {"stock": 19}, action="s", automatic=["t7-f2", "t7-f6"])
    result = call("state.js", "applyAction", game, msg, NOW)
    assert result["kind"] == "applied" and result["game"]["version"] == 6
    # Without them, the same version jump is a missed action: a gap.
    assert call("state.js", "applyAction", game, action(6, {"stock": 19}), NOW)["kind"] == "gap"
    short = action(5, {"stock": 19}, automatic=["t7-f2", "t7-f6"])
    assert call("state.js", "applyAction", game, short, NOW)["kind"] == "gap"
