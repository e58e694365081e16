"""The site's menu on a phone: one tap on the menu button shows every link of the
header, the button says whether it is open (aria-expanded), the keyboard opens and
closes it, and on a wide screen the links show without a button. In a real Chromium."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

MIN_TAP_PX = 44
SIGNED_IN_LINKS = [
    "Practice",
    "Leaderboards",
    "Archive",
    "Rules",
    "My games",
    "Duels",
    "Leagues",
    "Scorecard",
]


def phone_page(new_page: Callable[..., Page], width: int, height: int) -> Page:
    return new_page(
        viewport={"width": width, "height": height}, has_touch=True, is_mobile=True, locale="en-GB"
    )


def visible_nav_items(page: Page) -> list[dict[str, float | str]]:
    """Every link and button of the header's menu that is drawn inside the window."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('.site-nav a, .site-nav button'), (el) => {
             const r = el.getBoundingClientRect();
             return {text: el.textContent.trim(), x: r.x, right: r.right, top: r.top,
                     bottom: r.bottom, width: r.width, height: r.height};
           }).filter((r) => r.width > 0 && r.height > 0 && r.x >= 0
                            && r.right <= innerWidth && r.bottom <= innerHeight)"""
    )


@pytest.mark.parametrize("size", [(375, 812), (812, 375)], ids=["upright", "on-its-side"])
def test_one_tap_on_the_menu_button_shows_every_link_of_the_header(
    new_page: Callable[..., Page],
    sign_up: Callable[[Page], str],
    shots: Path,
    size: tuple[int, int],
) -> None:
    page = phone_page(new_page, *size)
    username = sign_up(page)
    button = page.get_by_role("button", name="Menu")
    expect(button).to_be_visible()
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(page.locator(".site-nav")).to_be_hidden()
    box = button.bounding_box()
    assert box and box["width"] >= MIN_TAP_PX and box["height"] >= MIN_TAP_PX, box

    button.tap()
    expect(button).to_have_attribute("aria-expanded", "true")
    shown = visible_nav_items(page)
    texts = [item["text"] for item in shown]
    # Every link: the eight pages, the player's own name (the profile) and Log out.
    assert texts == [*SIGNED_IN_LINKS, username, "Log out"], texts
    small = [i for i in shown if i["height"] < MIN_TAP_PX or i["width"] < MIN_TAP_PX]
    assert not small, f"tap targets under {MIN_TAP_PX} px: {small}"
    page.screenshot(path=str(shots / f"menu-open-{size[0]}x{size[1]}.png"))

    # A link of the open menu takes the player there.
    page.locator(".site-nav").get_by_role("link", name="Rules").tap()
    page.wait_for_url("**/rules/")
    expect(page.get_by_role("button", name="Menu")).to_have_attribute("aria-expanded", "false")


def test_the_keyboard_opens_the_menu_and_escape_closes_it_back_on_the_button(
    new_page: Callable[..., Page], live_url: str
) -> None:
    page = phone_page(new_page, 375, 812)
    page.goto(live_url + "/")
    button = page.get_by_role("button", name="Menu")
    button.focus()
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-expanded", "true")
    # Tab goes from the button into the menu, in the page's order.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent.trim()") == "Practice"
    page.keyboard.press("Escape")
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(page.locator(".site-nav")).to_be_hidden()
    assert page.evaluate("document.activeElement.dataset.testid") == "menu-button"
    # Space toggles it too; a tap elsewhere on the page closes it.
    page.keyboard.press(" ")
    expect(button).to_have_attribute("aria-expanded", "true")
    page.locator("main").tap(position={"x": 5, "y": 300})
    expect(button).to_have_attribute("aria-expanded", "false")


def test_a_wide_screen_shows_the_links_without_a_menu_button(
    new_page: Callable[..., Page], live_url: str
) -> None:
    page = new_page(viewport={"width": 1366, "height": 900}, locale="en-GB")
    page.goto(live_url + "/")
    expect(page.get_by_role("button", name="Menu")).to_be_hidden()
    texts = [item["text"] for item in visible_nav_items(page)]
    assert texts == ["Practice", "Leaderboards", "Archive", "Rules", "Sign up", "Log in"], texts


def test_without_the_script_the_links_show_as_a_list(
    new_page: Callable[..., Page], live_url: str
) -> None:
    page = new_page(
        viewport={"width": 375, "height": 812}, java_script_enabled=False, locale="en-GB"
    )
    page.goto(live_url + "/")
    expect(page.locator(".site-menu-button")).to_be_hidden()
    expect(page.locator(".site-nav").get_by_role("link", name="Log in")).to_be_visible()
