"""Practice hints in the browser: the server's move is shown, never played for you."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


def test_a_hint_marks_a_legal_source_and_target_without_playing_it(
    signed_up_page, start_practice
) -> None:
    page = signed_up_page
    start_practice(page, "FT1-J-0000002")
    version = page.locator("[data-version]").first.get_attribute("data-version")
    page.locator('[data-action="hint"]').click()
    marked = page.locator("[data-hint]")
    marked.first.wait_for()
    assert marked.count() >= 1
    # Shown, not played: the position is where it was.
    assert page.locator("[data-version]").first.get_attribute("data-version") == version
    # The mark fades by itself.
    marked.first.wait_for(state="detached", timeout=8000)
