"""Quick taps in a real Chromium: none is lost, and double-taps still work.

A tap is decided at once (gestures.js: pressKind, boundMove), bound to the card it was
made on. Taps on the stock and the waste in turn, a card sliding to its place, and a tap
made while the last one is still on its way (worked out on the board its answer brings,
for the card it was bound to) lose nothing. Two taps on the waste less than 250 ms apart,
the first of which moved its card, are ONE gesture (a double-click): the plan here leaves
300 ms between those (test_gestures.py tests the gesture), and the second is for the next
waste card even when the first one's move is still unanswered. The taps are dispatched in
the page on its own timer (tapping.TAPPER), so a loaded test machine cannot bunch
them. The engine is the oracle: it says, before each tap, which move that tap must send.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError

from games.engine import GameState
from tests.browser.tapping import LONG_ONLY, LONG_RUN, TAPPER
from tests.browser.test_board import (
    JOSEPHINE,
    Player,
    page_choice,
    record_accepted,
    use_tap,
    won_game,
)

pytestmark = [pytest.mark.browser]

StartPractice = Callable[[Page, str], str]
BoardOf = Callable[[Page], Any]

# Little Forty draws three cards at a time and turns the stock over three times, so 100
# taps on the stock and the waste each send a move (39 of them waste cards, 14 of those
# right after another waste card, 25 draws right after a waste card went).
FAST_DEAL = "FT1-F-0000001"
TAPS = 100

# A slower server, played in the page: each message the board receives is held 60-120 ms
# (in order). Answers then often come after the next tap, and cards are still sliding
# when they are sent on again. One timer at a time hands them over, strictly in order: a
# timer each could swap two messages that came within a millisecond (the delays are
# whole milliseconds), which no socket does.
# FT_ANSWER_HOLD_MS="180-260" holds them longer (a slower server, a busier machine): the
# queue then falls further behind the taps (docs/benchmarks.md, "Taps ahead of a slow
# server").
HOLD_MS = tuple(int(ms) for ms in os.environ.get("FT_ANSWER_HOLD_MS", "60-120").split("-"))
SLOW_ANSWERS = """(() => {
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    addEventListener(type, listener, options) {
      if (type !== "message") return super.addEventListener(type, listener, options);
      const held = [];
      let timer = null;
      const release = () => {
        timer = null;
        while (held.length && held[0].at <= performance.now()) {
          const { event } = held.shift();
          try {
            listener.call(this, event);
          } catch (error) {
            console.error(error);  // as an event listener's error: the next still comes
          }
        }
        if (held.length) timer = setTimeout(release, Math.max(1, held[0].at - performance.now()));
      };
      return super.addEventListener(type, (event) => {
        const last = held.length ? held[held.length - 1].at : 0;
        held.push({ event, at: Math.max(performance.now() + LOW + Math.random() * SPAN, last) });
        if (timer === null) timer = setTimeout(release, held[0].at - performance.now());
      }, options);
    }
  };
})();""".replace("LOW", str(HOLD_MS[0])).replace("SPAN", str(HOLD_MS[1] - HOLD_MS[0]))


def tap_plan(code: str, taps: int) -> list[tuple[str, str, int]]:
    """``taps`` taps, each (pile, the move it must send, the waste cards shown before it):
    the waste card whenever a tap on it moves it, else the stock."""
    game = GameState.from_code(code)
    plan = []
    for _ in range(taps):
        view = game.view()
        target = page_choice(game, "w", 1, columns=True) if view["waste"] else None
        if target:
            pile, move = "w", f"w-{target}"
        else:
            pile, move = "stock", "s" if view["stock"] else "r"
        plan.append((pile, move, min(len(view["waste"]), 3)))
        game.play(move)
    return plan


def refusals(page: Page) -> list[str]:
    """The refused answers among the socket frames ``record_accepted`` keeps."""
    frames = getattr(page, "_ft_frames", [])
    return [f for f in frames if f.startswith("<") and '"refused"' in f]


@pytest.mark.serial
@pytest.mark.timeout(120)
@pytest.mark.parametrize("answers", ["prompt", "slow"])
def test_a_hundred_single_taps_at_five_a_second_lose_none(
    signed_up_page: Page, start_practice: StartPractice, board: BoardOf, shots: Path, answers: str
) -> None:
    # Every run: slow answers (taps ahead of the answers); prompt ones in the longer run
    # (test_gestures.py's 8-a-second tests take prompt answers every run).
    if answers == "prompt" and not LONG_RUN:
        pytest.skip(LONG_ONLY)
    page = signed_up_page
    if answers == "slow":
        page.add_init_script(SLOW_ANSWERS)
    plan = tap_plan(FAST_DEAL, TAPS)
    assert sum(1 for pile, _, _ in plan if pile == "w") >= 30
    page.add_init_script(TAPPER)
    accepted = record_accepted(page)
    start_practice(page, FAST_DEAL)
    table = board(page)
    # 200 ms between taps; before a waste tap that follows a waste tap, 300 ms, slow
    # answers or not: two presses on one spot within 250 ms are one gesture (a
    # double-click, docs/protocol.md, "Input gestures"); a later one is for the next waste
    # card, even while the last one's move is unanswered.
    every = [
        300 if (pile, before) == ("w", "w") else 200
        for (before, _, _), (pile, _, _) in zip([("", "", 0), *plan], plan, strict=False)
    ]
    started = time.monotonic()
    at = page.evaluate(
        "([p, every]) => window.__ftTap(p, every, 'mouse')", [[p for p, _, _ in plan], every]
    )
    tapping = time.monotonic() - started
    late = max(b - a - want for a, b, want in zip(at, at[1:], every[1:], strict=False)) / 1000
    # Every tap's answer, or a timeout: the count below says what was lost.
    with contextlib.suppress(PlaywrightError):
        table.wait_for_version(TAPS, timeout=30_000)
    table.settled()
    page.screenshot(path=str(shots / f"fast-taps-{answers}.png"))
    lost = TAPS - len(accepted)
    print(
        f"{answers} answers: {TAPS} taps in {tapping:.1f} s"
        f" (latest tap {late * 1000:.0f} ms late): {lost} lost"
    )
    gaps = sorted(b - a for a, b in zip(at, at[1:], strict=False))
    # The median gap: 200 ms asked; a loaded machine runs the page's timers a little late.
    assert gaps[len(gaps) // 2] < 300, "the taps were not quick"
    assert refusals(page) == [], f"{lost} taps lost"
    # Each tap sent its move, in order: the first difference is the first tap lost.
    expected = [move for _, move, _ in plan]
    pairs = zip(accepted, expected, strict=False)  # fewer accepted when taps were lost
    first = next((k for k, (a, b) in enumerate(pairs) if a != b), len(accepted))
    assert accepted == expected, f"{lost} taps lost, the first at tap {first}"
    assert table.version == TAPS


def a_double_tap_move(game: GameState) -> tuple[str, str]:
    """A column's top card no foundation takes but a column does: its single tap does
    nothing, its double-tap moves it. Returns (column, the move)."""
    for i, column in enumerate(game.view()["columns"], start=1):
        src = f"t{i}"
        if not column["cards"] or page_choice(game, src, 1, columns=False):
            continue
        target = page_choice(game, src, 1, columns=True)
        if target:
            return src, f"{src}-{target}"
    raise AssertionError("no column card for a double-tap in this deal")


@pytest.mark.serial  # two real taps within the 350 ms of a double-tap
@pytest.mark.timeout(120)
def test_double_click_and_double_tap_still_place_a_card(
    browser: Browser, sign_up: Callable[[Page], str], start_practice: StartPractice, board: BoardOf
) -> None:
    """A mouse's double-click, then (twenty moves of the recorded win later, where the
    next chance comes) a finger's double-tap, on a phone-sized touch screen, under the
    table's setting "home" (a single tap on a card only a column takes moves nothing)."""
    game = GameState.from_code(JOSEPHINE)
    log = won_game(JOSEPHINE)["moves"].split()
    context = browser.new_context(
        viewport={"width": 375, "height": 812}, has_touch=True, is_mobile=True, locale="en-GB"
    )
    try:
        page = context.new_page()
        accepted = record_accepted(page)
        sign_up(page)
        start_practice(page, JOSEPHINE)
        use_tap(page, "home")
        table = board(page)
        player = Player(page, table)
        for gesture, before in (("dblclick", 0), ("touch", 21)):
            for move in log[len(accepted) : before]:
                player.play(game, move)
            src, move = a_double_tap_move(game)
            table.settled()
            card = table.card(src).bounding_box()
            assert card
            x, y = card["x"] + card["width"] / 2, card["y"] + 8
            if gesture == "dblclick":
                page.mouse.dblclick(x, y)
            else:
                page.touchscreen.tap(x, y)
                page.touchscreen.tap(x, y)
            table.wait_for_version(len(accepted) + 1)
            game.play(move)
            assert accepted[-1] == move, gesture
        assert refusals(page) == []
    finally:
        context.close()
