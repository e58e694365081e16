"""Each classic rule, and each refusal, by name."""

from __future__ import annotations

import pytest

from games.engine import GameState, IllegalMove, InvalidMove


def refusal(game: GameState, move: str) -> str:
    """Play a move that must be refused; check nothing changed; return the reason."""
    before = game.dump()
    with pytest.raises(IllegalMove) as caught:
        game.play(move)
    assert game.dump() == before
    return caught.value.reason


def test_it_deals_forty_face_up_cards_in_ten_columns_and_sixty_four_to_the_stock() -> None:
    view = GameState.from_seed(1).view()
    assert [len(c["cards"]) for c in view["columns"]] == [4] * 10
    assert [c["down"] for c in view["columns"]] == [0] * 10
    assert view["stock"] == 64
    assert view["waste"] == []
    assert [f["suit"] for f in view["foundations"]] == list("SHDCSHDC")
    assert all(f["count"] == 0 for f in view["foundations"])


def test_it_turns_the_stock_one_card_at_a_time_onto_the_waste(layout) -> None:
    game = layout([["KS"], ["KH"]], stock=["QS", "QH"])
    game.play("s")
    assert game.view()["waste"] == ["QS"]
    game.play("s")
    assert game.view()["waste"] == ["QS", "QH"]
    assert game.stock_count == 0


def test_it_turns_the_stock_only_once(layout) -> None:
    game = layout([["KS"]], waste=["KH"])
    assert refusal(game, "s") == "the stock is empty, and it is turned only once"
    assert "allows no redeal" in refusal(game, "r")


def test_it_builds_a_column_down_in_suit(layout) -> None:
    game = layout([["KS"], ["KH"], ["QS"]], park=4)
    reason = refusal(game, "t3-t2")
    assert reason.startswith(
        "a card goes on a column only onto the next higher card of the same suit"
    )
    game.play("t3-t1")
    assert game.column(1) == ["KS", "QS"]


def test_it_refuses_a_card_more_than_one_rank_lower(layout) -> None:
    game = layout([["KS"], ["JS"]], park=3)
    assert "next higher card of the same suit" in refusal(game, "t2-t1")


def test_it_puts_nothing_onto_an_ace(layout) -> None:
    game = layout([["AS"], ["KS"]], park=3)
    assert refusal(game, "t2-t1") == "nothing goes onto an ace"


def test_it_moves_one_card_at_a_time(layout) -> None:
    game = layout([["KH"], ["KS", "QS"]])
    assert refusal(game, "t2-t3x2") == "in Forty Thieves cards move one at a time, never as a run"


def test_it_moves_only_the_top_card_of_the_waste(layout) -> None:
    game = layout([[]], waste=["KS", "KH"])
    assert refusal(game, "w-t1x2") == "only the top card of the waste may move"


def test_it_lets_any_single_card_fill_an_empty_column(layout) -> None:
    game = layout([["KS", "QS"], [], ["5D"]], waste=["QH"], park=10)
    game.play("w-t2")
    game.play("t1-t4")
    assert game.column(2) == ["QH"] and game.column(4) == ["QS"]


def test_it_refuses_a_move_that_changes_nothing(layout) -> None:
    game = layout([["QS"], []], park=10)
    assert "changes nothing" in refusal(game, "t1-t2")
    assert "t1-t2" not in game.legal_moves()


def test_it_lists_a_card_once_for_every_empty_column(layout) -> None:
    game = layout([["QS", "QH"], [], []], park=10)
    targets = [m for m in game.legal_moves() if m.startswith("t1-t")]
    # Once for each empty column t2-t9, and onto the king of hearts parked on t10.
    assert targets == [f"t1-t{n}" for n in range(2, 11)]


def test_it_starts_a_foundation_only_with_an_ace(layout) -> None:
    game = layout([["2S"], ["AS"]], park=3)
    reason = refusal(game, "t1-f5")
    assert reason == "foundation f5 starts with an ace, and column 1 shows the 2 of spades"
    game.play("t2-f5")
    game.play("t1-f5")
    assert game.view()["foundations"][4] == {"suit": "S", "count": 2, "top": "2S"}


def test_its_foundations_have_fixed_suits_spades_hearts_diamonds_clubs(layout) -> None:
    game = layout([["AH"]], park=2)
    assert (
        refusal(game, "t1-f1")
        == "foundation f1 builds spades only, and column 1 shows the ace of hearts"
    )
    assert [m for m in game.legal_moves() if m.startswith("t1-f")] == ["t1-f6"]


def test_it_lists_both_foundations_of_a_suit_when_both_accept_an_ace(layout) -> None:
    game = layout([["AS"], ["AS"]], park=3)
    assert {"t1-f1", "t1-f5", "t2-f1", "t2-f5"} <= set(game.legal_moves())


def test_it_builds_each_foundation_up_by_one(layout) -> None:
    game = layout([["QS", "KS"]], park=2)
    assert refusal(game, "t1-f1") == "foundation f1 is complete, from ace to king"
    assert "f5 takes the queen of spades next" in refusal(game, "t1-f5")


def test_cards_on_foundations_stay_there_in_the_classic_game(layout) -> None:
    game = layout([[], ["KS"]])
    assert refusal(game, "f1-t1") == "cards on a foundation stay there in Forty Thieves"
    assert not any(m.startswith("f") for m in game.legal_moves())


def test_it_refuses_a_move_from_one_foundation_to_another(layout) -> None:
    game = layout([["KS"]], variant="forty-thieves+takeback")
    assert refusal(game, "f1-f5") == "a card taken back from a foundation may only go to a column"


def test_it_refuses_a_card_onto_its_own_column(layout) -> None:
    game = layout([["KS", "QH"]], park=2)
    assert refusal(game, "t1-t1") == "a card cannot move onto its own column"


def test_it_refuses_moves_from_an_empty_pile(layout) -> None:
    game = layout([[], ["KS"]], park=3)
    assert refusal(game, "w-t2") == "the waste is empty"
    assert refusal(game, "t1-f1") == "column 1 is empty"


def test_it_refuses_piles_the_layout_does_not_have() -> None:
    game = GameState.from_seed(1)
    with pytest.raises(InvalidMove, match="columns are t1 to t10, foundations f1 to f8"):
        game.play("t11-f1")
    with pytest.raises(InvalidMove, match="names a pile this layout lacks"):
        game.play("t1-f9")


def test_it_refuses_text_that_is_not_a_move() -> None:
    game = GameState.from_seed(1)
    for text in ("", "x", "t1", "t1-w", "w-w", "t1-t2x", "t01-t2", "s s", 7):
        with pytest.raises(InvalidMove, match="is not a move|not int"):
            game.play(text)  # type: ignore[arg-type]
    assert game.moves == 0


def test_it_is_won_when_every_card_is_home(layout) -> None:
    game = layout([["KS"]])
    assert not game.is_won()
    game.play("t1-f5")
    assert game.is_won() and not game.is_stuck()
    assert game.legal_moves() == []


def test_it_is_stuck_when_the_stock_is_empty_and_no_card_can_move() -> None:
    # Each foundation pile's cards stacked ace to king: kings on top fit
    # nowhere, and the two fives moved to t9 and t10 have no home yet.
    piles = [[f"{r}{s}" for r in "A23456789TJQK"] for s in "SHDCSHDC"]
    piles[0].remove("5S")
    piles[1].remove("5H")
    piles[3].remove("9C")
    game = GameState.from_layout([*piles, ["5S"], ["5H"]], ["9C"])
    assert not game.is_stuck() and game.legal_moves() == ["s"]
    game.play("s")
    assert game.legal_moves() == [] and game.is_stuck() and not game.is_won()


def test_it_is_not_stuck_while_a_card_can_move_even_with_the_stock_empty(layout) -> None:
    game = layout([["KS"], ["QS"]], park=3)
    assert game.stock_count == 0 and not game.is_stuck()


def test_undo_takes_back_the_last_action_and_counts_as_one(layout) -> None:
    game = layout([["KH"], []], waste=["QH"], park=10)
    game.play("w-t1")
    assert game.score == 5 and game.moves == 1
    game.undo()
    assert game.score == 0 and game.moves == 2
    assert game.view()["waste"] == ["QH"] and game.column(1) == ["KH"]


def test_undo_goes_back_at_most_a_hundred_actions() -> None:
    game = GameState.from_seed(4)
    for _ in range(64):
        game.play("s")
    game = GameState.from_seed(4, undo_limit=100)
    moves = [m for m in ["s"] * 64]
    game.replay(moves)
    for _ in range(64):
        game.undo()
    assert game.stock_count == 64
    game = GameState.from_seed(4, undo_limit=10)
    game.replay(["s"] * 30)
    for _ in range(10):
        game.undo()
    with pytest.raises(IllegalMove, match="there is nothing to undo"):
        game.undo()
    assert game.stock_count == 44 and game.moves == 40


def test_a_game_without_undo_refuses_it() -> None:
    game = GameState.from_seed(4, undo_limit=0)
    game.play("s")
    with pytest.raises(IllegalMove, match="this game has no undo"):
        game.undo()


def test_replay_names_the_refused_move_and_keeps_the_moves_before_it() -> None:
    game = GameState.from_code("FT1-N-0000007")
    with pytest.raises(IllegalMove) as caught:
        game.replay(["s", "t3-t4", "t1-f1", "s"])
    assert caught.value.index == 2  # type: ignore[attr-defined]
    assert game.moves == 2 and game.stock_count == 63


def test_replay_refuses_a_log_entry_that_is_not_text() -> None:
    game = GameState.from_seed(1)
    with pytest.raises(InvalidMove) as caught:
        game.replay(["s", ["t1"]])  # type: ignore[list-item]
    assert caught.value.index == 1  # type: ignore[attr-defined]


def test_replay_plays_undo_entries_where_the_game_allows_undo() -> None:
    game = GameState.from_seed(3)
    game.replay(["s", "undo", "s", "s"])
    assert game.stock_count == 62 and game.moves == 4
    ranked = GameState.from_seed(3, undo_limit=0)
    with pytest.raises(IllegalMove, match="this game has no undo") as caught:
        ranked.replay(["s", "undo"])
    assert caught.value.index == 1  # type: ignore[attr-defined]
