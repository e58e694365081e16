"""Unit tests of gestures.js (what a press means: which card, which gesture, which one
move) and of queue.js honouring a retry hint, run in Chromium as the site serves them
(the pattern of test_js_units.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_js_units import Call, _open_units_page, board_view, game_state

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

CALL = """async ([module, name, args]) => {
  const exports = await import(`/static/js/board/${module}`);
  return exports[name](...args);
}"""


@pytest.fixture
def call(page: Any, live_url: str) -> Call:
    _open_units_page(page, live_url)
    return lambda module, name, *args: page.evaluate(CALL, [module, name, list(args)])


def press(pile: str = "t7", card: str | None = "AH", index: int = 1, **more: Any) -> dict:
    return {"pile": pile, "card": card, "index": index, "count": 1, "x": 100, "y": 200, **more}


# Which gesture a press belongs to ---------------------------------------------------------


@pytest.mark.parametrize("gap", [60, 90, 150, 240])
def test_a_second_click_after_a_click_that_moved_its_card_is_the_same_gesture(
    call: Call, gap: int
) -> None:
    first = press(time=1000, moved=True)
    # The board may already show the card that was under it (the other ace): still nothing.
    second = press(card="AH", index=0, time=1000 + gap, x=102, y=199)
    assert call("gestures.js", "pressKind", first, second) == "same"


def test_a_press_well_after_the_last_or_elsewhere_is_a_tap_of_its_own(call: Call) -> None:
    first = press(time=1000, moved=True)
    assert call("gestures.js", "pressKind", first, press(index=0, time=1300)) == "tap"
    assert call("gestures.js", "pressKind", first, press(pile="t5", time=1060)) == "tap"
    far = press(index=0, time=1060, x=100, y=260)  # a card further down the same column
    assert call("gestures.js", "pressKind", first, far) == "tap"
    assert call("gestures.js", "pressKind", None, press(time=5)) == "tap"


def test_a_press_on_a_foundation_card_whose_move_is_in_flight_does_nothing(call: Call) -> None:
    home = press("f2", "AH", 0, time=9000)
    assert call("gestures.js", "pressKind", None, home, {"inFlight": True}) == "same"


def test_a_later_press_on_a_column_card_in_flight_is_a_tap_of_its_own(call: Call) -> None:
    last = press("t3", "9C", 0, time=1000, moved=True)  # another pile just before
    again = press("t7", "AH", 1, time=1100)
    assert call("gestures.js", "pressKind", last, again, {"inFlight": True}) == "tap"


def test_a_later_press_on_a_waste_card_in_flight_is_a_tap_of_its_own(call: Call) -> None:
    # Its move unanswered, 300 ms on, on the same spot: a deliberate second tap (for the
    # card under it, wasteTarget); 150 ms on, the rest of a double-click.
    first = press("w", "JS", 5, time=1000, moved=True)
    later = press("w", "JS", 5, time=1300)
    assert call("gestures.js", "pressKind", first, later, {"inFlight": True}) == "tap"
    quick = press("w", "JS", 5, time=1150)
    assert call("gestures.js", "pressKind", first, quick, {"inFlight": True}) == "same"
    assert call("gestures.js", "pressKind", None, later, {"inFlight": True}) == "tap"


def test_a_waste_press_is_bound_to_the_card_it_will_find_on_top(call: Call) -> None:
    waste = ["5D", "9C", "JS"]
    target = lambda *pending: call("gestures.js", "wasteTarget", waste, list(pending))  # noqa: E731
    assert target() == {"card": "JS"}
    # The top card's move is on its way: the card under it, then the one under that.
    assert target({"kind": "waste", "card": "JS"}) == {"card": "9C"}
    two = [{"kind": "waste", "card": "JS"}, {"kind": "waste", "card": "9C"}]
    assert target(*two) == {"card": "5D"}
    # Every card shown spoken for: nothing to bind.
    spent = [{"kind": "waste", "card": c} for c in reversed(waste)]
    assert target(*spent) is None
    # A draw on its way (before or after a waste tap): the card it brings, whichever it is.
    assert target({"kind": "draw"}) == {"card": None}
    assert target({"kind": "waste", "card": "JS"}, {"kind": "draw"}) == {"card": None}
    assert call("gestures.js", "wasteTarget", [], []) == {"card": None}


def test_a_second_tap_on_a_card_the_first_could_not_move_is_a_double_tap(call: Call) -> None:
    still = press(pile="t3", card="7S", index=2, time=1000, moved=False)
    assert call("gestures.js", "pressKind", still, press("t3", "7S", 2, time=1200)) == "double"
    assert call("gestures.js", "pressKind", still, press("t3", "7S", 2, time=1400)) == "tap"
    assert call("gestures.js", "pressKind", still, press("t3", "8S", 2, time=1100)) == "tap"
    assert call("gestures.js", "pressKind", still, press("t4", "7S", 2, time=1100)) == "tap"


@pytest.mark.parametrize("gap", [60, 90, 150, 240])
def test_the_rest_of_a_double_click_joins_a_press_still_waiting_its_turn(
    call: Call, gap: int
) -> None:
    # The first click came while a draw (or a sync) was on its way: whether it moves its
    # card is decided at its turn. The second click makes it a double-tap ("again"),
    # never nothing at all (a card no foundation takes moved nowhere) nor a second move.
    waiting = press("t1", "QS", 3, time=1000, moved=True, waiting=True)
    second = press("t1", "QS", 3, time=1000 + gap, x=101, y=201)
    assert call("gestures.js", "pressKind", waiting, second) == "again"
    # Its turn came and it moved its card: the rest of the gesture does nothing.
    done = {**waiting, "waiting": False}
    assert call("gestures.js", "pressKind", done, second) == "same"
    # Its turn came and it could not move its card: the second press is a double-tap.
    stuck = {**waiting, "waiting": False, "moved": False}
    assert call("gestures.js", "pressKind", stuck, second) == "double"
    # Elsewhere or later: a tap of its own.
    assert call("gestures.js", "pressKind", waiting, press("t2", "KS", 0, time=1060)) == "tap"
    assert call("gestures.js", "pressKind", waiting, press("t1", "QS", 3, time=1300)) == "tap"


def test_every_press_on_the_stock_is_a_draw_of_its_own(call: Call) -> None:
    stock = press(pile="stock", card=None, index=-1, time=1000, moved=True)
    again = press(pile="stock", card=None, index=-1, time=1050)
    assert call("gestures.js", "pressKind", stock, again, {"inFlight": True}) == "tap"


# The one move a press makes, bound to its card --------------------------------------------


def test_a_press_acts_on_the_card_it_was_bound_to_or_on_nothing(call: Call) -> None:
    board = board_view(
        columns=[{"down": 0, "cards": ["KS", "QS"]}, {"down": 0, "cards": ["3H", "2H"]}],
        waste=["5D", "JS"],
    )
    game = game_state(board=board, legal_moves=["s", "t2-f2", "w-t1", "t1-t2x2"])
    assert call("gestures.js", "boundMove", game, press("w", "JS", 1)) == "w-t1"
    assert call("gestures.js", "boundMove", game, press("t2", "2H", 1)) == "t2-f2"
    assert call("gestures.js", "boundMove", game, press("t1", "QS", 1)) is None
    run = press("t1", "KS", 0, count=2)
    assert call("gestures.js", "boundMove", game, run, {"double": True}) == "t1-t2x2"
    # The card pressed went away meanwhile (an earlier tap sent it): the card that was
    # under it is NOT moved in its place.
    assert call("gestures.js", "boundMove", game, press("t2", "4H", 2)) is None
    assert call("gestures.js", "boundMove", game, press("w", "9C", 2)) is None
    # A card landed on the run pressed: the press was for a board that is gone.
    assert call("gestures.js", "boundCount", board, press("t2", "3H", 0)) == 0
    # A press on a column's top card is for its top card at its turn, whatever the
    # player's earlier gestures (queued before it) sent there or took away.
    assert call("gestures.js", "boundCount", board, press("t2", "3H", 0, top=True)) == 1
    assert call("gestures.js", "boundMove", game, press("t2", "4H", 2, top=True)) == "t2-f2"
    empty = board_view(columns=[{"down": 0, "cards": []}])
    assert call("gestures.js", "boundCount", empty, press("t1", "KS", 0, top=True)) == 0
    # A waste press is bound to the card that must be on top at its turn: the card under
    # it is never played in its place.
    assert call("gestures.js", "boundCount", board, press("w", "5D", 0)) == 0
    # Bound to no card (a draw was on its way): the card the draw brings.
    assert call("gestures.js", "boundCount", board, press("w", None, -1)) == 1


def test_a_foundation_press_is_bound_to_its_top_card(call: Call) -> None:
    board = board_view()  # f2: the ace of hearts
    assert call("gestures.js", "boundCount", board, press("f2", "AH", 0)) == 1
    assert call("gestures.js", "boundCount", board, press("f2", "2H", 1)) == 0


# Which card a press picks -----------------------------------------------------------------


def box(left: float, top: float, width: float = 50, height: float = 70) -> dict:
    return {"left": left, "top": top, "width": width, "height": height}


def test_a_press_picks_the_topmost_card_at_its_place(call: Call) -> None:
    column = [
        {"place": box(0, 0), "drawn": box(0, 0), "moving": False},
        {"place": box(0, 25), "drawn": box(0, 25), "moving": False},
    ]
    assert call("gestures.js", "pickCard", column, 10, 10) == 0
    assert call("gestures.js", "pickCard", column, 10, 40) == 1
    assert call("gestures.js", "pickCard", column, 10, 200) == -1


def test_a_press_on_a_landing_card_picks_it_not_the_card_under_it(call: Call) -> None:
    # The top card is still sliding in from the right: drawn at x 80, its place at x 0.
    column = [
        {"place": box(0, 0), "drawn": box(0, 0), "moving": False},
        {"place": box(0, 25), "drawn": box(80, 25), "moving": True},
    ]
    assert call("gestures.js", "pickCard", column, 90, 40) == 1  # where it is drawn
    assert call("gestures.js", "pickCard", column, 10, 40) == 1  # where it is going
    assert call("gestures.js", "pickCard", column, 10, 10) == 0  # the card under, above it
    settled = [column[0], {**column[1], "moving": False}]
    assert call("gestures.js", "pickCard", settled, 90, 40) == -1  # no slide, no box there


# The queue honours a retry hint (queue.js) -----------------------------------------------


def test_a_rate_limited_action_goes_out_again_first_after_the_wait(
    page: Any, live_url: str
) -> None:
    _open_units_page(page, live_url)
    log = page.evaluate(
        """async () => {
          const { ActionQueue } = await import("/static/js/board/queue.js");
          const sent = [];
          const socket = { isOpen: true, act: (m) => { sent.push(m); return `id${sent.length}`; } };
          const timers = [];
          const later = (fn, ms) => timers.push({ fn, ms });
          let version = 4;
          const hooks = { canSend: () => true, version: () => version, later };
          const queue = new ActionQueue(socket, hooks);
          queue.enqueue({ type: "move", move: "t1-f1" });
          queue.enqueue({ type: "move", move: "s" });
          const item = queue.answered({ id: "id1" });
          queue.retry(item, 130);  // refused: rate_limited, retry_after 0.13
          queue.pump();
          const held = sent.length;
          timers[0].fn();
          const after = sent.length;
          queue.answered({ id: "id2" });
          queue.pump();
          return { held, after, wait: timers[0].ms, busy: queue.busy, sent };
        }"""
    )
    assert log["held"] == 1 and log["wait"] == 130  # nothing goes out during the wait
    assert log["after"] == 2
    assert [m["move"] for m in log["sent"]] == ["t1-f1", "t1-f1", "s"]  # the same, first


def test_the_queue_holds_its_taps_while_a_sync_is_awaited(page: Any, live_url: str) -> None:
    """An answer that skips a version asks for the whole state: a tap queued meanwhile is
    chosen on that state, not on the board it is about to replace."""
    _open_units_page(page, live_url)
    log = page.evaluate(
        """async () => {
          const { ActionQueue } = await import("/static/js/board/queue.js");
          const sent = [];
          const socket = { isOpen: true, act: (m) => { sent.push(m); return `id${sent.length}`; } };
          let version = 4;
          let syncing = false;
          let board = "old";
          const chosenOn = [];
          const hooks = { canSend: () => true, version: () => version, syncing: () => syncing };
          const queue = new ActionQueue(socket, hooks);
          queue.enqueue({ type: "move", move: "w-f1" });
          queue.enqueue(() => { chosenOn.push(board); return { type: "move", move: "w-f2" }; });
          queue.answered({ id: "id1" });
          syncing = true;  // the answer's version skipped one: a sync is asked
          queue.pump();
          const held = { sent: sent.length, busy: queue.busy, chosen: chosenOn.length };
          board = "synced";
          version = 7;
          syncing = false;  // the state came
          queue.pump();
          return { held, sent, chosenOn };
        }"""
    )
    assert log["held"] == {"sent": 1, "busy": True, "chosen": 0}
    assert log["chosenOn"] == ["synced"]
    assert [(m["move"], m["version"]) for m in log["sent"]] == [("w-f1", 4), ("w-f2", 7)]


def test_a_burst_of_a_hundred_taps_on_a_slow_server_waits_whole(page: Any, live_url: str) -> None:
    """100 taps at 8 a second while the server answers one every 250 ms: 60 still wait
    at the last tap. None is dropped (it was: past 40 waiting, and the taps after a
    dropped draw then acted on other cards than the player's)."""
    _open_units_page(page, live_url)
    log = page.evaluate(
        """async () => {
          const { ActionQueue, MAX_QUEUED } = await import("/static/js/board/queue.js");
          const sent = [];
          const act = (m) => { sent.push(m.move); return `id${sent.length}`; };
          const socket = { isOpen: true, act };
          const queue = new ActionQueue(socket, { canSend: () => true, version: () => 0 });
          const dropped = [];
          for (let tap = 0; tap < 100; tap += 1) {
            const move = { type: "move", move: `m${tap}` };
            queue.enqueue(move, { onRefused: () => dropped.push(tap) });
            if (tap % 2 === 1) queue.answered({ id: `id${sent.length}` }); // one answer per 2 taps
            queue.pump();
          }
          const waiting = queue.waiting.length;
          while (queue.busy) { queue.answered({ id: `id${sent.length}` }); queue.pump(); }
          return { max: MAX_QUEUED, dropped, waiting, sent };
        }"""
    )
    assert log["dropped"] == [] and log["waiting"] >= 45
    assert log["sent"] == [f"m{tap}" for tap in range(100)]  # each in turn, in order
    assert log["max"] >= 120  # 10 taps a second for 10 s: the socket's pace (40 + 8 x 10)


def test_a_full_queue_drops_every_later_tap_until_it_has_caught_up(
    page: Any, live_url: str
) -> None:
    """Past the limit, a tap is dropped, and so is every tap after it until nothing waits:
    no tap is worked out after one dropped before it, on a board the player did not mean."""
    _open_units_page(page, live_url)
    log = page.evaluate(
        """async () => {
          const { ActionQueue } = await import("/static/js/board/queue.js");
          const sent = [];
          const act = (m) => { sent.push(m.move); return `id${sent.length}`; };
          const socket = { isOpen: true, act };
          const queue = new ActionQueue(socket, { canSend: () => true, version: () => 0 }, 3);
          const dropped = [];
          const tap = (name) =>
            queue.enqueue({ type: "move", move: name }, { onRefused: () => dropped.push(name) });
          const answer = () => { queue.answered({ id: `id${sent.length}` }); queue.pump(); };
          for (const name of ["a", "b", "c", "d"]) tap(name); // a in flight, b c d wait
          tap("e"); // the fourth waiting: over the limit
          answer(); // b goes, c d wait: room again, but e was dropped
          tap("f");
          answer(); answer(); // c, then d go: nothing waits
          tap("g");
          answer(); answer();
          return { dropped, sent };
        }"""
    )
    assert log["dropped"] == ["e", "f"]
    assert log["sent"] == ["a", "b", "c", "d", "g"]
