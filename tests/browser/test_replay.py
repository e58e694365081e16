"""The replay viewer is the game's own board, read-only: stepping, playing at a speed, a link
to any move; and the post-game analysis of a lost practice game whose losing move is known
(``tests/data/lost_game.json``), with its progress, its links and the winning line played
on the board. The engine is the oracle for every position shown."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from games.engine import GameState, parse_code
from games.payloads import board_changes

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

ROOT = Path(__file__).resolve().parents[2]
LOST = json.loads((ROOT / "tests" / "data" / "lost_game.json").read_text())
MOVES: list[str] = LOST["moves"].split()
LAST = len(MOVES)
BOARD = "[data-replay-board]"

CREATE = """
from games import services
from games.models import User
user = User.objects.get(username={username!r})
game = services.game_start_practice(user=user, code={code!r})
for move in {moves!r}:
    services.game_act(kind="move", user=user, game_id=game.pk, move=move)
game.refresh_from_db()
print(game.status, game.pk)
"""


@pytest.fixture
def replay_url(
    page: Page, live_url: str, sign_up: Callable[[Page], str], on_site: Callable[[str], str]
) -> str:
    """A signed-in player's lost practice game, played through the services; its replay."""
    username = sign_up(page)
    status, game_id = on_site(
        CREATE.format(username=username, code=LOST["code"], moves=MOVES)
    ).split()[-2:]
    assert status == "lost"
    return f"{live_url}/games/{game_id}/replay/"


def position(step: int) -> dict[str, list[str]]:
    """The piles as the board draws them after ``step`` actions (the waste: its top three)."""
    rules, seed = parse_code(LOST["code"])
    engine = GameState.from_seed(seed, rules.spec, undo_limit=0)
    engine.replay(MOVES[:step])
    return piles_of(engine.view())


def piles_of(view: dict[str, Any]) -> dict[str, list[str]]:
    piles = {f"t{i + 1}": c["cards"] for i, c in enumerate(view["columns"])}
    piles.update(
        {f"f{i + 1}": [f["top"]] if f["top"] else [] for i, f in enumerate(view["foundations"])}
    )
    return {**piles, "w": view["waste"][-3:], "stock": []}


def drawn(page: Page) -> dict[str, list[str]]:
    return page.evaluate(
        """(board) => Object.fromEntries(
             Array.from(document.querySelectorAll(board + ' [data-pile]'), (pile) => [
               pile.dataset.pile,
               Array.from(pile.querySelectorAll('.ft-card[data-card]'), (c) => c.dataset.card),
             ]))""",
        BOARD,
    )


def wait_for_step(page: Page, step: int, timeout: float = 10_000) -> None:
    page.wait_for_function(
        "([board, v]) => document.querySelector(board).dataset.version === String(v)",
        arg=[BOARD, step],
        timeout=timeout,
    )


def settled(page: Page) -> None:
    page.wait_for_function("() => !document.querySelector('.ft-card.is-moving')")


def test_the_replay_board_steps_plays_and_links_to_a_move(
    page: Page, replay_url: str, shots: Path
) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(replay_url)
    page.locator(f"{BOARD} .ft-card[data-card]").first.wait_for()
    assert drawn(page) == position(0)
    # A step at a time, by the buttons and the keys.
    page.get_by_role("button", name="Forward").click()
    wait_for_step(page, 1)
    assert drawn(page) == position(1)
    page.get_by_role("button", name="Back").click()
    wait_for_step(page, 0)
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    wait_for_step(page, 3)
    settled(page)
    assert drawn(page) == position(3)
    link = page.locator("[data-replay-link]")
    assert link.get_attribute("href") == "#move=3"
    page.wait_for_function("() => location.hash === '#move=3'")  # the address names it too
    # The actions in words link to their steps.
    page.locator(".replay__log summary").click()
    page.locator('.replay__log a[href="#move=50"]').click()
    wait_for_step(page, 50)
    page.wait_for_function("() => location.hash === '#move=50'")
    # A link to a move opens the board there.
    page.goto(replay_url + "#move=180")
    page.reload()
    wait_for_step(page, 180)
    assert drawn(page) == position(180)
    expect(page.locator("[data-replay-step]")).to_have_text("180")
    # Play to the end at 8 moves a second; the button says Pause meanwhile.
    page.locator("[data-replay-speed]").select_option("8")
    play = page.locator('[data-go="play"]')
    play.click()
    expect(play).to_have_attribute("aria-pressed", "true")
    expect(play).to_have_text("Pause")
    wait_for_step(page, LAST, timeout=5_000)
    expect(play).to_have_attribute("aria-pressed", "false")
    expect(play).to_have_text("Play")
    settled(page)
    assert drawn(page) == position(LAST)
    page.screenshot(path=str(shots / "replay-board-end.png"), full_page=True)
    # From the end, Play starts over; Pause stops where it is.
    page.locator("[data-replay-speed]").select_option("4")
    play.click()
    page.wait_for_function(
        "(board) => Number(document.querySelector(board).dataset.version) >= 2", arg=BOARD
    )
    play.click()
    expect(play).to_have_attribute("aria-pressed", "false")
    stopped = int(page.locator(BOARD).get_attribute("data-version") or "-1")
    page.wait_for_timeout(700)
    assert int(page.locator(BOARD).get_attribute("data-version") or "-1") == stopped
    assert 2 <= stopped < 20
    page.get_by_role("button", name="Last").click()
    wait_for_step(page, LAST)
    page.get_by_role("button", name="First").click()
    wait_for_step(page, 0)
    settled(page)
    assert drawn(page) == position(0)
    page.screenshot(path=str(shots / "replay-board-deal.png"), full_page=True)
    assert not errors


def test_the_analysis_of_a_lost_practice_game_shows_the_move_that_lost_it(
    page: Page, replay_url: str, shots: Path
) -> None:
    losing = LOST["losing_seq"]
    page.goto(replay_url)
    panel = page.locator("[data-analysis]")
    expect(panel).to_have_attribute("data-ready", "true")  # the script took the form
    expect(panel).to_have_attribute("data-status", "none")
    # Hold the request a moment, to see the progress it shows meanwhile.
    held: list[Route] = []
    page.route(
        "**/analysis/",
        lambda route: held.append(route) if route.request.method == "POST" else route.continue_(),
    )
    page.get_by_role("button", name="Analyse this game").click()
    expect(page.locator("[data-analysis-progress]")).to_be_visible()
    expect(page.locator("[data-analysis-progress-text]")).to_contain_text("Analysing")
    page.locator("[data-analysis]").screenshot(path=str(shots / "analysis-progress.png"))
    for _ in range(50):  # the route's handler runs while Playwright waits
        if held:
            break
        page.wait_for_timeout(100)
    assert len(held) == 1
    held[0].continue_()
    expect(panel).to_have_attribute("data-status", "done", timeout=30_000)
    expect(page.locator("[data-analysis-progress]")).to_be_hidden()
    result = page.locator("[data-analysis-result]")
    expect(result).to_contain_text(f"A win was still possible after move {losing - 1}.")
    expect(result).to_contain_text(f"move {losing}, ")
    expect(result).to_contain_text("from column 4 to column 9")
    expect(result).to_contain_text(
        "the game went on with “10 of diamonds from column 4 to column 9”"
    )
    # The links show those positions on the board.
    result.get_by_role("link", name="See the move").click()
    wait_for_step(page, losing)
    settled(page)
    assert drawn(page) == position(losing)
    result.get_by_role("link", name="See the last winnable position").click()
    wait_for_step(page, losing - 1)
    page.screenshot(path=str(shots / "analysis-result.png"), full_page=True)
    # The solver's winning line, played on the board from there, ends in a win.
    page.locator("[data-replay-speed]").select_option("8")
    result.get_by_role("button", name="Play the winning line").click()
    expect(page.locator("[data-replay-source]")).to_contain_text(
        f"winning line from move {losing - 1}"
    )
    steps = int(page.locator("[data-replay-last]").inner_text())
    assert steps > 1
    wait_for_step(page, steps, timeout=steps * 250 + 5_000)
    settled(page)
    foundations = [cards for name, cards in drawn(page).items() if name.startswith("f")]
    assert foundations and all(cards and cards[0][0] == "K" for cards in foundations)
    page.screenshot(path=str(shots / "analysis-winning-line.png"), full_page=True)
    page.get_by_role("button", name="Back to the game").click()
    wait_for_step(page, losing - 1)
    expect(page.locator("[data-replay-source]")).to_have_text("")
    # The result is kept: a reload shows it at once, with nothing to ask for.
    page.unroute("**/analysis/")
    page.reload()
    expect(panel).to_have_attribute("data-status", "done")
    expect(result).to_contain_text(f"move {losing}, ")
    expect(page.get_by_role("button", name="Analyse this game")).to_be_hidden()


def test_a_visitor_with_the_link_replays_it_on_a_phone(
    browser: Any, replay_url: str, shots: Path
) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 812}, has_touch=True)
    phone = context.new_page()
    phone.goto(replay_url + "#move=100")
    wait_for_step(phone, 100)
    assert drawn(phone) == position(100)
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    phone.get_by_role("button", name="Forward").tap()
    wait_for_step(phone, 101)
    # Anonymous: the analysis is offered to signed-in visitors only.
    expect(phone.get_by_role("link", name="Sign in to ask for the analysis.")).to_be_visible()
    phone.screenshot(path=str(shots / "replay-board-phone.png"), full_page=True)
    context.close()


# The viewer's frames (static/js/replay/frames.js) against the engine, in Chromium ----------
# (its other rules are plain data: tests/js/frames.test.js)

UNITS_PATH = "/__replay_units__/"
CALL = """async ([name, args]) => {
  const exports = await import("/static/js/replay/frames.js");
  return exports[name](...args);
}"""


@pytest.fixture
def call(page: Page, live_url: str) -> Callable[..., Any]:
    url = live_url + UNITS_PATH
    body = '<!doctype html><html lang="en"><head><title>units</title></head><body></body></html>'
    page.route(url, lambda route: route.fulfill(content_type="text/html", body=body))
    page.goto(url)
    return lambda name, *args: page.evaluate(CALL, [name, list(args)])


def test_it_builds_every_frame_from_the_replay_steps(call: Callable[..., Any]) -> None:
    rules, seed = parse_code(LOST["code"])
    engine = GameState.from_seed(seed, rules.spec, undo_limit=0)
    initial = engine.view()
    steps, views = [], [initial]
    for move in MOVES[:30]:
        engine.play(move)
        steps.append({"changes": board_changes(views[-1], engine.view())})
        views.append(engine.view())
    assert call("buildFrames", initial, steps) == views
