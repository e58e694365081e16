"""Screenshots of the main pages of any tree of this project, for a before/after review.

    .venv/bin/python benchmarks/screenshots.py --tree . --out /tmp/after
    git worktree add /tmp/before <commit> && \
        .venv/bin/python benchmarks/screenshots.py --tree /tmp/before --out /tmp/shots-before

Each tree runs as `make run` would run it (a fresh SQLite file, the in-memory channel layer,
Celery in-process, today's deal opened), with this checkout's virtualenv; one player,
Marta, plays today's deal: she opens it from the home page, draws three cards and
resigns. Then home (a visitor's and hers), the table at 1366x900 and 375x812 (a phone,
touch), the result dialog, the day's board and her scorecard, each at both sizes.

The clicks are what a person would do on either tree, so the same script shoots a tree of
any age: a control is found by its role and its English name, behind the phone's "More"
menu when the new tree folds it there, and a browser confirm() is accepted.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

VENV_PYTHON = Path(__file__).resolve().parents[1] / ".venv" / "bin" / "python"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SIZES = {"1366": (1366, 900), "375": (375, 812)}
USER, PASSWORD = "marta", "a long pass phrase 36"
MAKE_USER = (
    "from django.contrib.auth import get_user_model; "
    f"get_user_model().objects.create_user({USER!r}, password={PASSWORD!r}, "
    "display_name='Marta R.')"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def site(tree: Path) -> Iterator[str]:
    """The tree's site on a fresh SQLite file; yields its address."""
    work = Path(tempfile.mkdtemp(prefix="shots-"))
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{work / 'db.sqlite3'}",
        "DJANGO_DEBUG": "true",
        "PYTHONPATH": str(tree),
    }
    for name in ("REDIS_URL", "CI"):
        env.pop(name, None)

    def manage(*args: str, check: bool = True) -> None:
        subprocess.run(
            [str(VENV_PYTHON), "manage.py", *args],
            cwd=tree,
            env=env,
            check=check,
            stdout=subprocess.DEVNULL,
        )

    manage("migrate", "--noinput")
    manage("open_daily")
    manage("open_weekly", check=False)
    manage("fill_practice_pool", "--starter", check=False)  # newer trees only
    manage("shell", "-c", MAKE_USER)
    port = free_port()
    server = subprocess.Popen(
        [str(VENV_PYTHON), "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=tree,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"{base}/healthz", timeout=1)
                break
            time.sleep(0.2)
        yield base
    finally:
        server.terminate()
        server.wait(10)


def new_page(browser: Browser, size: str, cookies: list | None = None) -> Page:
    width, height = SIZES[size]
    phone = size == "375"
    context = browser.new_context(
        viewport={"width": width, "height": height},
        has_touch=phone,
        is_mobile=phone,
        locale="en-GB",
        reduced_motion="reduce",
    )
    if cookies:
        context.add_cookies(cookies)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    return page


def sign_in(browser: Browser, base: str) -> list:
    page = new_page(browser, "1366")
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", USER)
    page.fill("input[name=password]", PASSWORD)
    page.locator("input[name=password]").press("Enter")
    page.wait_for_load_state()
    cookies = page.context.cookies()
    page.context.close()
    return cookies


def click(page: Page, name: str) -> None:
    """The control named ``name``, opening the bar's "More" menu first if it hides there."""
    control = page.get_by_role("button", name=name, exact=True).first
    if not control.is_visible():
        more = page.get_by_role("button", name="More", exact=True)
        if more.count() and more.first.is_visible():
            more.first.click()
    control = page.get_by_role("button", name=name, exact=True).first
    if not control.is_visible():
        control = page.get_by_role("menuitem", name=name, exact=True).first
    control.click()


def play_daily(page: Page, base: str) -> str:
    """Open today's deal from the home page (its form, so no confirmation step differs)."""
    page.goto(base + "/")
    page.evaluate("() => document.querySelector('form[action$=\"/play/daily/\"]').submit()")
    page.wait_for_url("**/games/**")
    page.wait_for_selector("text=Connected", timeout=15_000)
    return page.url


def shoot(tree: Path, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    shots: list[Path] = []

    def save(page: Page, name: str) -> None:
        page.wait_for_timeout(400)
        path = out / f"{name}.png"
        page.screenshot(path=str(path))
        shots.append(path)

    with site(tree) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for size in SIZES:
            page = new_page(browser, size)
            page.goto(base + "/")
            save(page, f"home-visitor-{size}")
            page.context.close()
        cookies = sign_in(browser, base)
        page = new_page(browser, "1366", cookies)
        game_url = play_daily(page, base)
        for _ in range(3):
            page.locator("[data-pile=stock]").first.click()
            page.wait_for_timeout(300)
        save(page, "table-1366")
        phone = new_page(browser, "375", cookies)
        phone.goto(game_url)
        phone.wait_for_selector("text=Connected", timeout=15_000)
        save(phone, "table-375")
        click(page, "Resign")
        confirm = page.get_by_role("dialog").get_by_role("button", name="Resign")
        if confirm.count() and confirm.first.is_visible():
            confirm.first.click()
        page.wait_for_timeout(1500)
        save(page, "result-1366")
        phone.reload()
        phone.wait_for_timeout(1500)
        save(phone, "result-375")
        for size in SIZES:
            page = new_page(browser, size, cookies)
            page.goto(base + "/")
            save(page, f"home-player-{size}")
            page.goto(f"{base}/boards/daily/")
            save(page, f"board-{size}")
            page.goto(f"{base}/players/{USER}/")
            save(page, f"scorecard-{size}")
            page.context.close()
        browser.close()
    return shots


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=Path("."))
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    for path in shoot(args.tree.resolve(), args.out):
        print(path)


if __name__ == "__main__":
    sys.exit(main())
