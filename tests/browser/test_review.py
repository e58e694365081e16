"""The staff's fair-play review in a real browser: a scout and a player on one browser, both
at a script's pace, are held; a reviewer signs in, reads the evidence and disqualifies one;
the player's scorecard then says so."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

SETUP = """
from games import services
from games.models import User
from leaderboards.models import Result
device = "D" * 32
scout = User.objects.create_user(username="scout-{tag}", password="x")
player = User.objects.create_user(username="player-{tag}", password="x")
User.objects.create_user(username="referee-{tag}", password="{password}", is_staff=True)
for user in (scout, player):
    services.sighting_record(user_id=user.pk, device_token=device, address="198.51.100.4",
                             user_agent="Firefox/140")
for user, draws in ((scout, 60), (player, 40)):
    game = services.game_start_daily(user=user)
    for _ in range(draws):
        services.game_act(kind="move", user=user, game_id=game.pk, move="s")
    services.game_act(kind="resign", user=user, game_id=game.pk)
print(Result.objects.get(game__player=player).pk)
"""


def test_a_reviewer_reads_the_evidence_and_disqualifies_a_held_result(
    page, live_url: str, on_site: Callable[[str], str], shots: Path
) -> None:
    tag, password = "r1", "a long enough pass phrase"
    result_id = int(on_site(SETUP.format(tag=tag, password=password)).split()[-1])
    page.goto(f"{live_url}/staff/reviews/")
    # Staff only: the admin's sign-in first, then back to the queue.
    page.fill("input[name=username]", f"referee-{tag}")
    page.fill("input[name=password]", password)
    page.locator("input[type=submit], button[type=submit]").first.click()
    page.wait_for_url(f"{live_url}/staff/reviews/")
    queue = page.locator('[data-testid="review-queue"]')
    assert f"player-{tag}" in queue.inner_text() and "linked" in queue.inner_text()
    page.screenshot(path=shots / "review-queue.png", full_page=True)
    page.goto(f"{live_url}/staff/reviews/{result_id}/")
    linked = page.locator('[data-testid="linked-accounts"]').inner_text()
    assert f"scout-{tag}" in linked and "turned 60 cards" in linked
    assert "regular beat" in page.locator('[data-testid="timing"]').inner_text() or "ms" in (
        page.locator('[data-testid="timing"]').inner_text()
    )
    page.screenshot(path=shots / "review-evidence.png", full_page=True)
    page.locator('input[name="decision"][value="disqualified"]').check()
    page.fill("textarea[name=why]", "the scout's stock, played by a script")
    page.locator('[data-testid="decide"] button[type=submit]').click()
    page.wait_for_url(f"{live_url}/staff/reviews/{result_id}/")
    assert page.locator('[data-testid="review-state"]').inner_text() == "disqualified"
    assert (
        "the scout's stock, played by a script"
        in page.locator('[data-testid="decisions"]').inner_text()
    )
    page.goto(f"{live_url}/players/player-{tag}/")
    assert page.locator('[data-testid="review-disqualified"]').count() == 1
    page.screenshot(path=shots / "review-scorecard.png", full_page=True)
