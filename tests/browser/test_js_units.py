"""Unit tests of the board's pure modules, run in Chromium as the site serves them.

No Node and no build step: each test opens a blank page on the live server's origin
(served by Playwright's router, so no such page exists on the site) and imports the ES
modules from ``/static/js/board/`` as the board does. ``call(module, function, *args)``
runs one exported function on JSON arguments and returns its JSON result; the cases are
plain data here, and the engine itself provides the real positions.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from games.engine import GameState

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

UNITS_PATH = "/__js_units__/"
# The blank page; `head` may load Django's JavaScript catalog (a script with a src only).
PAGE = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>JS units</title>'
    "{head}</head><body></body></html>"
)
CALL = """async ([module, name, args]) => {
  const exports = await import(`/static/js/board/${module}`);
  return exports[name](...args);
}"""

Call = Callable[..., Any]


def _open_units_page(page: Any, live_url: str, head: str = "") -> None:
    url = live_url + UNITS_PATH
    page.route(
        url, lambda route: route.fulfill(content_type="text/html", body=PAGE.format(head=head))
    )
    page.goto(url)


@pytest.fixture
def call(page: Any, live_url: str) -> Call:
    _open_units_page(page, live_url)
    return lambda module, name, *args: page.evaluate(CALL, [module, name, list(args)])


def board_view(**overrides: Any) -> dict[str, Any]:
    """A small board view in the engine's shape (two columns, two foundations)."""
    view = {
        "variant": "forty-thieves",
        "columns": [{"down": 0, "cards": ["KS", "QS"]}, {"down": 1, "cards": ["5H"]}],
        "foundations": [
            {"suit": "S", "count": 0, "top": None},
            {"suit": "H", "count": 1, "top": "AH"},
        ],
        "waste": ["7D"],
        "stock": 20,
        "redeals_left": 0,
        "score": 10,
        "moves": 3,
        "won": False,
        "stuck": False,
        "can_undo": True,
    }
    return {**view, **overrides}


def game_state(**overrides: Any) -> dict[str, Any]:
    """A game as the page embeds it (the fields the reducer reads)."""
    game = {
        "id": "g1",
        "role": "player",
        "mode": "practice",
        "status": "active",
        "version": 3,
        "score": 10,
        "moves": 3,
        "board": board_view(),
        "legal_moves": ["s", "t2-f2"],
        "can_undo": True,
        "hints": 0,
        "solver_help": True,
        "dead_end": False,
        "first_action_at": "2026-01-01T10:00:00+00:00",
        "finished_at": None,
    }
    return {**game, **overrides}


def action(version: int, changes: dict[str, Any] | None, **overrides: Any) -> dict[str, Any]:
    msg = {"type": "action", "version": version, "action": "t2-f2", "changes": changes}
    return {**msg, "score": 20, "moves": 4, "status": "active", **overrides}


NOW = "2026-01-01T10:05:00.000Z"


# The state reducer (state.js) -----------------------------------------------------------


def test_it_applies_the_next_version_and_merges_only_the_changed_piles(call: Call) -> None:
    game = game_state()
    changes = {
        "columns": {"1": {"down": 0, "cards": ["9C"]}},
        "foundations": {"1": {"suit": "H", "count": 2, "top": "2H"}},
        "legal_moves": ["s"],
        "dead_end": True,
    }
    result = call("state.js", "applyAction", game, action(4, changes), NOW)
    assert result["kind"] == "applied"
    after = result["game"]
    assert after["version"] == 4 and after["score"] == 20 and after["moves"] == 4
    assert after["board"]["columns"] == [game["board"]["columns"][0], {"down": 0, "cards": ["9C"]}]
    assert after["board"]["foundations"][1] == {"suit": "H", "count": 2, "top": "2H"}
    assert after["board"]["foundations"][0] == game["board"]["foundations"][0]
    assert after["board"]["score"] == 20 and after["board"]["moves"] == 4
    # The game's own facts go on the game, not on the board view.
    assert after["legal_moves"] == ["s"] and after["dead_end"] is True
    assert "legal_moves" not in after["board"] and "dead_end" not in after["board"]
    assert after["role"] == "player" and after["board"]["waste"] == ["7D"]


def test_a_dead_end_notice_marks_only_the_position_it_was_proved_for(call: Call) -> None:
    game = game_state()  # at version 3
    marked = call("state.js", "withDeadEnd", game, {"type": "dead_end", "version": 3})
    assert marked["dead_end"] is True and marked["version"] == 3
    # The player moved on before the solver answered: the notice is about the past.
    assert call("state.js", "withDeadEnd", game, {"type": "dead_end", "version": 2}) == game
    over = game_state(status="won")
    assert call("state.js", "withDeadEnd", over, {"type": "dead_end", "version": 3}) == over


def test_it_ignores_a_version_it_already_holds(call: Call) -> None:
    game = game_state()
    for version in (3, 2, None):
        result = call("state.js", "applyAction", game, action(version, {"stock": 1}), NOW)
        assert result == {"kind": "stale", "game": game}


def test_it_reports_a_gap_when_a_version_was_missed_or_carries_no_changes(call: Call) -> None:
    game = game_state()
    assert call("state.js", "applyAction", game, action(5, {"stock": 1}), NOW)["kind"] == "gap"
    assert call("state.js", "applyAction", game, action(4, None), NOW)["kind"] == "gap"
    assert call("state.js", "applyAction", game, action(4, None), NOW)["game"] == game


def test_it_keeps_legal_moves_when_absent_and_takes_no_dead_end_for_undecided(
    call: Call,
) -> None:
    game = game_state(dead_end=True)
    after = call("state.js", "applyAction", game, action(4, {"stock": 19}), NOW)["game"]
    assert after["legal_moves"] == game["legal_moves"]
    assert after["dead_end"] is False  # proved by the server only, never carried over
    assert after["board"]["stock"] == 19


def test_it_starts_the_clock_at_the_first_action_and_stops_it_at_the_finish(call: Call) -> None:
    fresh = game_state(version=0, first_action_at=None)
    started = call("state.js", "applyAction", fresh, action(1, {"stock": 19}), NOW)["game"]
    assert started["first_action_at"] == NOW and started["finished_at"] is None
    won = action(4, {"won": True, "legal_moves": []}, status="won")
    finished = call("state.js", "applyAction", game_state(), won, NOW)["game"]
    assert finished["first_action_at"] == "2026-01-01T10:00:00+00:00"
    assert finished["finished_at"] == NOW and finished["status"] == "won"
    assert call("state.js", "elapsedSeconds", finished, 0) == 300
    assert call("state.js", "elapsedSeconds", fresh, 10**13) == 0  # no action yet


def test_it_normalises_a_finished_game_to_no_legal_moves_and_no_undo(call: Call) -> None:
    lost = call("state.js", "normalise", game_state(status="lost"))
    assert lost["legal_moves"] == [] and lost["can_undo"] is False
    ranked = call("state.js", "normalise", game_state(mode="daily"))
    assert ranked["can_undo"] is False and ranked["legal_moves"] == ["s", "t2-f2"]
    practice = call("state.js", "normalise", game_state(legal_moves=None))
    assert practice["can_undo"] is True and practice["legal_moves"] == []


def test_it_keeps_the_role_when_a_whole_state_replaces_the_game(call: Call) -> None:
    watcher = game_state(role="watcher")
    server = game_state(version=9, role="player", status="resigned")
    replaced = call("state.js", "replaceState", watcher, server)
    assert replaced["role"] == "watcher" and replaced["version"] == 9
    assert replaced["legal_moves"] == []
    assert call("state.js", "justFinished", watcher, replaced) is True
    assert call("state.js", "justFinished", replaced, replaced) is False


def test_it_writes_the_clock_in_minutes_and_hours(call: Call) -> None:
    cases = {0: "0:00", 9: "0:09", 75: "1:15", 600: "10:00", 3725: "1:02:05"}
    for seconds, text in cases.items():
        assert call("state.js", "clock", seconds) == text


# Move parsing (moves.js) ---------------------------------------------------------------


def test_it_parses_card_moves_and_runs(call: Call) -> None:
    cases = {
        "t3-f1": {"src": "t3", "dst": "f1", "count": 1},
        "w-t10": {"src": "w", "dst": "t10", "count": 1},
        "t3-t5x3": {"src": "t3", "dst": "t5", "count": 3},
        "f2-t4": {"src": "f2", "dst": "t4", "count": 1},
    }
    for text, move in cases.items():
        assert call("moves.js", "parseMove", text) == move
        assert call("moves.js", "formatMove", move["src"], move["dst"], move["count"]) == text


def test_it_parses_no_card_move_from_draws_words_and_junk(call: Call) -> None:
    for text in ("s", "r", "undo", "resign", "", None, "t3-", "x-t1", "w-w", "t3-t5x", "T3-F1"):
        assert call("moves.js", "parseMove", text) is None, text


def test_it_names_the_piles_a_hint_marks(call: Call) -> None:
    cases = {"t3-f1": ["t3", "f1"], "w-t10": ["w", "t10"], "t1-t2x4": ["t1", "t2"]}
    cases |= {"s": ["stock"], "r": ["stock"], "nonsense": []}
    for text, piles in cases.items():
        assert call("moves.js", "movePiles", text) == piles


def test_it_reads_targets_and_run_lengths_from_the_legal_moves(call: Call) -> None:
    legal = ["s", "w-t2", "w-f1", "t1-t2", "t1-t2x2", "t1-t4x3", "t3-f1"]
    assert call("moves.js", "legalTargets", legal, "w") == ["t2", "f1"]
    assert call("moves.js", "legalTargets", legal, "t1", 2) == ["t2"]
    assert call("moves.js", "legalCounts", legal, "t1", "t2") == [2, 1]
    assert call("moves.js", "hasMovesFrom", legal, "t3") is True
    assert call("moves.js", "hasMovesFrom", legal, "t2") is False


def test_it_sends_a_tap_to_a_foundation_first_then_the_longest_column(call: Call) -> None:
    board = board_view(
        columns=[
            {"down": 0, "cards": ["KS", "QS"]},
            {"down": 0, "cards": []},
            {"down": 2, "cards": ["8D"]},
        ]
    )
    game = game_state(board=board, legal_moves=["w-t1", "w-t2", "w-t3"])
    assert call("moves.js", "smartTarget", game, "w", 1, {"columns": True}) == "t3"
    assert call("moves.js", "smartTarget", game, "w", 1, {"columns": False}) is None
    game["legal_moves"].append("w-f2")
    assert call("moves.js", "smartTarget", game, "w", 1, {"columns": True}) == "f2"


def test_the_stock_draws_redeals_and_stops_when_the_game_is_over(call: Call) -> None:
    assert call("moves.js", "drawMove", game_state()) == "s"
    spent = game_state(board=board_view(stock=0), legal_moves=["r", "t2-f2"])
    assert call("moves.js", "drawMove", spent) == "r"
    no_redeal = game_state(board=board_view(stock=0), legal_moves=["t2-f2"])
    assert call("moves.js", "drawMove", no_redeal) == "s"  # sent: the server says why not
    assert call("moves.js", "drawMove", game_state(status="won")) is None


# Applying changes (changes.js), for the board and the replay viewer alike --------------


def test_it_replaces_only_the_changed_piles_and_whole_values(call: Call) -> None:
    view = board_view()
    changes = {"columns": {"0": {"down": 0, "cards": ["KS"]}}, "waste": [], "stock": 0}
    after = call("changes.js", "applyChanges", view, changes)
    assert after["columns"] == [{"down": 0, "cards": ["KS"]}, view["columns"][1]]
    assert after["waste"] == [] and after["stock"] == 0
    assert after["foundations"] == view["foundations"]


def test_it_leaves_the_view_it_was_given_untouched(page: Any, live_url: str) -> None:
    _open_units_page(page, live_url)
    untouched = page.evaluate(
        """async ([view]) => {
          const { applyChanges } = await import("/static/js/board/changes.js");
          const before = JSON.stringify(view);
          applyChanges(view, { columns: { 1: { down: 0, cards: [] } }, stock: 3 });
          return JSON.stringify(view) === before;
        }""",
        [board_view()],
    )
    assert untouched is True


def test_it_takes_a_whole_pile_list_and_no_changes_at_all(call: Call) -> None:
    view = board_view()
    whole = [{"down": 0, "cards": ["2C"]}]
    assert call("changes.js", "applyChanges", view, {"columns": whole})["columns"] == whole
    assert call("changes.js", "applyChanges", view, {}) == view
    assert call("changes.js", "applyChanges", view, None) == view


def test_it_inverts_the_servers_changes_over_a_real_game(call: Call) -> None:
    """Play a real deal with the engine; every step's changes, as the server computes
    them, turn the view before into exactly the view after."""
    from games.payloads import board_changes

    engine = GameState.from_code("FT1-J-0000002")
    steps = []
    for _ in range(12):
        legal = engine.legal_moves()
        if not legal:
            break
        before = copy.deepcopy(engine.view())
        # A card move when there is one (they change columns and foundations), else a draw.
        engine.play(next((m for m in legal if "-" in m), legal[0]))
        after = engine.view()
        steps.append([before, board_changes(before, after), after])
    assert len(steps) == 12
    for before, changes, after in steps:
        assert call("changes.js", "applyChanges", before, changes) == after


# The action queue (queue.js), against a fake socket --------------------------------------


def test_it_sends_one_action_at_a_time_stamped_with_its_version(page: Any, live_url: str) -> None:
    _open_units_page(page, live_url)
    log = page.evaluate(
        """async () => {
          const { ActionQueue } = await import("/static/js/board/queue.js");
          const sent = [];
          const socket = { isOpen: true, act: (m) => { sent.push(m); return `id${sent.length}`; } };
          let version = 7;
          const refused = [];
          const queue = new ActionQueue(socket, { canSend: () => true, version: () => version }, 2);
          queue.enqueue({ type: "move", move: "s" });
          queue.enqueue({ type: "move", move: "t1-f1" });
          queue.enqueue({ type: "resign" });
          queue.enqueue({ type: "undo" }, { onRefused: () => refused.push("undo") });
          const first = sent.length;
          const settled = queue.answered({ id: "id1" });
          version = 8;
          queue.answered({ id: "nobody" });
          queue.pump();
          queue.answered({ id: "id2" });
          queue.pump();
          return { first, settled: settled.message, sent, refused };
        }"""
    )
    assert log["first"] == 1  # the second waits for the first's answer
    assert log["settled"] == {"type": "move", "move": "s"}
    assert log["sent"] == [
        {"type": "move", "move": "s", "version": 7},
        {"type": "move", "move": "t1-f1", "version": 8},
        {"type": "resign"},  # a resignation names no version
    ]
    assert log["refused"] == ["undo"]  # beyond the queue's room: dropped, and told so


def test_it_chooses_a_deferred_action_when_its_turn_comes(page: Any, live_url: str) -> None:
    _open_units_page(page, live_url)
    log = page.evaluate(
        """async () => {
          const { ActionQueue } = await import("/static/js/board/queue.js");
          const sent = [];
          const socket = { isOpen: true, act: (m) => { sent.push(m); return `id${sent.length}`; } };
          let version = 1;
          let top = "AS";
          const dropped = [];
          const queue = new ActionQueue(socket, { canSend: () => true, version: () => version });
          const idle = queue.busy;
          queue.enqueue({ type: "move", move: "t1-f1" });
          // Two taps while the first is on its way: chosen only when their turn comes.
          queue.enqueue(() => ({ type: "move", move: `${top}?` }));
          queue.enqueue(() => null, { onRefused: () => dropped.push("nothing left") });
          const busy = queue.busy;
          const whileWaiting = sent.length;
          top = "2S";
          version = 2;
          queue.answered({ id: "id1" });
          queue.pump();
          queue.answered({ id: "id2" });
          queue.pump();
          return { idle, busy, whileWaiting, sent, dropped, after: queue.busy };
        }"""
    )
    assert log["idle"] is False and log["busy"] is True and log["after"] is False
    assert log["whileWaiting"] == 1
    assert log["sent"] == [
        {"type": "move", "move": "t1-f1", "version": 1},
        {"type": "move", "move": "2S?", "version": 2},  # the board after the first answer
    ]
    assert log["dropped"] == ["nothing left"]  # a tap with nothing to do sends nothing


# Translation (i18n.js) through Django's JavaScript catalog --------------------------------


def test_it_translates_through_the_django_catalog_in_the_page_language(
    browser: Any, live_url: str
) -> None:
    context = browser.new_context(locale="it-IT")
    page = context.new_page()
    try:
        _open_units_page(page, live_url, head='<script src="/jsi18n/"></script>')
        words = page.evaluate(
            """async () => {
              const { t } = await import("/static/js/board/i18n.js");
              const { cardName } = await import("/static/js/board/cards.js");
              return [t("spades"), t("Column %(n)s", { n: 3 }), cardName("QH"), t("no such text")];
            }"""
        )
    finally:
        context.close()
    assert words == ["picche", "Colonna 3", "regina di cuori", "no such text"]


def test_it_falls_back_to_english_without_the_catalog(call: Call) -> None:
    assert call("i18n.js", "t", "Column %(n)s", {"n": 4}) == "Column 4"
    assert call("cards.js", "cardName", "TD") == "10 of diamonds"
    assert call("cards.js", "cardName", "AS") == "ace of spades"


# The live leaderboard (board-live.js) on the board's socket class --------------------------


def test_it_keeps_the_daily_board_live_through_the_shared_socket(page: Any, live_url: str) -> None:
    """Not a pure module, but the one other user of socket.js: on connecting it says so
    and fetches the rows once, to catch up on what changed while it was away."""
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(live_url + "/boards/daily/")
    live = page.locator("[data-board-live].is-live")
    live.wait_for()
    assert live.locator(".board-live__label").inner_text() == "live"
    rows_url = live.get_attribute("data-rows-url")
    page.wait_for_function(
        "(url) => performance.getEntriesByType('resource').some((e) => e.name.endsWith(url))",
        arg=rows_url,
    )
    assert any(url.endswith(rows_url) for url in fetched)


def test_an_archive_game_keeps_its_undo_like_practice(call: Call) -> None:
    archive = call("state.js", "normalise", game_state(mode="archive"))
    assert archive["can_undo"] is True
    assert call("state.js", "normalise", game_state(mode="ranked"))["can_undo"] is False


def test_the_result_dialog_says_a_held_result_is_being_checked_and_why(call: Call) -> None:
    held = {
        "text": "Forty Thieves …",
        "rank": None,
        "review": {
            "state": "held",
            "title": "Your result is being checked",
            "why": ["Another account had turned this deal's cards."],
            "next": "A reviewer looks at it.",
        },
    }
    assert call("finish.js", "reviewText", held) == (
        "Your result is being checked Another account had turned this deal's cards."
        " A reviewer looks at it."
    )
    assert call("finish.js", "reviewText", {"text": "x", "rank": 3, "review": None}) == ""
    assert call("finish.js", "reviewText", None) == ""
