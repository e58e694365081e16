"""The browser tier: Debian's Chromium, driven by Playwright, against a live ASGI server.

The server is a real ``daphne`` process on the embedded defaults (a fresh
SQLite file, the in-memory channel layer, eager Celery), exactly what
``make run`` starts, so the tests are black-box: they sign up and play
through the page like a person. Screenshots go to ``test-results/browser``.

Outside CI a missing Chromium skips the tier with the reason; in CI
(``CI=true``) it fails, since ``.ci/run`` installs Chromium.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def live_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A daphne server on the embedded defaults with a fresh database."""
    workdir = tmp_path_factory.mktemp("site")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        DATABASE_URL=f"sqlite:///{workdir / 'db.sqlite3'}",
        DJANGO_DEBUG="true",
        DJANGO_SETTINGS_MODULE="ftsite.settings",
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    port = _free_port()
    log = (workdir / "daphne.log").open("wb")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "ftsite.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    try:
        while True:
            if process.poll() is not None:
                raise RuntimeError((workdir / "daphne.log").read_text()[-3000:])
            try:
                urllib.request.urlopen(f"{url}/healthz", timeout=2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


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
def shots() -> Path:
    """Where screenshots are saved for people to look at."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    return OUTPUT
