"""The playable board in a real Chromium: a whole game won with the mouse, refusals,
reloads, the keyboard and the phone layout.

The engine (``games.engine``) is the test's oracle, never the page's: it replays the
recorded log alongside the browser so the test knows, before each move, which pile
the page's tap and double-tap would choose (the same choice as ``moves.js``) and
what the table must look like afterwards.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError

from games.engine import GameState, IllegalMove, parse_card
from games.engine.cards import describe_card

pytestmark = [pytest.mark.browser]

# The conftest fixtures: start_practice(page, code) -> URL; board(page) -> its test hooks.
StartPractice = Callable[[Page, str], str]
BoardOf = Callable[[Page], Any]

WON_GAMES = Path(__file__).resolve().parents[1] / "data" / "won_games.json"
JOSEPHINE = "FT1-J-0000002"
LUCAS = "FT1-C-0000001"
NO_HORIZONTAL_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"
# A card move in the notation, exactly as moves.js reads it.
MOVE = re.compile(r"^(w|[tf]\d+)-([tf]\d+)(?:x(\d+))?$")
# gestures.js: a second tap within 350 ms on the card a tap could not move is a
# double-tap, and one within 250 ms of a tap that moved its card is the same gesture.
# The test keeps a wider margin before tapping a pile it tapped just before (and drags
# instead); test_taps.py and test_gestures.py tap quickly.
DOUBLE_TAP_S = 0.5
# Where a card is grabbed: its top-left corner, visible even when cards fan over it.
GRAB = {"x": 10, "y": 8}


def won_game(code: str) -> dict[str, Any]:
    games = json.loads(WON_GAMES.read_text())["games"]
    return next(g for g in games if g["code"] == code)


@dataclass(frozen=True)
class CardMove:
    src: str
    dst: str
    count: int


def parse(move: str) -> CardMove | None:
    m = MOVE.match(move)
    return CardMove(m[1], m[2], int(m[3] or 1)) if m else None


def page_choice(game: GameState, src: str, count: int, *, columns: bool) -> str | None:
    """Where the page sends ``count`` cards of ``src`` on a tap under the table's setting
    "home" (``columns`` False, except for the waste), or on a double-tap and any tap under
    "best" (``columns`` True): ``smartTarget`` in place.js, on the same ``legal_moves`` the
    server sends (the engine's, in the engine's order). The classic rules build in suit,
    so place.js's preference for a column of the card's suit changes nothing here."""
    targets = [
        m.dst
        for m in map(parse, game.legal_moves())
        if m is not None and m.src == src and m.count == count
    ]
    foundation = next((p for p in targets if p[0] == "f"), None)
    if foundation or not columns:
        return foundation
    view = game.view()
    best, best_rank = None, -1.0
    for p in targets:
        if p[0] != "t":
            continue
        column = view["columns"][int(p[1:]) - 1]
        length = column["down"] + len(column["cards"])
        rank = -0.5 if length == 0 else float(length)
        if rank > best_rank:
            best, best_rank = p, rank
    return best


# The table's setting "tap" on the signed-in player's account (PUT /api/v1/settings, as the
# settings panel saves it, with the board page's CSRF token); the page reads it on load.
SET_TAP = """async (tap) => {
  const token = document.querySelector('[name=csrfmiddlewaretoken]').value;
  const answer = await fetch('/api/v1/settings', {
    method: 'PUT', credentials: 'same-origin', body: JSON.stringify({tap}),
    headers: {'Content-Type': 'application/json', 'X-CSRFToken': token},
  });
  return answer.status;
}"""


def use_tap(page: Page, tap: str) -> None:
    """Keep ``tap`` ("best" or "home") on the account and reload the board with it."""
    assert page.evaluate(SET_TAP, tap) == 200
    page.reload()
    page.locator('[data-testid="connection"][data-state="connected"]').wait_for()


def expected_piles(game: GameState) -> dict[str, list[str]]:
    """What the board must draw for the engine's position (the waste: its top three)."""
    view = game.view()
    piles: dict[str, list[str]] = {"stock": [], "w": view["waste"][-3:]}
    for k, f in enumerate(view["foundations"], start=1):
        piles[f"f{k}"] = [f["top"]] if f["top"] else []
    for i, column in enumerate(view["columns"], start=1):
        piles[f"t{i}"] = column["cards"]
    return piles


class Player:
    """Plays moves on the page through pointer gestures, one at a time, waiting for
    the server's answer (``data-version``) after each."""

    def __init__(self, page: Page, board: Any) -> None:
        self.page = page
        self.board = board
        self.last_tap: tuple[str, float] | None = None
        self.used: Counter[str] = Counter()

    def may_tap(self, pile: str) -> bool:
        if self.last_tap is None or self.last_tap[0] != pile:
            return True
        return time.monotonic() - self.last_tap[1] > DOUBLE_TAP_S

    def choose(self, game: GameState, move: str) -> str:
        """The gesture that makes the page send exactly ``move``."""
        if move in ("s", "r"):
            return "stock"
        m = parse(move)
        assert m is not None, move
        if not self.may_tap(m.src):
            return "drag"
        if m.count == 1 and page_choice(game, m.src, 1, columns=m.src == "w") == m.dst:
            return "click"
        # A double-click on a column: the first tap must do nothing (no foundation takes
        # the card), the second sends the run to the page's preferred pile.
        if (
            m.src[0] == "t"
            and page_choice(game, m.src, m.count, columns=False) is None
            and page_choice(game, m.src, m.count, columns=True) == m.dst
        ):
            return "dblclick"
        return "drag"

    def play(self, game: GameState, move: str, gesture: str | None = None) -> str:
        """Play ``move`` (legal in ``game``, the engine's copy of the page's game)."""
        gesture = gesture or self.choose(game, move)
        before = self.board.version
        # The board takes taps during a card's slide too (test_taps.py); this test is
        # about what each gesture does, on a board at rest.
        self.board.settled()
        if gesture == "stock":
            self.board.pile("stock").click()
        else:
            m = parse(move)
            assert m is not None, move
            card = self.board.card(m.src, -m.count)
            if gesture == "click":
                card.click(position=GRAB)
                self.last_tap = (m.src, time.monotonic())
            elif gesture == "dblclick":
                card.dblclick(position=GRAB)
                # A press on this pile right after a double-click that moved its card is
                # the same gesture (gestures.js): the next one here keeps its distance.
                self.last_tap = (m.src, time.monotonic())
            else:
                self.drag(card, m.dst)
        self.used[gesture] += 1
        try:
            self.board.wait_for_version(before + 1, timeout=5_000)
        except PlaywrightError:
            reminder = self.page.locator('[data-testid="reminder"]').text_content()
            frames = getattr(self.page, "_ft_frames", [])[-8:]
            raise AssertionError(
                f"{move} by {gesture} was not applied (version {self.board.version}, "
                f"reminder: {reminder!r}); last socket frames: {frames}"
            ) from None
        game.play(move)
        return gesture

    def drag(self, card: Any, dst: str) -> None:
        """Press on ``card``, move in steps onto pile ``dst``, let go."""
        card.hover(position=GRAB)  # scrolls it into view, waits for it to stand still
        self.page.mouse.down()
        box = self.board.pile(dst).bounding_box()
        assert box is not None, dst
        # Near the top of the pile: inside it however long the column, and on screen.
        x, y = box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 40)
        self.page.mouse.move(x, y, steps=4)
        self.page.mouse.up()


def record_accepted(page: Page) -> list[str]:
    """The action of every ``accepted`` answer this page's sockets receive, in order."""
    accepted: list[str] = []

    frames: list[str] = []
    page._ft_frames = frames  # type: ignore[attr-defined]  # the last ones explain a failure

    def on_frame(payload: str | bytes) -> None:
        msg = json.loads(payload)
        frames.append(f"< {str(payload)[:160]}")
        if msg.get("type") == "accepted" and not msg.get("duplicate"):
            accepted.append(msg["action"])

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", on_frame)
        ws.on("framesent", lambda payload: frames.append(f"> {str(payload)[:160]}"))
        ws.on("close", lambda _: frames.append("closed"))

    page.on("websocket", on_socket)
    return accepted


# A whole game ---------------------------------------------------------------------


@pytest.mark.timeout(240)
def test_a_player_wins_a_known_deal_with_clicks_double_clicks_and_drags(
    signed_up_page: Page, start_practice: StartPractice, board: BoardOf, shots: Path
) -> None:
    page = signed_up_page
    # Without the slides: 280 gestures each waiting for the last card to land took 86 s
    # against 34 s. The slides, and taps during them, are test_taps.py's and the finish's.
    page.emulate_media(reduced_motion="reduce")
    record = won_game(JOSEPHINE)
    moves = record["moves"].split()
    assert len(moves) == record["move_count"] == 280
    accepted = record_accepted(page)
    start_practice(page, JOSEPHINE)
    table = board(page)
    assert table.version == 0
    assert table.status == "active"

    game = GameState.from_code(JOSEPHINE)
    player = Player(page, table)
    assert table.piles() == expected_piles(game)
    started = time.monotonic()
    for number, move in enumerate(moves, start=1):
        player.play(game, move)
        if number % 20 == 0:  # the table as drawn is the engine's position
            assert table.piles() == expected_piles(game), f"after move {number} ({move})"
        if number == len(moves) // 2:
            table.settled()
            page.screenshot(path=str(shots / "board-midgame.png"), full_page=True)
    elapsed = time.monotonic() - started

    assert game.is_won()
    result = page.locator('[data-testid="result"]')
    expect(result).to_be_visible()
    expect(result).to_have_attribute("data-status", "won")
    expect(result.locator('[data-result="title"]')).to_have_text("You won!")
    expect(result.locator('[data-result="moves"]')).to_have_text("280")
    expect(result.locator('[data-result="score"]')).to_have_text(str(record["score"]))
    assert table.status == "won"
    assert table.version == 280
    table.settled()
    page.screenshot(path=str(shots / "win.png"))

    # Each gesture made exactly the recorded move, and all three kinds were used.
    assert accepted == moves
    assert {"click", "dblclick", "drag", "stock"} <= set(player.used), player.used
    print(f"won in {elapsed:.1f} s with {dict(player.used)}")


# Refusals, reloads -------------------------------------------------------------------


def an_illegal_column_move(game: GameState) -> tuple[str, str, IllegalMove]:
    """A top card, its column and a column that refuses it, with the engine's refusal."""
    view = game.view()
    for i, src in enumerate(view["columns"], start=1):
        for j, dst in enumerate(view["columns"], start=1):
            if i == j or not src["cards"] or not dst["cards"]:
                continue
            probe = game.copy()
            try:
                probe.play(f"t{i}-t{j}")
            except IllegalMove as refusal:
                return f"t{i}", f"t{j}", refusal
    raise AssertionError("every column accepts every other: not this deal")


@pytest.mark.timeout(90)
def test_a_refused_drag_shows_the_reminder_and_the_card_returns(
    signed_up_page: Page, start_practice: StartPractice, board: BoardOf
) -> None:
    page = signed_up_page
    start_practice(page, JOSEPHINE)
    table = board(page)
    game = GameState.from_code(JOSEPHINE)
    src, dst, refusal = an_illegal_column_move(game)
    assert "a card goes on a column only onto" in refusal.reason
    # The page says the engine's rule in its own words (reminders.js), cards by name.
    assert refusal.rule == "build" and refusal.params["build"] == "same-suit"
    card_words, onto_words = (
        describe_card(parse_card(refusal.params[k])) for k in ("card", "onto")
    )
    said = f"The {card_words} cannot go on the {onto_words}: a column builds down in the same suit."

    card = table.card(src, -1)
    card.hover(position=GRAB)
    home = card.bounding_box()
    assert home is not None
    Player(page, table).drag(card, dst)

    reminder = page.locator('[data-testid="reminder"]')
    expect(reminder).to_be_visible()
    expect(reminder).to_have_text(said)
    # The card glides back to where it started (to the pixel), and nothing was played.
    page.wait_for_function(
        """([el, x, y]) => {
             const r = el.getBoundingClientRect();
             return Math.abs(r.x - x) < 1 && Math.abs(r.y - y) < 1
               && !el.classList.contains('is-dragging');
           }""",
        arg=[card.element_handle(), home["x"], home["y"]],
    )
    assert table.version == 0
    assert table.piles() == expected_piles(game)


@pytest.mark.timeout(90)
def test_a_reload_mid_game_resumes_at_the_same_position(
    signed_up_page: Page, start_practice: StartPractice, board: BoardOf
) -> None:
    page = signed_up_page
    start_practice(page, JOSEPHINE)
    table = board(page)
    game = GameState.from_code(JOSEPHINE)
    player = Player(page, table)
    for move in won_game(JOSEPHINE)["moves"].split()[:12]:
        player.play(game, move)
    version, piles = table.version, table.piles()
    stats = {k: page.locator(f'[data-stat="{k}"]').inner_text() for k in ("score", "moves")}
    stock = table.pile("stock").inner_text()
    assert version == 12
    assert piles == expected_piles(game)

    page.reload()
    table.wait_connected()
    assert table.version == version
    assert table.status == "active"
    assert table.piles() == piles
    assert {k: page.locator(f'[data-stat="{k}"]').inner_text() for k in stats} == stats
    assert table.pile("stock").inner_text() == stock
    # And play goes on from there.
    player.play(game, won_game(JOSEPHINE)["moves"].split()[12])
    assert table.piles() == expected_piles(game)


# The keyboard ------------------------------------------------------------------------


@pytest.mark.timeout(90)
def test_the_keyboard_plays_moves_with_enter_arrows_letters_and_digits(
    signed_up_page: Page, start_practice: StartPractice, board: BoardOf
) -> None:
    page = signed_up_page
    start_practice(page, JOSEPHINE)
    table = board(page)
    game = GameState.from_code(JOSEPHINE)
    log = won_game(JOSEPHINE)["moves"].split()
    assert log[:9] == ["t3-t6", "s", "w-f3", "s", "s", "s", "s", "s", "w-t5"]

    def keys(*presses: str, move: str) -> None:
        before = table.version
        for key in presses:
            page.keyboard.press(key)
        table.wait_for_version(before + 1)
        game.play(move)
        assert table.piles() == expected_piles(game), move

    # Focus a column, Enter picks its top card up, arrows walk to column 6, Enter puts
    # it down there.
    moving = game.column(3)[-1]
    table.pile("t3").focus()
    page.keyboard.press("Enter")
    expect(table.pile("t3")).to_have_class(re.compile(r"\bis-selected\b"))
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(table.pile("t6")).to_be_focused()
    keys("Enter", move="t3-t6")
    assert table.piles()["t6"][-1] == moving

    # Escape lets go of a selection.
    page.keyboard.press("2")
    expect(table.pile("t2")).to_have_class(re.compile(r"\bis-selected\b"))
    page.keyboard.press("Escape")
    expect(page.locator(".is-selected")).to_have_count(0)

    # `d` draws, wherever the focus is (here: nowhere): the waste shows a card.
    page.evaluate("document.activeElement.blur()")
    keys("d", move="s")
    assert len(table.piles()["w"]) == 1
    # `w` picks up the waste card, `f` sends it to the first foundation that takes it.
    assert page_choice(game, "w", 1, columns=False) == "f3"
    keys("w", "f", move="w-f3")
    assert table.piles()["w"] == []
    # `s` draws too; `w` then a digit puts the waste card on that column.
    for _ in range(5):
        keys("s", move="s")
    keys("w", "5", move="w-t5")
    assert table.version == 9


# The phone layout -------------------------------------------------------------------


@pytest.mark.timeout(90)
@pytest.mark.parametrize(
    ("code", "columns", "shot"),
    [(JOSEPHINE, 10, "board-360.png"), (LUCAS, 13, "board-360-lucas.png")],
    ids=["josephine-10-columns", "lucas-13-columns"],
)
def test_the_board_has_no_horizontal_scroll_at_360_px(
    browser: Browser,
    sign_up: Callable[[Page], str],
    start_practice: StartPractice,
    shots: Path,
    code: str,
    columns: int,
    shot: str,
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 780}, locale="en-GB")
    try:
        page = context.new_page()
        sign_up(page)
        start_practice(page, code)
        assert page.locator(".ft-column").count() == columns
        assert page.evaluate(NO_HORIZONTAL_SCROLL), f"{code} scrolls sideways at 360 px"
        # Every pile is on screen, the last column included.
        right = page.evaluate(
            """() => Math.max(...Array.from(document.querySelectorAll('[data-pile]'),
                                            (el) => el.getBoundingClientRect().right))"""
        )
        assert right <= 360
        page.screenshot(path=str(shots / shot), full_page=True)
    finally:
        context.close()
