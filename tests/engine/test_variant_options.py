"""The deal options that change a variant's rules, each on a hand-built position (every card
not in play already on the foundations): ``+kings`` lets only a king, or a run led by one,
fill an empty column; ``+redealN`` allows exactly N redeals, and without it the stock is
turned once; ``+takeback`` returns a foundation card to a column for 15 points, and without
it foundation cards stay where they are.
"""

from __future__ import annotations

import pytest

from games.engine import GameState

from .conftest import column, homes, refuse, tableau


def test_kings_option_lets_only_a_king_fill_an_empty_column() -> None:
    game = GameState.from_layout(
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
    game = GameState.from_layout(
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
    game = GameState.from_layout(tableau(columns), ["KS"], spec, foundations=homes(f1="QS"))
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
    game = GameState.from_layout(tableau(10), ["KS"], spec, foundations=homes(f1="QS"))
    game.play("s")
    for _ in range(redeals):
        game.play("r")
        game.play("s")
    error = refuse(game, "s", "the stock is empty")
    assert "only once" not in str(error)


def test_without_a_redeal_option_the_stock_is_turned_once() -> None:
    game = GameState.from_layout(tableau(10), ["KS"], foundations=homes(f1="QS"))
    game.play("s")
    refuse(game, "r", "Forty Thieves allows no redeal: the stock is turned only once")
    refuse(game, "s", "the stock is empty")


def test_takeback_option_returns_a_foundation_card_for_15_points_never_below_0() -> None:
    game = GameState.from_layout(
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
    game = GameState.from_layout(tableau(10, ["KS", "QS"]), [], foundations=homes(f1="JS"))
    game.play("t1-f1")
    assert not [m for m in game.legal_moves() if m.startswith("f")]
    refuse(game, "f1-t2", "cards on a foundation stay there in Forty Thieves")
