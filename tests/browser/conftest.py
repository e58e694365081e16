"""The browser tier: Debian's Chromium, driven by Playwright, against a live ASGI server.

The server is a real ``daphne`` process on the embedded defaults (a fresh
SQLite file, the in-memory channel layer, eager Celery), what ``make run``
starts but for a fast password hash (tests/support/browser_settings.py), so
the tests are black-box: they sign up and play through the page like a
person. Screenshots go to ``test-results/browser``. Under pytest-xdist each
worker has its own server and database (``make test-browser``).

Outside CI a missing Chromium skips the tier with the reason; in CI
(``CI=true``) it fails, since ``.ci/run`` installs Chromium.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.support.servers import start_server
from tests.support.waiting import clear_of_midnight  # noqa: F401 (an autouse fixture)

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
OUTPUT = Path(os.environ.get("FT_TEST_OUTPUT", ROOT / "test-results")) / "browser"
IN_CI = os.environ.get("CI", "").lower() == "true"


@pytest.fixture(scope="session", autouse=True)
def chromium_present() -> None:
    """Runs only when a browser test is selected."""
    if Path(CHROMIUM).exists():
        return
    if IN_CI:
        pytest.fail(f"{CHROMIUM} is missing; .ci/run installs the chromium package", pytrace=False)
    pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium")


@pytest.fixture(scope="session")
def site_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The live server's environment: the embedded defaults on a fresh SQLite file."""
    workdir = tmp_path_factory.mktemp("site")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        DATABASE_URL=f"sqlite:///{workdir / 'db.sqlite3'}",
        DJANGO_DEBUG="true",
        DJANGO_SETTINGS_MODULE="tests.support.browser_settings",
        FT_TEST_WORKDIR=str(workdir),
        # Every test signs up from 127.0.0.1: the sign-up limits are tested on their own.
        FT_RATE_SIGNUPS_ADDRESS="100000/h",
        FT_RATE_SIGNUPS_DEVICE="100000/h",
        # A duel's clock starts a second after the pairing (5 s on a real site).
        FT_DUEL_COUNTDOWN_SECONDS="1",
    )
    return env


@pytest.fixture
def on_site(site_env: dict[str, str], live_url: str) -> Callable[[str], str]:
    """``on_site(code)``: run Python in ``manage.py shell`` against the live server's
    database (what an operator's shell would do); returns what it printed."""

    def run(code: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", code],
            cwd=ROOT,
            env={**site_env, "FT_DAILY_CERTIFY_SECONDS": "0"},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    return run


@pytest.fixture(scope="session")
def live_url(site_env: dict[str, str]) -> Iterator[str]:
    """A daphne server on the embedded defaults with a fresh database."""
    env = site_env
    workdir = Path(env["FT_TEST_WORKDIR"])
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    # As `make run` does: the shipped proven deals in the practice pool.
    subprocess.run(
        [sys.executable, "manage.py", "fill_practice_pool", "--starter"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    server = start_server(env, workdir)
    try:
        yield server.http
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser) -> Iterator[object]:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def new_page(browser) -> Iterator[Callable[..., Page]]:  # type: ignore[no-untyped-def]
    """``new_page(timeout=10_000, size=None, **options)``: a page of a browser context of its
    own (``options`` as Playwright's ``new_context`` takes them: viewport, locale, touch,
    ...; ``size`` a screen's width and height, a phone's with touch), closed after the test."""
    contexts = []

    def open_page(
        *, timeout: float = 10_000, size: tuple[int, int] | None = None, **options: object
    ) -> Page:
        if size is not None:  # a screen; under 500 px wide a phone's, with touch
            width, height = size
            touch = width < 500
            options = {"viewport": {"width": width, "height": height}, **options}
            options.update(has_touch=touch, is_mobile=touch)
        context = browser.new_context(**options)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(timeout)
        return page

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def shots() -> Path:
    """Where screenshots are saved for people to look at."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    return OUTPUT


# Signing up and starting games through the pages, as a person would ---------------

PASSWORD = "a long enough pass phrase"
CONNECTED = '[data-testid="connection"][data-state="connected"]'


def _sign_up(page: Page, live_url: str) -> str:
    """Create a fresh account through the sign-up form; the page is then signed in."""
    username = f"p{uuid.uuid4().hex[:10]}"
    page.goto(live_url + "/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    # The sign-up form by its action: the footer's language form has a submit button too.
    page.locator('form[action$="/accounts/signup/"] button[type=submit]').click()
    page.wait_for_url(lambda url: "/accounts/signup/" not in url)
    return username


@pytest.fixture
def signed_up_page(page: Page, live_url: str) -> Page:
    """The ``page`` fixture, signed in as a new player (a unique username each time)."""
    _sign_up(page, live_url)
    return page


@pytest.fixture
def sign_up(live_url: str) -> Callable[[Page], str]:
    """``sign_up(page)``: a new account through the form on any page (another
    context's, a phone-sized one); returns its username."""
    return lambda page: _sign_up(page, live_url)


@pytest.fixture
def start_practice(live_url: str) -> Callable[[Page, str], str]:
    """``start_practice(page, code)``: a practice game of ``code`` through the practice
    form; returns the game's URL once its board is connected."""

    def start(page: Page, code: str) -> str:
        page.goto(live_url + "/practice/")
        page.fill("input[name=code]", code)
        page.locator('button[name="action"][value="code"]').click()
        page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}/$"))
        page.locator(CONNECTED).wait_for()
        return page.url

    return start


class Board:
    """Reads the board page through its test hooks, and waits on them (never sleeps)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.root = page.locator("[data-board]")

    @property
    def version(self) -> int:
        return int(self.root.get_attribute("data-version") or "0")

    @property
    def status(self) -> str:
        return self.root.get_attribute("data-status") or ""

    def wait_for_version(self, version: int, timeout: float = 10_000) -> None:
        self.page.wait_for_function(
            "v => document.querySelector('[data-board]').dataset.version === String(v)",
            arg=version,
            timeout=timeout,
        )

    def settled(self) -> None:
        """Wait until no card is still flying to its place (the move animation)."""
        self.page.wait_for_function(
            "() => !document.querySelector('.ft-card.is-moving, .ft-card.is-returning')"
        )

    def wait_connected(self) -> None:
        self.page.locator(CONNECTED).wait_for()

    def piles(self) -> dict[str, list[str]]:
        """Every pile's face-up cards as drawn, bottom first (the waste: its top three)."""
        return self.page.evaluate(
            """() => Object.fromEntries(
                 Array.from(document.querySelectorAll('.ft-table [data-pile]'), (pile) => [
                   pile.dataset.pile,
                   Array.from(pile.querySelectorAll('.ft-card[data-card]'), (c) => c.dataset.card),
                 ]))"""
        )

    def card(self, pile: str, index: int = -1) -> Locator:
        """The card element at ``index`` of ``pile`` (negative: from the top)."""
        cards = self.page.locator(f'[data-pile="{pile}"] .ft-card[data-card]')
        return cards.nth(index)

    def pile(self, name: str) -> Locator:
        return self.page.locator(f'[data-pile="{name}"]')

    def act(self, action: str) -> None:
        """Click the bar's button for ``action`` (its data-action), opening "More" first
        where a phone's bar folds it away."""
        button = self.page.locator(f'.ft-bar [data-action="{action}"]')
        more = self.page.locator('.ft-bar [data-action="more"]')
        if not button.is_visible() and more.is_visible():
            more.click()
        button.click()


@pytest.fixture
def board() -> type[Board]:
    """``board(page)``: the test hooks of the board on ``page``."""
    return Board


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failed browser test's report ends with the last lines its live server logged (a
    CI run keeps no files): a timeout then says what the server was doing meanwhile."""
    report = yield
    if report.failed and call.when == "call" and "live_url" in getattr(item, "fixturenames", ()):
        env = item.funcargs.get("site_env") if hasattr(item, "funcargs") else None
        workdir = Path(env["FT_TEST_WORKDIR"]) if env else None
        for log in sorted(workdir.glob("daphne-*.log")) if workdir else ():
            lines = log.read_text(errors="replace").splitlines()[-150:]
            title = f"live server log {log.name} (last 150 lines)"
            report.sections.append((title, "\n".join(lines)))
    return report


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test in this folder drives Chromium, marked or not: the unit tier runs in
    parallel (``-m "not integration and not browser" -n 2``) and must not take them."""
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.browser)
