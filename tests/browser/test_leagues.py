"""Leagues in a real Chromium: the owner creates a league and copies its invite link; a
second player opens the link, sees the league's name and a Join button (the GET joins no
one), joins, and sees the league's board live and the league on the home page."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser


def test_a_player_joins_a_league_by_its_invite_link(
    live_url: str, new_page: Callable[..., Page], sign_up: Callable[[Page], str], shots: Path
) -> None:
    owner = new_page(viewport={"width": 1280, "height": 900}, locale="en-GB")
    owner_name = sign_up(owner)
    owner.goto(live_url + "/leagues/")
    owner.fill("input[name=name]", "Thursday Club")
    owner.locator('form[action$="/leagues/new/"] button[type=submit]').click()
    invite = owner.locator('[data-testid="invite-link"]').inner_text().strip()
    assert "/leagues/join/" in invite

    guest = new_page(viewport={"width": 1280, "height": 900}, locale="en-GB")
    guest_name = sign_up(guest)
    guest.goto(invite)
    assert "Join Thursday Club" in guest.locator("h1").inner_text()
    assert owner_name not in guest.content()  # no member list before joining
    guest.screenshot(path=str(shots / "league-invite.png"), full_page=True)
    guest.locator('[data-testid="join-league"]').click()
    guest.wait_for_url(lambda url: "/join/" not in url)
    members = guest.locator('[data-testid="league-members"]').inner_text()
    assert owner_name in members and guest_name in members
    guest.screenshot(path=str(shots / "league-joined.png"), full_page=True)

    # The league's board of today, live over the league's socket.
    guest.get_by_role("link", name="Daily", exact=True).click()
    guest.locator(".board-live.is-live").wait_for()
    guest.screenshot(path=str(shots / "league-board.png"), full_page=True)

    # The home page lists the league (no result yet today).
    guest.goto(live_url + "/")
    assert "Thursday Club" in guest.locator('[data-testid="home-leagues"]').inner_text()
