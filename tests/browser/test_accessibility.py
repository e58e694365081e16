"""Every page against axe-core (0 serious or critical violations) and every table inside
its page, at 1366x900 and 375x812, in a real Chromium; with the site's CSP on.

axe-core comes from the npm registry at a pinned version and hash (tests/support/axe.py)
and is run in the page through Playwright's ``evaluate`` (the devtools protocol), so the
page's Content-Security-Policy stays as it is served, and no violation of it is allowed.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import IN_CI, Board
from tests.support.axe import AXE_VERSION, AxeUnavailable, axe_source

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

SIZES = {"desktop": (1366, 900), "phone": (375, 812)}
SERIOUS = ("serious", "critical")

PUBLIC_PAGES = [
    "/",
    "/practice/",
    "/rules/",
    "/privacy/",
    "/fair-play/",
    "/boards/daily/",
    "/boards/weekly/",
    "/boards/week/",
    "/boards/month/",
    "/boards/all/",
    "/archive/",
    "/accounts/signup/",
    "/accounts/login/",
    "/accounts/password/reset/",
]
# The signed-in player's own pages ({username} and {game} filled in by the test); the
# game's share and analysis URLs answer text and JSON, not pages.
PLAYER_PAGES = [
    "/",
    "/boards/daily/",
    "/games/",
    "/accounts/profile/",
    "/players/{username}/",
    "/leagues/",
    "/duels/",
    "/duels/queue/",
    "/games/{game}/",
    "/games/{game}/replay/",
    "/accounts/password/",
    "/accounts/delete/",
    "/practice/",
]

DAILY_GAME = """
from games import services
from games.models import User
print(services.game_start_daily(user=User.objects.get(username="{username}")).pk)
"""

# Every table: its box against the window, whether it scrolls inside itself, and whether
# a box around it clips or scrolls it (overflow other than visible, and too narrow).
TABLES = """() => Array.from(document.querySelectorAll('main table'), (table) => {
  const r = table.getBoundingClientRect();
  const head = table.querySelector('caption, th')?.textContent.trim() ?? '';
  let clipped = false;
  for (let box = table.parentElement; box && box !== document.body; box = box.parentElement) {
    const overflow = getComputedStyle(box).overflowX;
    if (overflow !== 'visible' && box.scrollWidth > box.clientWidth + 1) clipped = true;
  }
  return {head, right: r.right, left: r.left, clipped,
          scrolls: table.scrollWidth > table.clientWidth + 1};
})"""


@pytest.fixture(scope="session")
def axe() -> str:
    try:
        return axe_source()
    except AxeUnavailable as why:
        if IN_CI:
            pytest.fail(str(why), pytrace=False)
        pytest.skip(str(why))


@pytest.fixture
def csp_errors() -> Iterator[Callable[[Page], list[str]]]:
    """``watch(page)``: a list that collects the page's CSP violations as they happen."""

    def watch(page: Page) -> list[str]:
        seen: list[str] = []
        page.on(
            "console",
            lambda msg: seen.append(msg.text) if "Content Security Policy" in msg.text else None,
        )
        return seen

    yield watch


def run_axe(page: Page, source: str) -> list[dict[str, Any]]:
    """axe's serious and critical violations on the page, each with where it is."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(source + "\n;undefined")
    results = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "where": [n["target"] for n in v["nodes"][:3]],
        }
        for v in results["violations"]
        if v["impact"] in SERIOUS
    ]


# The scripts of every page (templates/base.html): the JavaScript catalog and the menu. Both
# run before the load event, and neither loads anything after it.
BASE_SCRIPTS = re.compile(r"/jsi18n/$|/js/menu\.[\w.]*js$")


def settle(page: Page) -> None:
    """Wait until the page is all there. ``goto`` waited for its load event (its scripts,
    styles and images); a page with scripts of its own (a board, a replay, live rows) may
    still fetch and draw, so it is given the network's idle time (500 ms with nothing
    loading); a page with only the base's scripts has nothing left but its fonts."""
    sources = page.evaluate("() => Array.from(document.scripts, (s) => s.src).filter(Boolean)")
    if all(BASE_SCRIPTS.search(src) for src in sources):
        page.evaluate("() => document.fonts.ready.then(() => true)")
    else:
        page.wait_for_load_state("networkidle")


def check_page(page: Page, url: str, axe_js: str, shots: Path, name: str) -> list[str]:
    """Problems of one page: axe's serious ones, tables that do not fit, sideways scroll."""
    page.goto(url)
    settle(page)
    problems = [f"{name}: axe {v}" for v in run_axe(page, axe_js)]
    for table in page.evaluate(TABLES):
        width = page.viewport_size["width"] if page.viewport_size else 0
        if table["scrolls"] or table["clipped"] or table["right"] > width + 0.5:
            problems.append(f"{name}: the table '{table['head']}' does not fit: {table}")
    if not page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"):
        problems.append(f"{name}: the page scrolls sideways")
    page.screenshot(path=str(shots / f"a11y-{name}.png"), full_page=True)
    return problems


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_every_public_page_has_no_serious_axe_violation_and_its_tables_fit(
    new_page: Callable[..., Page],
    live_url: str,
    axe: str,
    csp_errors: Callable[[Page], list[str]],
    shots: Path,
    size: str,
) -> None:
    width, height = SIZES[size]
    page = new_page(viewport={"width": width, "height": height}, locale="en-GB", timeout=30_000)
    violations = csp_errors(page)
    problems: list[str] = []
    for path in PUBLIC_PAGES:
        slug = path.strip("/").replace("/", "-") or "home"
        problems += check_page(page, live_url + path, axe, shots, f"{size}-{slug}")
    assert not problems, "\n".join(problems)
    assert not violations, violations
    print(f"axe-core {AXE_VERSION}: {len(PUBLIC_PAGES)} pages clean at {width}x{height}")


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_a_players_pages_and_their_daily_position_have_no_serious_violation_and_fit(
    new_page: Callable[..., Page],
    sign_up: Callable[[Page], str],
    on_site: Callable[[str], str],
    live_url: str,
    axe: str,
    csp_errors: Callable[[Page], list[str]],
    shots: Path,
    size: str,
) -> None:
    width, height = SIZES[size]
    # A browser of its own: fair play would link players sharing one browser and hold
    # the result, and "Your position" would then show no table.
    page = new_page(
        viewport={"width": width, "height": height},
        locale="en-GB",
        timeout=30_000,
        user_agent=f"Mozilla/5.0 (X11; Linux) ft-a11y-test/{uuid.uuid4().hex}",
    )
    violations = csp_errors(page)
    username = sign_up(page)
    game = on_site(DAILY_GAME.format(username=username)).split()[-1]
    page.goto(f"{live_url}/games/{game}/")
    table = Board(page)
    table.wait_connected()
    table.pile("stock").click()
    table.wait_for_version(1)
    page.locator('[data-action="resign"]').click()
    page.locator('[data-testid="confirm-resign"] button[value="resign"]').click()
    expect(page.locator('[data-testid="result-rank"]')).to_have_text(
        re.compile(r"^\d+(st|nd|rd|th) of \d+ players? so far$"), timeout=15_000
    )

    page.goto(f"{live_url}/boards/daily/")
    position = page.locator(".board-table--position")
    expect(position).to_be_visible()
    # Every column of "Your position" is drawn inside its table, Time the last one.
    cells = page.evaluate(
        """() => {
          const table = document.querySelector('.board-table--position');
          const box = table.getBoundingClientRect();
          return Array.from(table.querySelectorAll('th'), (th) => {
            const r = th.getBoundingClientRect();
            return {name: th.textContent.trim(), inside: r.right <= box.right + 0.5
                    && r.right <= innerWidth};
          });
        }"""
    )
    names = ["Rank", "Player", "Rating", "Result", "Score", "Moves", "Time"]  # rating: issue 40
    assert [c["name"] for c in cells][:7] == names
    assert all(c["inside"] for c in cells), cells

    problems: list[str] = []
    for number, path in enumerate(PLAYER_PAGES):
        url = live_url + path.format(username=username, game=game)
        slug = path.strip("/").split("/")[0] or "home"
        problems += check_page(page, url, axe, shots, f"{size}-player-{number}-{slug}")
    assert not problems, "\n".join(problems)
    assert not violations, violations
