"""Known answers for each member of the Forty Thieves family and each option.

Every variant gets two checks: the shape of the deal for seed 12345 (the
table in ``docs/deals.md``), and a tiny hand-built position in which its
distinctive rule accepts one move and refuses another with a readable reason.
Hand-built positions hold every card not in play on the foundations.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from games.engine import Game, IllegalMove, InvalidLayout, InvalidMove

RANKS = "A23456789TJQK"
SUITS = "SHDC"
ALL_KINGS = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "KC"]

# Helpers -------------------------------------------------------------------


def tableau(columns: int, *piles: list[str]) -> list[list[str]]:
    """``piles`` as columns 1, 2, ... (bottom to top), the rest of ``columns`` empty."""
    return [list(pile) for pile in piles] + [[] for _ in range(columns - len(piles))]


def homes(**tops: str | None) -> list[str | None]:
    """Eight complete foundations except those named, e.g. ``homes(f8="9C")``."""
    found: list[str | None] = list(ALL_KINGS)
    for name, top in tops.items():
        found[int(name[1:]) - 1] = top
    return found


def column(game: Game, number: int) -> dict[str, Any]:
    return game.view()["columns"][number - 1]


def shown_cards(game: Game) -> Counter[str]:
    """Every card the player's view shows in the columns and on the waste."""
    view = game.view()
    shown = Counter(card for pile in view["columns"] for card in pile["cards"])
    shown.update(view["waste"])
    return shown


def refuse(game: Game, move: str, reason: str) -> IllegalMove:
    """``move`` is refused as illegal with ``reason`` in its one-sentence message,
    and the game is exactly as before."""
    before = game.dump()
    with pytest.raises(IllegalMove) as info:
        game.play(move)
    message = str(info.value)
    assert reason in message
    assert info.value.reason == message
    assert "\n" not in message
    assert game.dump() == before
    return info.value


def full_deck(packs: int) -> Counter[str]:
    return Counter(r + s for r in RANKS for s in SUITS for _ in range(packs))


def cards_held(state: dict[str, Any]) -> Counter[str]:
    held = Counter(card for pile in state["columns"] for card in pile)
    held.update(state["waste"])
    held.update(state["stock"])
    held.update(
        RANKS[r] + SUITS[k % 4] for k, rank in enumerate(state["foundations"]) for r in range(rank)
    )
    return held


# Deals for seed 12345 ------------------------------------------------------

#: name, letter, packs, columns, cards per column, face down per column, stock (docs/deals.md).
DEALS = [
    ("forty-thieves", "N", 2, 10, 4, 0, 64),
    ("josephine", "J", 2, 10, 4, 0, 64),
    ("limited", "L", 2, 12, 3, 0, 68),
    ("indian", "I", 2, 10, 3, 1, 74),
    ("streets", "S", 2, 10, 4, 0, 64),
    ("sixty-thieves", "X", 3, 12, 5, 0, 96),
    ("lucas", "C", 2, 13, 3, 0, 57),
    ("maria", "M", 2, 9, 4, 0, 68),
    ("number-ten", "T", 2, 10, 4, 2, 64),
    ("rank-and-file", "R", 2, 10, 4, 3, 64),
    ("little-forty", "F", 2, 10, 4, 0, 64),
]


@pytest.mark.parametrize(
    ("name", "letter", "packs", "columns", "per_column", "down", "stock"),
    DEALS,
    ids=[deal[0] for deal in DEALS],
)
def test_seed_12345_deals_the_documented_layout(
    name: str, letter: str, packs: int, columns: int, per_column: int, down: int, stock: int
) -> None:
    game = Game.from_seed(12345, name)
    view, state = game.view(), game.dump()

    assert game.code == f"FT1-{letter}-0000C1S"
    assert view["variant"] == name
    assert len(view["columns"]) == len(state["columns"]) == columns
    for seen, cards in zip(view["columns"], state["columns"], strict=True):
        assert len(cards) == per_column
        assert seen == {"down": down, "cards": cards[down:]}
    assert view["stock"] == len(state["stock"]) == stock
    assert view["waste"] == []
    assert (view["score"], view["moves"], view["won"], view["stuck"]) == (0, 0, False, False)
    assert view["redeals_left"] == (3 if name == "little-forty" else 0)
    assert game.legal_moves()[0] == "s"

    foundations = view["foundations"]
    assert [f["suit"] for f in foundations] == list(SUITS * packs)
    if name == "lucas":
        assert [f["top"] for f in foundations] == ["AS", "AH", "AD", "AC"] * 2
        assert [f["count"] for f in foundations] == [1] * 8
        dealt = [c for pile in state["columns"] for c in pile] + state["stock"]
        assert not [c for c in dealt if c[0] == "A"]
    else:
        assert [(f["top"], f["count"]) for f in foundations] == [(None, 0)] * (4 * packs)

    assert cards_held(state) == full_deck(packs)
    hidden = Counter(c for pile in state["columns"] for c in pile[:down]) + Counter(state["stock"])
    visible = Counter(c for pile in state["columns"] for c in pile[down:])
    assert shown_cards(game) == visible
    assert sum(hidden.values()) == stock + columns * down


def test_variants_with_the_same_deck_and_layout_deal_the_same_cards() -> None:
    """docs/deals.md: the variant does not enter the hash, only the seed does."""
    same = ["forty-thieves", "josephine", "streets", "little-forty", "number-ten", "rank-and-file"]
    deals = {name: Game.from_seed(12345, name).dump() for name in same}
    for name in same:
        assert deals[name]["columns"] == deals["forty-thieves"]["columns"], name
        assert deals[name]["stock"] == deals["forty-thieves"]["stock"], name


def test_a_deal_code_names_the_variant_options_and_seed() -> None:
    game = Game.from_seed(12345, "josephine+kings+redeal2")
    assert game.code == "FT1-JK2-0000C1S"
    again = Game.from_code("FT1-JK2-0000C1S")
    assert again.dump() == game.dump()
    assert again.variant == "josephine+kings+redeal2"


# One hand-built position per variant -----------------------------------------


def test_forty_thieves_builds_down_in_suit_one_card_at_a_time() -> None:
    game = Game.from_layout(
        tableau(10, ["KD"], ["KC"], ["QC"], ["JC", "TC"]),
        ["QD"],
        "forty-thieves",
        foundations=homes(f3="JD", f8="9C"),
    )
    # Once per empty column, and never a column's only card onto an empty column.
    expected = {"s", "t3-t2", "t4-f8", *(f"t4-t{n}" for n in range(5, 11))}
    assert sorted(game.legal_moves()) == sorted(expected)

    refuse(
        game,
        "t3-t1",
        "a card goes on a column only onto the next higher card of the same suit;"
        " queen of clubs cannot go on king of diamonds",
    )
    refuse(game, "t4-t3x2", "in Forty Thieves cards move one at a time, never as a run")
    refuse(game, "t3-t5", "moving all of column 3 to an empty column changes nothing")

    game.play("t3-t2")
    assert column(game, 2)["cards"] == ["KC", "QC"]
    game.play("t4-f8")
    assert game.score == 10
    game.play("s")
    game.play("w-t1")
    assert column(game, 1)["cards"] == ["KD", "QD"]
    assert game.score == 15


def test_forty_thieves_lists_both_spade_foundations_for_an_ace() -> None:
    spades = [f"{r}S" for r in reversed(RANKS[1:])]  # KS down to 2S
    game = Game.from_layout(
        tableau(10, spades, spades, ["AS"]),
        ["AS"],
        "forty-thieves",
        foundations=homes(f1=None, f5=None),
    )
    legal = game.legal_moves()
    assert "t3-f1" in legal and "t3-f5" in legal
    assert "t1-f1" not in legal

    game.play("t3-f1")
    game.play("s")
    refuse(
        game,
        "w-f1",
        "a foundation builds up by one in its suit: foundation f1 takes the 2 of spades next",
    )
    game.play("w-f5")
    game.play("t1-f1")
    assert [f["top"] for f in game.view()["foundations"]][::4] == ["2S", "AS"]
    assert game.score == 30


def test_josephine_moves_a_same_suit_run_in_part_or_whole() -> None:
    game = Game.from_layout(
        tableau(10, ["KD"], ["QC", "JC", "TC"], ["KC", "QD"]),
        [],
        "josephine",
        foundations=homes(f3="JD", f8="9C"),
    )
    refuse(
        game,
        "t3-t1x2",
        "only a run built down by the column rule moves as a unit; QD does not follow KC",
    )
    refuse(game, "t2-t4x3", "moving all of column 2 to an empty column changes nothing")
    legal = game.legal_moves()
    assert {"t2-t4", "t2-t4x2"} <= set(legal)
    assert "t2-t4x3" not in legal

    game.play("t2-t4x2")  # part of the run
    assert column(game, 4)["cards"] == ["JC", "TC"]
    assert column(game, 2)["cards"] == ["QC"]
    game.undo()

    game.play("t3-t1")
    game.play("t2-t3x3")  # the whole run
    assert column(game, 3)["cards"] == ["KC", "QC", "JC", "TC"]
    assert column(game, 2)["cards"] == []
    assert game.score == 0


def test_limited_has_twelve_columns_and_builds_in_suit() -> None:
    with pytest.raises(InvalidLayout, match="the layout has 10 columns; limited has 12"):
        Game.from_layout(tableau(10), [], "limited", foundations=ALL_KINGS)
    game = Game.from_layout(
        tableau(12, *[[]] * 9, ["QH"], ["QC"], ["KC"]),
        ["KH"],
        "limited",
        foundations=homes(f6="JH", f8="JC"),
    )
    refuse(
        game,
        "t10-t12",
        "a card goes on a column only onto the next higher card of the same suit;"
        " queen of hearts cannot go on king of clubs",
    )
    with pytest.raises(InvalidMove, match="columns are t1 to t12"):
        game.play("t11-t13")
    game.play("t11-t12")
    assert column(game, 12)["cards"] == ["KC", "QC"]


def test_indian_builds_on_another_suit_and_turns_up_the_card_underneath() -> None:
    game = Game.from_layout(
        tableau(10, ["KS", "QS"], ["KH"], ["KS"]),
        [],
        "indian",
        foundations=homes(f1="QS", f2="QH", f5="JS"),
    )
    assert column(game, 1) == {"down": 1, "cards": ["QS"]}
    assert shown_cards(game)["KS"] == 1  # the face-down king is not shown

    refuse(
        game,
        "t1-t3",
        "a card goes on a column only onto the next higher card of a different suit;"
        " queen of spades cannot go on king of spades",
    )
    game.play("t1-t2")
    assert column(game, 1) == {"down": 0, "cards": ["KS"]}
    assert column(game, 2)["cards"] == ["KH", "QS"]
    assert shown_cards(game)["KS"] == 2

    game.undo()
    assert column(game, 1) == {"down": 1, "cards": ["QS"]}
    assert shown_cards(game)["KS"] == 1


def test_streets_builds_in_alternating_colours_one_card_at_a_time() -> None:
    game = Game.from_layout(
        tableau(10, ["KS"], ["KD"], ["KH", "QH"]),
        [],
        "streets",
        foundations=homes(f1="QS", f2="JH", f3="QD"),
    )
    refuse(
        game,
        "t3-t2",
        "a card goes on a column only onto the next higher card of the other colour;"
        " queen of hearts cannot go on king of diamonds",
    )
    game.play("t3-t1")
    assert column(game, 1)["cards"] == ["KS", "QH"]
    refuse(game, "t1-t4x2", "in Streets cards move one at a time, never as a run")


def test_sixty_thieves_has_three_packs_and_twelve_foundations() -> None:
    with pytest.raises(InvalidLayout, match="sixty-thieves has 12 foundations"):
        Game.from_layout(tableau(12), [], "sixty-thieves", foundations=ALL_KINGS)
    game = Game.from_layout(
        tableau(12, ["KS"], ["KS"], ["KS"]),
        [],
        "sixty-thieves",
        foundations=["QS", "KH", "KD", "KC"] * 3,
    )
    assert [f["suit"] for f in game.view()["foundations"]] == list(SUITS * 3)
    expected = {f"t{t}-f{k}" for t in (1, 2, 3) for k in (1, 5, 9)}
    assert sorted(game.legal_moves()) == sorted(expected)

    game.play("t3-f9")
    refuse(game, "t2-f9", "foundation f9 is complete, from ace to king")
    with pytest.raises(InvalidMove, match="foundations f1 to f12"):
        game.play("t2-f13")
    game.play("t2-f5")
    game.play("t1-f1")
    assert game.is_won()
    assert not game.is_stuck()
    assert game.score == 30


def test_lucas_starts_with_the_eight_aces_on_the_foundations() -> None:
    no_aces = [r + s for s in SUITS for r in RANKS[1:]] * 2
    game = Game.from_layout([no_aces[n::13] for n in range(13)], [], "lucas")
    assert [f["top"] for f in game.view()["foundations"]] == ["AS", "AH", "AD", "AC"] * 2
    with pytest.raises(InvalidLayout, match="too many AS"):
        Game.from_layout([no_aces[n::13] for n in range(12)] + [["AS"]], [], "lucas")


def test_lucas_builds_a_two_onto_a_starting_ace() -> None:
    game = Game.from_layout(
        tableau(13, [f"{r}S" for r in "KQJT987654"], *[[]] * 11, ["3S", "2S"]),
        [],
        "lucas",
        foundations=homes(f1="AS"),
    )
    legal = game.legal_moves()
    assert "t13-f1" in legal and "t13-f5" not in legal
    refuse(game, "t13-f5", "foundation f5 is complete, from ace to king")
    game.play("t13-f1")
    game.play("t13-f1")
    assert game.view()["foundations"][0] == {"suit": "S", "count": 3, "top": "3S"}
    assert column(game, 13)["cards"] == []
    assert game.score == 20


def test_maria_has_nine_columns_and_builds_in_alternating_colours() -> None:
    game = Game.from_layout(
        tableau(9, ["KS"], ["KH"], ["QC"]),
        ["KC"],
        "maria",
        foundations=homes(f1="QS", f2="QH", f4="JC"),
    )
    refuse(
        game,
        "t3-t1",
        "a card goes on a column only onto the next higher card of the other colour;"
        " queen of clubs cannot go on king of spades",
    )
    with pytest.raises(InvalidMove, match="columns are t1 to t9"):
        game.play("t3-t10")
    game.play("t3-t2")
    assert column(game, 2)["cards"] == ["KH", "QC"]


def test_number_ten_moves_alternating_runs_and_turns_up_the_card_underneath() -> None:
    game = Game.from_layout(
        tableau(10, ["KD", "KS", "QD", "JS"], ["KC"], ["KH"]),
        ["QS", "KS"],
        "number-ten",
        foundations=homes(f1="QS", f2="QH", f3="JD", f4="QC", f5="TS"),
    )
    assert column(game, 1) == {"down": 2, "cards": ["QD", "JS"]}
    assert "KD" not in shown_cards(game) and "KS" not in shown_cards(game)

    refuse(
        game,
        "t1-t3x2",
        "a card goes on a column only onto the next higher card of the other colour;"
        " queen of diamonds cannot go on king of hearts",
    )
    refuse(game, "t1-t2x3", "column 1 has only 2 face-up cards to move, not 3")
    game.play("t1-t2x2")
    assert column(game, 2) == {"down": 0, "cards": ["KC", "QD", "JS"]}
    assert column(game, 1) == {"down": 1, "cards": ["KS"]}
    assert "KD" not in shown_cards(game)

    game.undo()
    assert column(game, 1) == {"down": 2, "cards": ["QD", "JS"]}


def test_rank_and_file_moves_only_unbroken_alternating_runs() -> None:
    game = Game.from_layout(
        tableau(10, ["KS", "KC", "KH", "QC", "JH"], ["KD"], ["KS", "KC", "KD", "QH", "JD"]),
        ["QD"],
        "rank-and-file",
        foundations=["QS", "TH", "TD", "JC", "QS", "KH", "QD", "QC"],
    )
    assert column(game, 1) == {"down": 3, "cards": ["QC", "JH"]}
    assert column(game, 3) == {"down": 3, "cards": ["QH", "JD"]}

    refuse(
        game,
        "t3-t2x2",
        "only a run built down by the column rule moves as a unit; JD does not follow QH",
    )
    refuse(game, "t1-t2x3", "column 1 has only 2 face-up cards to move, not 3")
    game.play("t1-t2x2")
    assert column(game, 1) == {"down": 2, "cards": ["KH"]}
    assert column(game, 2) == {"down": 0, "cards": ["KD", "QC", "JH"]}

    game.play("s")
    refuse(
        game,
        "w-t1",
        "a card goes on a column only onto the next higher card of the other colour;"
        " queen of diamonds cannot go on king of hearts",
    )


def test_little_forty_builds_on_another_suit_whatever_its_colour() -> None:
    game = Game.from_layout(
        tableau(10, ["KH"], ["KS", "QD", "JS"], ["QH"]),
        ["QS", "KD"],
        "little-forty",
        foundations=homes(f1="TS", f2="JH", f3="JD"),
    )
    refuse(
        game,
        "t3-t1",
        "a card goes on a column only onto the next higher card of a different suit;"
        " queen of hearts cannot go on king of hearts",
    )
    assert "t2-t1x2" in game.legal_moves()
    game.play("t2-t1x2")
    assert column(game, 1)["cards"] == ["KH", "QD", "JS"]
    assert column(game, 2)["cards"] == ["KS"]


def test_little_forty_draws_three_and_redeals_three_times() -> None:
    stock = ["9S", "TS", "JS", "QS", "KS"]
    game = Game.from_layout(tableau(10), stock, "little-forty", foundations=homes(f1="8S"))
    game.play("s")
    assert game.view()["waste"] == ["9S", "TS", "JS"]  # the third card turned is on top
    assert game.view()["stock"] == 2
    game.undo()
    assert (game.view()["waste"], game.view()["stock"]) == ([], 5)

    game.play("s")
    game.play("s")
    assert game.view()["waste"] == stock
    refuse(game, "s", "the stock is empty: redeal with r to turn the waste over")
    redeals = 0
    while "r" in game.legal_moves():
        game.play("r")
        redeals += 1
        assert game.view()["waste"] == []
        assert game.view()["redeals_left"] == 3 - redeals
        game.play("s")
        # The bottom card of the old waste is the first one turned again.
        assert game.view()["waste"] == ["9S", "TS", "JS"]
        game.play("s")
    assert redeals == 3
    refuse(game, "r", "no redeals are left")


# Options --------------------------------------------------------------------


def test_kings_option_lets_only_a_king_fill_an_empty_column() -> None:
    game = Game.from_layout(
        tableau(10, ["QH", "KC"], ["KH", "QC"]),
        [],
        "forty-thieves+kings",
        foundations=homes(f6="JH", f8="JC"),
    )
    refuse(game, "t2-t3", "only a king may fill an empty column in this game")
    legal = game.legal_moves()
    assert not {f"t2-t{n}" for n in range(3, 11)} & set(legal)
    assert {f"t1-t{n}" for n in range(3, 11)} <= set(legal)
    game.play("t1-t3")
    game.play("t2-t3")
    assert column(game, 3)["cards"] == ["KC", "QC"]


def test_kings_option_lets_only_a_run_led_by_a_king_fill_an_empty_column() -> None:
    game = Game.from_layout(
        tableau(10, ["QH", "KC"], ["KH", "QC", "JC"]),
        [],
        "josephine+kings",
        foundations=homes(f6="JH", f8="TC"),
    )
    refuse(game, "t2-t3x2", "only a run led by a king may fill an empty column in this game")
    game.play("t2-t1x2")
    game.play("t1-t3x3")
    assert column(game, 3)["cards"] == ["KC", "QC", "JC"]


@pytest.mark.parametrize(("spec", "redeals"), [("forty-thieves+redeal1", 1), ("maria+redeal2", 2)])
def test_redeal_option_allows_exactly_that_many_redeals(spec: str, redeals: int) -> None:
    columns = 9 if spec.startswith("maria") else 10
    game = Game.from_layout(tableau(columns), ["KS"], spec, foundations=homes(f1="QS"))
    for _ in range(redeals):
        game.play("s")
        assert game.legal_moves()[0] == "r"
        game.play("r")
        assert game.view()["stock"] == 1
    game.play("s")
    assert "r" not in game.legal_moves()
    refuse(game, "r", "no redeals are left")


@pytest.mark.parametrize(("spec", "redeals"), [("forty-thieves+redeal1", 1), ("little-forty", 3)])
def test_drawing_after_the_last_redeal_gives_a_true_reason(spec: str, redeals: int) -> None:
    game = Game.from_layout(tableau(10), ["KS"], spec, foundations=homes(f1="QS"))
    game.play("s")
    for _ in range(redeals):
        game.play("r")
        game.play("s")
    error = refuse(game, "s", "the stock is empty")
    assert "only once" not in str(error)


def test_without_a_redeal_option_the_stock_is_turned_once() -> None:
    game = Game.from_layout(tableau(10), ["KS"], foundations=homes(f1="QS"))
    game.play("s")
    refuse(game, "r", "Forty Thieves allows no redeal: the stock is turned only once")
    refuse(game, "s", "the stock is empty")


def test_takeback_option_returns_a_foundation_card_for_15_points_never_below_0() -> None:
    game = Game.from_layout(
        tableau(10, ["KS", "QS"]),
        [],
        "forty-thieves+takeback",
        foundations=homes(f1="JS"),
    )
    game.play("t1-f1")
    game.play("t1-f1")
    assert game.score == 20
    assert {f"f1-t{n}" for n in range(1, 11)} <= set(game.legal_moves())
    refuse(game, "f1-f5", "a card taken back from a foundation may only go to a column")

    game.play("f1-t2")
    assert column(game, 2)["cards"] == ["KS"]
    assert game.score == 5
    game.play("f1-t2")
    assert column(game, 2)["cards"] == ["KS", "QS"]
    assert game.score == 0  # 5 - 15, floored at 0
    game.undo()
    assert game.score == 5
    game.undo()
    assert game.score == 20


def test_without_takeback_foundation_cards_stay_there() -> None:
    game = Game.from_layout(tableau(10, ["KS", "QS"]), [], foundations=homes(f1="JS"))
    game.play("t1-f1")
    assert not [m for m in game.legal_moves() if m.startswith("f")]
    refuse(game, "f1-t2", "cards on a foundation stay there in Forty Thieves")


# Piles a layout lacks -----------------------------------------------------------


@pytest.mark.parametrize("name", [deal[0] for deal in DEALS])
def test_a_move_naming_a_pile_the_layout_lacks_is_invalid(name: str) -> None:
    game = Game.from_seed(12345, f"{name}+takeback")
    columns = len(game.view()["columns"])
    foundations = len(game.view()["foundations"])
    before = game.dump()
    for text in (
        f"t1-t{columns + 1}",
        f"t{columns + 1}-t1",
        f"w-t{columns + 1}",
        f"t1-f{foundations + 1}",
        f"w-f{foundations + 1}",
        f"f{foundations + 1}-t1",
        f"f1-t{columns + 1}",
    ):
        with pytest.raises(InvalidMove, match="names a pile this layout lacks"):
            game.play(text)
        assert game.dump() == before


@pytest.mark.parametrize("text", ["f9-t1", "f1-t11"])
def test_a_foundation_move_naming_a_missing_pile_is_invalid_without_takeback(text: str) -> None:
    game = Game.from_seed(12345, "forty-thieves")
    with pytest.raises(InvalidMove, match="names a pile this layout lacks"):
        game.play(text)
