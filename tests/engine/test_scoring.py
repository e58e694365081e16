"""Scoring: +10 to a foundation, +5 waste to column, -15 take-back, never below 0."""

from __future__ import annotations

from games.engine import GameState


def greedy_win(game: GameState) -> list[str]:
    """Play home when possible, else waste to a column, else draw."""
    played = []
    while not game.is_won():
        legal = game.legal_moves()
        move = (
            next((m for m in legal if "-f" in m), None)
            or next((m for m in legal if m.startswith("w-t")), None)
            or "s"
        )
        game.play(move)
        played.append(move)
    return played


def test_a_won_game_scores_1040_plus_five_per_waste_card_put_on_a_column() -> None:
    # Kings down to tens of each foundation pile head columns 1-8; the aces
    # wait in columns 9-10. The stock turns 29 cards that go onto the columns
    # (nines, eights, sevens, five sixes), then everything that goes home.
    piles = "SHDCSHDC"
    columns = [[f"{r}{s}" for r in "KQJT"] for s in piles] + [
        list("ASAHADAC"[i : i + 2] for i in range(0, 8, 2))
    ] * 2
    to_columns = [f"{r}{s}" for r in "987" for s in piles] + [f"6{s}" for s in "SHDCS"]
    to_home = [f"{r}{s}" for r in "2345" for s in piles] + ["6H", "6D", "6C"]
    game = GameState.from_layout(columns, to_columns + to_home)
    moves = greedy_win(game)
    assert sum(m.startswith("w-t") for m in moves) == 29
    assert game.score == 1185 == 1040 + 29 * 5


def test_it_scores_ten_for_every_card_sent_home_from_the_waste_or_a_column(layout) -> None:
    game = layout([["KS"]], waste=["KH"])
    game.play("w-f6")
    game.play("t1-f5")
    assert game.score == 20


def test_it_scores_nothing_for_moves_between_columns_or_draws(layout) -> None:
    game = layout([["KS"], ["QS"]], stock=["KH"], park=3)
    game.play("t2-t1")
    game.play("s")
    assert game.score == 0


def test_a_take_back_costs_fifteen_and_never_takes_the_score_below_zero(layout) -> None:
    game = layout([[], ["KS"]], waste=["KH"], variant="forty-thieves+takeback")
    game.play("w-f6")  # 10
    game.play("f6-t1")  # 10 - 15 -> 0, not -5
    assert game.score == 0
    game.play("t1-f6")
    game.play("t2-f5")
    assert game.score == 20
    game.play("f5-t1")
    assert game.score == 5
    game.undo()
    assert game.score == 20
