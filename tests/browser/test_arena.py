"""An arena in a real browser: the list reached from the duels page, Join on the arena's
page, its live table connected over the arena socket, and a `standings` message redrawn
into the table (the viewer's row marked, a player who left marked), in the page's words."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import WebSocketRoute, expect

pytestmark = pytest.mark.browser


def test_a_player_joins_an_arena_and_its_table_moves_live(
    new_page, sign_up, live_url, on_site, shots
) -> None:
    arena_id = on_site(
        "from django.utils import timezone; from games import services;"
        " print(services.arena_create(starts_at=timezone.now(), minutes=45,"
        " round_minutes=5).pk)"
    ).split()[-1]  # the shell's own notice comes first
    page = new_page()
    name = sign_up(page)
    page.goto(live_url + "/duels/")
    page.locator('[data-testid="duels-arenas"]').click()
    page.locator(f'a[href="/arenas/{arena_id}/"]').first.click()
    page.locator('[data-testid="arena-join"]').click()
    expect(page.locator('[data-testid="arena-entered"]')).to_be_visible()
    table = page.locator('[data-testid="arena-standings"]')
    expect(table.locator("tbody tr.board-me")).to_contain_text(name)
    # The real arena socket sends the table on connecting; the page draws it (the same rows).
    frames: list[str] = []

    def listen(ws) -> None:  # type: ignore[no-untyped-def]
        if "/ws/arenas/" in ws.url:
            ws.on("framereceived", lambda payload: frames.append(payload))

    page.on("websocket", listen)  # before the socket opens: no frame is missed
    page.reload()
    for _ in range(50):
        if frames:
            break
        page.wait_for_timeout(100)
    assert frames, "the arena socket sent nothing"
    hello = json.loads(frames[0])
    assert hello["type"] == "standings" and [r["name"] for r in hello["rows"]] == [name]
    expect(table.locator("tbody tr")).to_have_count(1)
    expect(table).not_to_have_class(re.compile("is-offline"))
    page.screenshot(path=str(shots / "arena.png"), full_page=True)

    # A round settled elsewhere: the table the socket sends is drawn as it comes.
    entry = int(table.get_attribute("data-arena-entry") or 0)

    def row(entry: int, rank: int, name: str, points: int, rounds: int, left: bool) -> dict:
        return {
            "entry": entry,
            "rank": rank,
            "name": name,
            "points": points,
            "rounds_played": rounds,
            "left": left,
        }

    standings = {
        "type": "standings",
        "state": "running",
        "rounds": 2,
        "entrants": 2,
        "top": 2,
        "rows": [row(99999, 1, "zed", 27, 2, True), row(entry, 2, name, 15, 1, False)],
    }

    def handler(ws: WebSocketRoute) -> None:
        ws.send(json.dumps(standings))

    page.route_web_socket(re.compile(r"/ws/arenas/"), handler)
    page.reload()
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator('[data-field="points"]')).to_have_text("27")
    expect(rows.nth(0).locator('[data-mark="left"]')).to_be_visible()
    expect(rows.nth(0).locator('[data-mark="you"]')).to_be_hidden()
    expect(rows.nth(1)).to_have_class(re.compile("board-me"))
    expect(rows.nth(1).locator('[data-mark="you"]')).to_be_visible()
    expect(rows.nth(1).locator('[data-field="rounds"]')).to_have_text("1")
