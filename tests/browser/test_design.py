"""One look across every page, in a real Chromium (issue 36): each main page at a phone's
375 px and a laptop's 1366 px, in the light theme and the dark one (the system's
prefers-color-scheme, as Playwright's color_scheme sets it), fits its window, has every
text and every button's label at 4.5:1 or better, dresses every button and field in the
design's tokens rather than the browser's own look, and keeps the menu's items (the Log
out button among the links) on one baseline in one colour.

The pages are filled first (tests/browser/site_pages.py: three weeks of boards, a
scorecard with its charts, a league), on a server and database of this module's own, so
no other test meets the made-up players. Then every main page is photographed at both
widths in each of the site's languages, once, to test-results/browser/pages/
<lang>-<page>-<width>.png, for people to look at.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from django.conf import settings

from tests.browser.conftest import OUTPUT, PASSWORD, ROOT
from tests.browser.design_probes import CONTRAST, MENU, OVERFLOW, TOKENS
from tests.browser.site_pages import PAGES, VISITOR_PAGES, seed_site
from tests.support.servers import start_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

WIDTHS = {375: 812, 1366: 900}
LANGUAGES = [code for code, _name in settings.LANGUAGES]


@pytest.fixture(scope="module")
def site_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A database of this module's own: the seeded players stay out of the other tests."""
    workdir = tmp_path_factory.mktemp("design-site")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        DATABASE_URL=f"sqlite:///{workdir / 'db.sqlite3'}",
        DJANGO_DEBUG="true",
        DJANGO_SETTINGS_MODULE="tests.support.browser_settings",
        FT_TEST_WORKDIR=str(workdir),
        FT_RATE_SIGNUPS_ADDRESS="100000/h",
        FT_RATE_SIGNUPS_DEVICE="100000/h",
    )
    return env


@pytest.fixture(scope="module")
def live_url(site_env: dict[str, str]) -> Iterator[str]:
    workdir = Path(site_env["FT_TEST_WORKDIR"])
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=site_env,
        check=True,
    )
    server = start_server(site_env, workdir)
    try:
        yield server.http
    finally:
        server.stop()


def _shell(site_env: dict[str, str], code: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env={**site_env, "FT_DAILY_CERTIFY_SECONDS": "0"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.fixture(scope="module")
def site(browser: Browser, live_url: str, site_env: dict[str, str]) -> dict[str, Any]:
    """A player signed up through the form, the site filled around them; the signed-in
    browser state (its cookies) to open pages with, and the paths' values."""
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    username = f"d{uuid.uuid4().hex[:8]}"
    page.goto(live_url + "/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator('form[action$="/accounts/signup/"] button[type=submit]').click()
    page.wait_for_url(lambda url: "/accounts/signup/" not in url)
    values = seed_site(lambda code: _shell(site_env, code), username=username)
    state = context.storage_state()
    context.close()
    return {"state": state, "values": values}


def _context(
    browser: Browser, *, width: int, scheme: str = "light", locale: str = "en-GB", state: Any
) -> BrowserContext:
    return browser.new_context(
        viewport={"width": width, "height": WIDTHS[width]},
        color_scheme=scheme,  # type: ignore[arg-type]
        locale=locale,
        storage_state=state,
    )


def _pages(site: dict[str, Any]) -> list[tuple[str, str, bool]]:
    """(name, path, signed in) of every main page."""
    signed_in = [(name, path.format(**site["values"]), True) for name, path in PAGES]
    return signed_in + [(name, path, False) for name, path in VISITOR_PAGES]


def _open_menu(page: Page) -> None:
    button = page.locator('[data-testid="menu-button"]')
    if button.is_visible():
        button.click()
        page.locator(".site-nav.is-open").wait_for()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", list(WIDTHS))
def test_every_main_page_fits_reads_and_wears_the_design(
    browser: Browser, live_url: str, site: dict[str, Any], width: int, scheme: str
) -> None:
    problems: list[str] = []
    states = {True: site["state"], False: None}
    contexts = {
        signed: _context(browser, width=width, scheme=scheme, state=state)
        for signed, state in states.items()
    }
    try:
        for name, path, signed in _pages(site):
            page = contexts[signed].new_page()
            page.set_default_timeout(15_000)
            page.goto(live_url + path)  # its load: the modules have run (they are deferred)
            found = page.evaluate(OVERFLOW, width) + page.evaluate(CONTRAST)
            found += page.evaluate(TOKENS)
            _open_menu(page)
            found += page.evaluate(MENU)
            problems += [f"{name} ({path}): {p}" for p in found]
            page.close()
    finally:
        for context in contexts.values():
            context.close()
    assert not problems, f"{len(problems)} problems at {width} px, {scheme}:\n" + "\n".join(
        problems[:60]
    )


def test_the_probes_see_the_browsers_own_look_and_a_crowded_page(
    browser: Browser, live_url: str
) -> None:
    """The checks can fail: a page with a bare field, a grey-on-grey word, a menu item a
    few pixels up and a block wider than the window is caught on each count."""
    context = browser.new_context(viewport={"width": 375, "height": 812})
    try:
        page = context.new_page()
        page.goto(live_url + "/privacy/")
        page.evaluate(
            """() => {
              const field = document.createElement('input');
              field.className = 'plain';
              field.style.all = 'revert';
              document.body.append(field);
              const pale = document.createElement('p');
              pale.textContent = 'pale words';
              pale.style.color = '#bbb';
              document.querySelector('main').append(pale);
              const wide = document.createElement('div');
              wide.style.width = '600px';
              wide.style.height = '4px';
              document.querySelector('main').append(wide);
              const item = document.querySelector('.site-nav a[href="/rules/"]');
              item.style.position = 'relative';
              item.style.top = '-4px';
              item.style.color = 'rgb(0, 128, 0)';
            }"""
        )
        assert page.evaluate(OVERFLOW, 375)
        assert any("pale words" in p for p in page.evaluate(CONTRAST))
        assert any("input.plain" in p for p in page.evaluate(TOKENS))
        page.set_viewport_size({"width": 1366, "height": 900})
        menu = page.evaluate(MENU)
        assert any("baselines differ" in p for p in menu), menu
        assert any("colours differ" in p for p in menu), menu
    finally:
        context.close()


def test_every_main_page_is_photographed_in_every_language(
    browser: Browser, live_url: str, site: dict[str, Any]
) -> None:
    """One pass: each page at each width in each language, light; none scrolls sideways."""
    out = OUTPUT / "pages"
    out.mkdir(parents=True, exist_ok=True)
    wide: list[str] = []
    for language in LANGUAGES:
        for width in WIDTHS:
            contexts = {
                signed: _context(
                    browser, width=width, locale=language, state=site["state"] if signed else None
                )
                for signed in (True, False)
            }
            try:
                for name, path, signed in _pages(site):
                    page = contexts[signed].new_page()
                    page.set_default_timeout(15_000)
                    page.goto(live_url + path)
                    assert page.locator(f'html[lang="{language}"]').count() == 1, (language, name)
                    wide += [f"{language} {name}: {p}" for p in page.evaluate(OVERFLOW, width)]
                    shot = out / f"{language}-{name}-{width}.png"
                    page.screenshot(path=str(shot), full_page=True)
                    page.close()
            finally:
                for context in contexts.values():
                    context.close()
    assert not wide, "\n".join(wide)
    taken = {shot.name for shot in out.glob("*.png")}
    for language in LANGUAGES:
        for name, _path, _signed in _pages(site):
            assert {f"{language}-{name}-{w}.png" for w in WIDTHS} <= taken, (language, name)


def test_the_league_owner_copies_the_invite_link_with_one_click(
    browser: Browser, live_url: str, site: dict[str, Any]
) -> None:
    """The Copy link button (static/js/copy-button.js) puts the invite on the clipboard
    and says so; without the Clipboard API the link is left selected to copy by hand."""
    path = f"{live_url}/leagues/{site['values']['league']}/"
    context = _context(browser, width=375, state=site["state"])
    try:
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_url)
        page = context.new_page()
        page.goto(path)
        invite = page.locator('[data-testid="invite-link"]').inner_text().strip()
        assert "/leagues/join/" in invite
        page.locator('[data-testid="copy-invite"]').click()
        page.locator("#invite-status", has_text="Copied.").wait_for()
        assert page.evaluate("navigator.clipboard.readText()") == invite

        bare = context.new_page()
        bare.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
        bare.goto(path)
        bare.locator('[data-testid="copy-invite"]').click()
        assert bare.locator("#invite-status").inner_text().strip()
        assert bare.evaluate("String(getSelection())").strip() == invite
    finally:
        context.close()
