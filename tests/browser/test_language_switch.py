"""The footer's language picker in a real browser: choosing a language is the whole
gesture (the select submits on change), the no-JavaScript button is hidden, and the page
comes back in the chosen language at the same address."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser]


@pytest.mark.timeout(60)
def test_choosing_a_language_switches_the_page_without_a_button(page: Page, live_url: str) -> None:
    page.goto(live_url + "/rules/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    form = page.locator(".lang-form")
    expect(form.locator("button[type=submit]")).to_be_hidden()
    form.locator("select").select_option("nl")
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    assert page.url.endswith("/rules/")
    expect(page.locator("h1")).to_contain_text("Forty Thieves: de regels")
    # The choice stays: the next page is Dutch too.
    page.goto(live_url + "/practice/")
    expect(page.locator("html")).to_have_attribute("lang", "nl")
