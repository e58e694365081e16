"""Two real browsers play a duel by link to its end: one makes the challenge link from the
menu's Duels page, the other opens and accepts it, both tables start at one instant with
both clocks running, each move of one shows on the other's panel in counts, and when both
games are over both panels show the result and offer a rematch."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ON = "The duel is on."


def test_two_players_duel_by_link_to_the_end(
    new_page, sign_up, live_url, board, shots, on_site
) -> None:
    # The reserve the solver queue keeps ready (here uncertified: on_site has no solver).
    on_site(
        "from games import services; services.duel_reserve_fill(variant='forty-thieves', target=2)"
    )
    ada, bob = new_page(), new_page()
    sign_up(ada)
    bob_name = sign_up(bob)

    ada.goto(live_url + "/")
    ada.locator('[data-testid="menu-duels"]').click()
    ada.locator('[data-testid="duel-challenge"]').click()
    ada.wait_for_url(re.compile(r"/duels/[0-9a-f-]{36}/$"))
    link = ada.locator('[data-testid="duel-link"]').inner_text().strip()
    expect(ada.locator('[data-testid="duel-status"]')).to_contain_text("Waiting")

    bob.goto(link)
    bob.locator('[data-testid="duel-accept"]').click()
    bob.wait_for_url(re.compile(r"/duels/[0-9a-f-]{36}/$"))
    # Ada's page hears "started" and reloads into her own table.
    ada.locator("[data-board]").wait_for()
    tables = {"ada": board(ada), "bob": board(bob)}
    for name, page in (("ada", ada), ("bob", bob)):
        tables[name].wait_connected()
        expect(page.locator('[data-testid="duel-status"]')).to_have_text(ON, timeout=15_000)
        expect(page.locator('[data-testid="duel-clock-0"]')).to_have_text(re.compile(r"^\d+:\d\d$"))
        expect(page.locator('[data-testid="duel-clock-1"]')).to_have_text(re.compile(r"^\d+:\d\d$"))

    # Ada turns a card: bob's panel shows her stock go down, never the card.
    tables["ada"].pile("stock").click()
    tables["ada"].wait_for_version(1)
    seat = bob.locator('[data-testid="duel-seat-0"]')
    expect(seat.locator('[data-field="stock"]')).to_have_text("63")
    expect(seat.locator('[data-field="moves"]')).to_have_text("1")
    ada.screenshot(path=str(shots / "duel-running.png"), full_page=True)

    for page in (ada, bob):
        page.locator('[data-action="resign"]').first.click()
        page.locator('[data-testid="confirm-resign"] button[value="resign"]').click()

    # Equal scores: the board's order puts fewer moves first, so bob (no move) wins.
    expect(bob.locator('[data-testid="duel-status"]')).to_have_text("You won the duel!")
    expect(ada.locator('[data-testid="duel-status"]')).to_have_text("You lost the duel.")
    expect(ada.locator('[data-testid="duel-rematch"]')).to_be_visible()
    # Both games over: the deal is revealed and each seat's game can be replayed.
    expect(bob.locator("[data-duel-replay]")).to_have_count(2)
    bob.get_by_role("button", name="Look at the board").click()  # the game's result dialog
    bob.locator('[data-testid="duel-both-replays"]').click()
    bob.wait_for_url(re.compile(r"/duels/[0-9a-f-]{36}/replay/$"))
    # Verification may still be running: the pending page reloads itself until it is done.
    expect(bob.locator("[data-replay]")).to_have_count(2, timeout=30_000)
    for n in (0, 1):  # each viewer drawn its deal (its "First" is off at step 0)
        expect(bob.locator('[data-go="first"]').nth(n)).to_be_disabled()
    bob.keyboard.press("ArrowRight")  # the keyboard steps both viewers together
    steps = bob.locator("[data-replay-step]")
    expect(steps.first).to_have_text("1")  # ada's draw
    expect(steps.nth(1)).to_have_text("1")  # bob's resign, his only action
    bob.screenshot(path=str(shots / "duel-replay.png"), full_page=True)
    bob.screenshot(path=str(shots / "duel-finished.png"), full_page=True)

    # His scorecard shows the duel: the record, and the duel rating once it has moved (the
    # rating waits for both games' verification, which the replay page also waited for).
    bob.goto(f"{live_url}/players/{bob_name}/")
    duels = bob.get_by_test_id("scorecard-duels")
    expect(duels.get_by_test_id("duel-record")).to_contain_text("1")
    expect(duels.locator(".duel-list li")).to_have_count(1)
    expect(duels.locator(".duel-list li")).to_contain_text("won")
    bob.screenshot(path=str(shots / "duel-scorecard.png"), full_page=True)
