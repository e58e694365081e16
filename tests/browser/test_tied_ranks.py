"""Equal results share a rank on the day's board as a player sees it (issue 20, item 6),
on a desktop and a phone: two players who resign the daily deal before any move (score,
moves and time all equal) are both shown at the same rank."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

# Run in `manage.py shell` on the live server's database (Celery is eager there: each
# resign is verified and ranked at once). No sightings: nothing links the two.
TWO_EQUAL = """
from games import services
from games.models import User
for name in {names!r}:
    u = User.objects.create_user(username=name, password="x" * 12)
    game = services.game_start_daily(user=u)
    services.game_act(kind="resign", user=u, game_id=game.pk)
print(services.game_start_daily(user=u).deal.day)
"""


@pytest.mark.parametrize("size", [(1366, 900), (375, 812)])
def test_two_equal_results_show_the_same_rank_on_the_days_board(
    new_page: Callable[..., Page],
    on_site: Callable[[str], str],
    live_url: str,
    shots: Path,
    size: tuple[int, int],
) -> None:
    width, height = size
    names = [f"tie{uuid.uuid4().hex[:8]}", f"tie{uuid.uuid4().hex[:8]}"]
    day = on_site(TWO_EQUAL.format(names=names)).split()[-1]
    page = new_page(viewport={"width": width, "height": height})
    page.goto(f"{live_url}/boards/daily/{day}/")
    ranks = []
    for name in names:
        row = page.locator("#board-rows tr", has_text=name)
        expect(row).to_have_count(1)
        ranks.append(row.locator("td").first.inner_text())
    assert ranks[0] == ranks[1] and re.fullmatch(r"\d+", ranks[0]), ranks
    page.screenshot(path=str(shots / f"tied-ranks-{width}.png"), full_page=True)
