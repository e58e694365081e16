"""A league's arena in a real Chromium: the owner makes one from the league's page (a
field out of bounds first: the form says what it expects), a member finds it on the
league's page and joins it, its page names the league, and a player outside the league
gets a 404."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser


def test_a_league_owner_makes_an_arena_and_a_member_joins_it(
    live_url: str, new_page: Callable[..., Page], sign_up: Callable[[Page], str], shots: Path
) -> None:
    owner = new_page(viewport={"width": 1280, "height": 900}, locale="en-GB")
    sign_up(owner)
    owner.goto(live_url + "/leagues/")
    owner.fill("input[name=name]", "Arena Club")
    owner.locator('form[action$="/leagues/new/"] button[type=submit]').click()
    invite = owner.locator('[data-testid="invite-link"]').inner_text().strip()
    league_url = owner.url

    form = owner.locator('[data-testid="league-arena-form"]')
    start = datetime.now(UTC).replace(second=0, microsecond=0) + timedelta(minutes=20)
    form.locator("input[name=starts_at]").fill(start.strftime("%Y-%m-%dT%H:%M"))
    form.locator("input[name=minutes]").fill("30")
    form.locator("input[name=round_minutes]").fill("2")  # under the 3 minutes a round needs
    form.locator("select[name=variant]").select_option("forty-thieves")
    form.locator('[data-testid="league-arena-make"]').click()
    errors = owner.locator('[data-testid="league-arena-field-errors"]')
    expect(errors).to_contain_text("greater than or equal to 3")
    owner.locator("input[name=round_minutes]").fill("5")
    owner.locator('[data-testid="league-arena-make"]').click()
    owner.wait_for_url(lambda url: "/arenas/" in url)
    arena_path = owner.url.removeprefix(live_url)
    expect(owner.locator('[data-testid="arena-league"]')).to_contain_text("Arena Club")
    owner.screenshot(path=str(shots / "league-arena-made.png"), full_page=True)

    member = new_page(viewport={"width": 1280, "height": 900}, locale="en-GB")
    member_name = sign_up(member)
    member.goto(invite)
    member.locator('[data-testid="join-league"]').click()
    member.wait_for_url(lambda url: "/join/" not in url)
    upcoming = member.locator('[data-testid="league-arenas-upcoming"]')
    upcoming.locator(f'a[href="{arena_path}"]').click()
    expect(member.locator('[data-testid="arena-league"]')).to_contain_text("Arena Club")
    member.locator('[data-testid="arena-join"]').click()
    expect(member.locator('[data-testid="arena-entered"]')).to_be_visible()
    table = member.locator('[data-testid="arena-standings"]')
    expect(table.locator("tbody tr.board-me")).to_contain_text(member_name)
    member.screenshot(path=str(shots / "league-arena-joined.png"), full_page=True)

    outsider = new_page(viewport={"width": 1280, "height": 900}, locale="en-GB")
    sign_up(outsider)
    answer = outsider.goto(live_url + arena_path)
    assert answer is not None and answer.status == 404
    assert "Arena Club" not in outsider.content() and member_name not in outsider.content()
    league_page = outsider.goto(league_url)
    assert league_page is not None and league_page.status == 404
