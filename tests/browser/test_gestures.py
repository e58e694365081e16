"""A gesture makes at most one move (issue 20, items 1 and 2), in a real Chromium.

* A double-click or double-tap at 60, 90 and 150 ms on a card a single tap moves applies
  exactly one move: a card over a card of the same rank, a waste card over a movable
  one, a waste card with two empty columns to go to. Real input (Playwright's mouse and
  touch screen); the gap the page measured is checked, so a slow machine cannot pass a
  slower gesture off as a quick one.
* A press on a card that is landing picks that card, not the one under it.
* 100 taps at 8 a second, mouse and touch, lose none: each sends the move the engine says
  it must. The taps are dispatched inside the page on a timer (pointer events at the card
  the player sees, where the page's hit test puts them), so the pace is the page's own and
  not that of a loaded test machine's round trips.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from games.engine import GameState
from tests.browser.tapping import LONG_ONLY, LONG_RUN, TAPPER
from tests.browser.test_board import page_choice, record_accepted, won_game
from tests.browser.test_taps import SLOW_ANSWERS, refusals

pytestmark = [pytest.mark.browser]

StartPractice = Callable[[Page, str], str]
SAME_GESTURE_MS = 250  # gestures.js


def pace_plan(code: str, taps: int) -> list[tuple[str, str]]:
    """``taps`` taps, each (pile, the move it must send), never two in a row on one pile
    but the stock (two quick presses on one card are one gesture): the waste right after
    a draw (the card still landing), else a column card a foundation takes, else the
    waste's card, else the stock."""
    game, plan, last = GameState.from_code(code), [], None
    for _ in range(taps):
        view, choice = game.view(), None
        order = ["w"] if last == "stock" else []
        order += [f"t{i}" for i in range(1, len(view["columns"]) + 1)] + ["w"]
        for pile in order:
            if pile == last or (pile == "w" and not view["waste"]):
                continue
            target = page_choice(game, pile, 1, columns=pile == "w")
            if target:
                choice = (pile, f"{pile}-{target}")
                break
        if choice is None:
            choice = ("stock", "s" if view["stock"] else "r")
        plan.append(choice)
        game.play(choice[1])
        last = choice[0]
    return plan


PACE_DEAL = "FT1-N-0000063"
TAPS = 100
EVERY_MS = 125  # 8 taps a second
# Every run (CI's too): each pointer once and each answer speed once. Mouse on slow
# answers: the queue falls behind the taps (where taps were lost); touch on prompt
# answers: the phone layout, taps on cards still landing. FT_BROWSER_LONG=1 adds the
# other two.
PACE_EVERY_RUN = {("mouse", "slow"), ("touch", "prompt")}


@pytest.mark.serial
@pytest.mark.timeout(180)
@pytest.mark.parametrize("answers", ["prompt", "slow"])
@pytest.mark.parametrize("pointer", ["mouse", "touch"])
def test_a_hundred_taps_at_eight_a_second_lose_none(
    new_page: Callable[..., Page],
    sign_up: Callable[[Page], str],
    start_practice: StartPractice,
    board: Any,
    shots: Path,
    pointer: str,
    answers: str,
) -> None:
    if (pointer, answers) not in PACE_EVERY_RUN and not LONG_RUN:
        pytest.skip(LONG_ONLY)
    touch = pointer == "touch"
    size = {"width": 375, "height": 812} if touch else {"width": 1280, "height": 900}
    page = new_page(viewport=size, has_touch=touch, is_mobile=touch, locale="en-GB")
    if answers == "slow":  # every answer held 60-120 ms in the page (test_taps.py)
        page.add_init_script(SLOW_ANSWERS)
    plan = pace_plan(PACE_DEAL, TAPS)
    landing = sum(1 for a, b in zip(plan, plan[1:], strict=False) if (a[0], b[0]) == ("stock", "w"))
    assert landing >= 20 and sum(1 for p, _ in plan if p[0] == "t") >= 15
    page.add_init_script(TAPPER)
    accepted = record_accepted(page)
    sign_up(page)
    start_practice(page, PACE_DEAL)
    table = board(page)
    at = page.evaluate(
        "([p, ms, t]) => window.__ftTap(p, ms, t)", [[p for p, _ in plan], EVERY_MS, pointer]
    )
    with contextlib.suppress(PlaywrightError):
        table.wait_for_version(TAPS, timeout=30_000)
    table.settled()
    page.screenshot(path=str(shots / f"eight-taps-a-second-{pointer}-{answers}.png"))
    gaps = [b - a for a, b in zip(at, at[1:], strict=False)]
    expected = [move for _, move in plan]
    first = next(
        (k for k, (a, b) in enumerate(zip(accepted, expected, strict=False)) if a != b),
        len(accepted),
    )
    print(
        f"{pointer}, {answers} answers: {TAPS} taps every {EVERY_MS} ms"
        f" (gaps {min(gaps):.0f}-{max(gaps):.0f} ms,"
        f" {landing} on a card landing): {TAPS - len(accepted)} lost, first difference at {first}"
    )
    assert refusals(page) == []
    assert accepted == expected, (
        f"tap {first}: {accepted[first : first + 3]} != {expected[first : first + 3]}"
    )
    assert table.version == TAPS


# Double-clicks and double-taps ----------------------------------------------------------

# (deal, moves played first, the pile double-clicked, the one move it must make)
CASES = {
    # Column 7 shows the ace of hearts over the ace of hearts (the issue: t7-f2, t7-f6).
    "card-over-same-rank": ("FT1-N-0000063", 0, "t7", "t7-f2"),
    # The waste shows the 2 of hearts over the 3 of hearts, both bound for foundation 6.
    "waste-over-movable": ("FT1-J-0000002", 103, "w", "w-f6"),
    # The waste shows the 8 of diamonds over the jack, two columns empty (w-t5, w-t8).
    "two-empty-columns": ("FT1-S-000000P", 109, "w", "w-t5"),
}


def position(
    page: Page, on_site: Callable[[str], str], start_practice: StartPractice, case: str
) -> GameState:
    """A practice game of the case's deal, its first moves played by the server's own
    service (as an operator's shell would), the page reloaded on it."""
    code, first, _, _ = CASES[case]
    url = start_practice(page, code)
    moves = won_game(code)["moves"].split()[:first] if first else []
    if moves:
        game_id = re.search(r"/games/([0-9a-f-]{36})/", url)[1]  # type: ignore[index]
        on_site(
            "from games import services; from games.models import Game\n"
            f"g = Game.objects.get(pk='{game_id}')\n"
            f"for m in {moves!r}:\n"
            "    services.game_act(user=g.player, game_id=g.pk, kind='move', move=m)\n"
        )
        page.reload()
    game = GameState.from_code(code)
    game.replay(moves)
    return game


def gesture_point(page: Page, pile: str) -> tuple[float, float]:
    card = page.locator(f'[data-pile="{pile}"] .ft-card[data-card]').last.bounding_box()
    assert card
    return card["x"] + card["width"] / 2, card["y"] + min(12, card["height"] / 2)


def double(page: Page, pointer: str, x: float, y: float, gap_ms: int) -> None:
    if pointer == "touch":
        page.touchscreen.tap(x, y)
        time.sleep(gap_ms / 1000)
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)
        time.sleep(gap_ms / 1000)
        page.mouse.click(x, y, click_count=2)


@pytest.mark.serial  # the gaps between presses are the case under test
@pytest.mark.timeout(240)
@pytest.mark.parametrize("pointer", ["mouse", "touch"])
@pytest.mark.parametrize("case", list(CASES))
def test_a_double_click_or_double_tap_makes_exactly_one_move(
    new_page: Callable[..., Page],
    sign_up: Callable[[Page], str],
    start_practice: StartPractice,
    on_site: Callable[[str], str],
    board: Any,
    shots: Path,
    case: str,
    pointer: str,
) -> None:
    touch = pointer == "touch"
    size = {"width": 375, "height": 812} if touch else {"width": 1280, "height": 900}
    page = new_page(viewport=size, has_touch=touch, is_mobile=touch, locale="en-GB")
    page.add_init_script(TAPPER)  # for its record of presses
    accepted = record_accepted(page)
    sign_up(page)
    game = position(page, on_site, start_practice, case)
    _, _, pile, move = CASES[case]
    table = board(page)
    table.wait_connected()
    start = table.version
    assert start == game.moves
    for gap in (60, 90, 150):
        for _attempt in range(3):
            table.settled()
            before = len(page.evaluate("window.__ftPresses"))
            x, y = gesture_point(page, pile)
            double(page, pointer, x, y, gap)
            table.wait_for_version(start + 1)
            page.wait_for_timeout(500)  # time for a second move, if the page sent one
            downs = page.evaluate("window.__ftPresses")[before:]
            measured = downs[-1] - downs[0]
            if measured >= SAME_GESTURE_MS:
                # The machine stretched the gesture past the window: not the case under
                # test. Take back what it did and try again.
                print(f"{case} {pointer} {gap} ms: measured {measured:.0f} ms, again")
                made = table.version - start
                for k in range(made):
                    page.keyboard.press("u")
                    table.wait_for_version(start + made + k + 1)
                start += 2 * made
                continue
            assert table.version == start + 1, f"{gap} ms ({measured:.0f} measured): two moves"
            assert accepted[-1] == move, (gap, accepted[-2:])
            if gap == 150:
                page.screenshot(path=str(shots / f"double-{case}-{pointer}.png"))
            page.keyboard.press("u")  # undo: the same position for the next gap
            table.wait_for_version(start + 2)
            start += 2
            break
        else:
            pytest.fail(f"{gap} ms could not be delivered under {SAME_GESTURE_MS} ms")
    assert refusals(page) == []


@pytest.mark.timeout(120)
@pytest.mark.parametrize("pointer", ["mouse", "touch"])
def test_a_double_click_made_while_a_draw_is_on_its_way_makes_the_double_taps_move(
    new_page: Callable[..., Page],
    sign_up: Callable[[Page], str],
    start_practice: StartPractice,
    board: Any,
    pointer: str,
) -> None:
    """FT1-N-0000063: a tap on the stock, then at once a double-click (60 ms) on column
    1's queen of spades, which no foundation takes but column 8's king does. The draw's
    answer is held 60-120 ms, so the first click waits its turn: the double-click still
    makes the double-tap's move (t1-t8), once. It used to make none."""
    touch = pointer == "touch"
    size = {"width": 375, "height": 812} if touch else {"width": 1280, "height": 900}
    page = new_page(viewport=size, has_touch=touch, is_mobile=touch, locale="en-GB")
    page.add_init_script(SLOW_ANSWERS)
    page.add_init_script(TAPPER)
    accepted = record_accepted(page)
    sign_up(page)
    start_practice(page, "FT1-N-0000063")
    table = board(page)
    # The stock, then the queen at once (the draw's answer is held 60 ms at least),
    # then the queen again 60 ms later, all on the page's own timer.
    page.evaluate("([t]) => window.__ftTap(['stock', 't1', 't1'], [0, 0, 60], t)", [pointer])
    with contextlib.suppress(PlaywrightError):  # the assertions below say what came
        table.wait_for_version(2, timeout=5_000)
    page.wait_for_timeout(500)  # time for a third move, if the page sent one
    assert accepted == ["s", "t1-t8"]
    assert table.version == 2
    assert refusals(page) == []


# A card that is landing -----------------------------------------------------------------


@pytest.mark.serial  # the press must come within the card's 200 ms slide
@pytest.mark.timeout(120)
def test_a_press_on_a_landing_card_picks_that_card(
    page: Page,
    sign_up: Callable[[Page], str],
    start_practice: StartPractice,
    board: Any,
    shots: Path,
) -> None:
    """FT1-N-0000063: a double-click sends column 1's queen of spades onto column 8's
    king; pressed where it lands while it is still sliding there, and dragged on to
    column 3, the page sends that one card (t8-t3), never the queen and the king under it
    (t8-t3x2, which the server refuses: cards move one at a time)."""
    page.add_init_script(
        """document.addEventListener("pointerdown", () => {
             window.__ftLandingAtPress = Boolean(
               document.querySelector('[data-pile="t8"] .ft-card.is-moving[data-card="QS"]'));
           }, true);"""
    )
    accepted = record_accepted(page)
    sign_up(page)
    start_practice(page, "FT1-N-0000063")
    table = board(page)
    table.settled()
    # No wait for the socket's first sync: a double-click made while the page waits for
    # an answer (the sync, a draw) makes the double-tap's move at its turn (gestures.js,
    # "again"). It once made none: the first click, waiting, counted as a move, and the
    # second did nothing (seen in CI as a queen that never slid).
    x, y = gesture_point(page, "t1")
    page.mouse.dblclick(x, y)
    page.wait_for_function(
        '() => document.querySelector(\'[data-pile="t8"] .ft-card.is-moving[data-card="QS"]\')',
        polling="raf",
    )
    # Where the queen lands (its place on column 8): the king's place is under it, and
    # while the queen slides there presses used to go through to the king.
    x, y = page.evaluate(
        """() => {
          const pile = document.querySelector('[data-pile="t8"]');
          const queen = pile.querySelector('.ft-card[data-card="QS"]');
          const box = pile.getBoundingClientRect();
          return [box.left + queen.offsetLeft + queen.offsetWidth / 2,
                  box.top + queen.offsetTop + 12];
        }"""
    )
    page.mouse.move(x, y)
    page.mouse.down()
    landing = page.evaluate("window.__ftLandingAtPress")
    target = page.locator('[data-pile="t3"]').bounding_box()
    assert target
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + 40, steps=4)
    page.mouse.up()
    page.wait_for_timeout(600)
    page.screenshot(path=str(shots / "landing-card-press.png"))
    sent = [f for f in page._ft_frames if f.startswith(">") and '"move"' in f]  # type: ignore[attr-defined]
    assert accepted[0] == "t1-t8"
    assert landing, "the press came after the card had landed: not the case under test"
    assert '"t8-t3"' in sent[-1], sent[-1]  # the landing queen alone (the server judges it)
