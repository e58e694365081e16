"""The distinctive rule of each member of the Forty Thieves family, one tiny hand-built
position each (every card not in play already on the foundations), in which its rule for
building, moving runs, dealing face down, drawing or redealing accepts one move and refuses
another with a readable one-sentence reason.
"""

from __future__ import annotations

import pytest

from games.engine import GameState, InvalidLayout, InvalidMove

from .conftest import ALL_KINGS, RANKS, SUITS, column, homes, refuse, shown_cards, tableau


def test_forty_thieves_builds_down_in_suit_one_card_at_a_time() -> None:
    game = GameState.from_layout(
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
    game = GameState.from_layout(
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
    game = GameState.from_layout(
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
        GameState.from_layout(tableau(10), [], "limited", foundations=ALL_KINGS)
    game = GameState.from_layout(
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
    game = GameState.from_layout(
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
    game = GameState.from_layout(
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
        GameState.from_layout(tableau(12), [], "sixty-thieves", foundations=ALL_KINGS)
    game = GameState.from_layout(
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
    game = GameState.from_layout([no_aces[n::13] for n in range(13)], [], "lucas")
    assert [f["top"] for f in game.view()["foundations"]] == ["AS", "AH", "AD", "AC"] * 2
    with pytest.raises(InvalidLayout, match="too many AS"):
        GameState.from_layout([no_aces[n::13] for n in range(12)] + [["AS"]], [], "lucas")


def test_lucas_builds_a_two_onto_a_starting_ace() -> None:
    game = GameState.from_layout(
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
    game = GameState.from_layout(
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
    game = GameState.from_layout(
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
    game = GameState.from_layout(
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
    game = GameState.from_layout(
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
    game = GameState.from_layout(tableau(10), stock, "little-forty", foundations=homes(f1="8S"))
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
