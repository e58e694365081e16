"""Sign-up offers the optional e-mail address (the only way to reset a forgotten
password), says so, and refuses a malformed one in words (issue 20, item 6), in a real
Chromium on a desktop and a phone."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


@pytest.mark.parametrize("size", [(1366, 900), (375, 812)])
def test_sign_up_offers_the_optional_email_and_validates_it(
    new_page: Callable[..., Page], live_url: str, shots: Path, size: tuple[int, int]
) -> None:
    width = size[0]
    page = new_page(size=size)
    page.goto(f"{live_url}/accounts/signup/")
    form = page.locator('form[action$="/accounts/signup/"]')
    email = form.locator("input[name=email]")
    expect(email).to_be_visible()
    expect(form).to_contain_text("E-mail address (optional)")
    expect(form).to_contain_text("forgotten password cannot be reset")
    box = email.bounding_box()
    assert box and box["x"] + box["width"] <= width  # fits the screen
    page.screenshot(path=str(shots / f"signup-email-{width}.png"), full_page=True)
    username = f"p{uuid.uuid4().hex[:10]}"
    form.locator("input[name=username]").fill(username)
    email.fill("not an address")
    form.locator("input[name=password1]").fill(PASSWORD)
    form.locator("input[name=password2]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.locator(".errorlist")).to_contain_text("Enter a valid email address.")
    page.locator("input[name=email]").fill(f"{username}@example.org")
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    page.locator('form[action$="/accounts/signup/"] button[type=submit]').click()
    page.wait_for_url(lambda url: "/accounts/signup/" not in url)
    page.goto(f"{live_url}/accounts/profile/")
    expect(page.locator("input[name=email]")).to_have_value(f"{username}@example.org")
