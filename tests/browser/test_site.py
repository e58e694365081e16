"""The site's pages in a real Chromium: readable, and usable at phone width."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

NO_HORIZONTAL_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


@pytest.mark.parametrize("path", ["/", "/rules/", "/practice/", "/accounts/signup/"])
def test_pages_have_no_horizontal_scroll_at_360_px(browser, live_url: str, path: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 780})
    page = context.new_page()
    page.goto(live_url + path)
    assert page.evaluate(NO_HORIZONTAL_SCROLL), f"{path} scrolls sideways at 360 px"
    context.close()


def test_a_visitor_signs_up_and_reaches_the_home_page(page, live_url: str, shots: Path) -> None:
    page.goto(live_url + "/accounts/signup/")
    page.fill("input[name=username]", "carla")
    page.fill("input[name=password1]", "a long enough pass phrase")
    page.fill("input[name=password2]", "a long enough pass phrase")
    page.locator('form[action$="/accounts/signup/"] button[type=submit]').click()
    page.wait_for_load_state()
    assert "carla" in page.locator("header").inner_text()
    page.screenshot(path=str(shots / "home-signed-in.png"), full_page=True)


def test_the_home_page_counts_down_to_the_next_deal_by_the_second(page, live_url: str) -> None:
    page.goto(live_url + "/")
    value = page.locator("[data-countdown]")
    first = value.inner_text()
    assert len(first.split(":")) == 3  # the script has taken over from the server's HH:MM
    page.wait_for_function(
        "(first) => document.querySelector('[data-countdown]').textContent !== first", arg=first
    )
