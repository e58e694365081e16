"""The duel pages (the hub, the queue's page, a running duel's table with its panel) have
no serious axe-core violation, fit the window and break no Content-Security-Policy rule, on
a laptop and a phone: tests/browser/test_accessibility.py's checks, on a duel of two players
made in the live site's shell."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.browser.test_accessibility import SIZES, axe, check_page, csp_errors  # noqa: F401

pytestmark = pytest.mark.browser

DUEL = """
from games import services
from games.duels.models import DuelQueueEntry
from games.models import User
DuelQueueEntry.objects.all().delete()
services.duel_reserve_fill(variant="forty-thieves", target=1)
duel, token = services.duel_challenge_create(user=User.objects.get(username="{a}"))
print(services.duel_challenge_accept(user=User.objects.get(username="{b}"), token=token).pk)
"""


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_the_duel_pages_have_no_serious_violation_and_fit(
    new_page: Callable[..., Page],
    sign_up: Callable[[Page], str],
    on_site: Callable[[str], str],
    live_url: str,
    axe: str,  # noqa: F811 - the fixture
    csp_errors: Callable[[Page], list[str]],  # noqa: F811 - the fixture
    shots: Path,
    size: str,
) -> None:
    width, height = SIZES[size]
    page = new_page(viewport={"width": width, "height": height}, locale="en-GB", timeout=30_000)
    violations = csp_errors(page)
    ada = sign_up(page)
    bob = sign_up(new_page())
    problems: list[str] = []
    # The queue's page before the duel: once in one, the page would go to it.
    for n, path in enumerate(["/duels/", "/duels/queue/"]):
        problems += check_page(page, live_url + path, axe, shots, f"{size}-duel-{n}")
    page.goto(live_url + "/duels/")
    duel = on_site(DUEL.format(a=ada, b=bob)).split()[-1]
    problems += check_page(page, f"{live_url}/duels/{duel}/", axe, shots, f"{size}-duel-table")
    assert not problems, "\n".join(problems)
    assert not violations, violations
