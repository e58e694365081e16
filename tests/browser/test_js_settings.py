"""The table's settings (settings-state.js) offer the server's own choices, in Chromium as
the site serves it. The rest of its cases are plain data: tests/js/settings.test.js."""

from __future__ import annotations

from typing import Any

import pytest

from games.table_settings import BACKS, DEFAULTS, SIZES, TAPS
from tests.browser.test_js_units import Call, _open_units_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

VALUE = """async ([module, name]) => {
  const exports = await import(`/static/js/board/${module}`);
  return exports[name];
}"""


@pytest.fixture
def value(page: Any, live_url: str) -> Call:
    _open_units_page(page, live_url)
    return lambda module, name: page.evaluate(VALUE, [module, name])


def test_the_choices_are_the_servers(value: Call) -> None:
    assert value("settings-state.js", "SIZES") == list(SIZES)
    assert value("settings-state.js", "BACKS") == list(BACKS)
    assert value("settings-state.js", "TAPS") == list(TAPS)
    assert value("place.js", "TAP_MODES") == list(TAPS)
    assert value("settings-state.js", "DEFAULTS") == DEFAULTS
