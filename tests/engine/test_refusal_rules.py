"""Each refusal names its rule and parameters (for pages that say it in the player's
language), and the finish: the foundation moves that win once nothing is left to decide."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from games.engine import GameState, IllegalMove

Layout = Callable[..., GameState]
WON_GAMES = Path(__file__).resolve().parents[1] / "data" / "won_games.json"


def refused(game: GameState, move: str) -> tuple[str | None, dict[str, Any]]:
    """The rule and params of a refused move (the game is left as it was)."""
    before = game.dump()
    with pytest.raises(IllegalMove) as caught:
        game.play(move) if move != "undo" else game.undo()
    assert game.dump() == before
    error = caught.value
    json.dumps(error.params)  # they cross the socket as they are
    return error.rule, error.params


def column(n: int) -> dict[str, Any]:
    return {"kind": "column", "n": n}


def foundation(n: int, suit: str) -> dict[str, Any]:
    return {"kind": "foundation", "n": n, "suit": suit}


def test_foundation_refusals_name_the_foundation_by_its_suit_and_the_card() -> None:
    game = GameState.from_seed(7)  # column 1 shows the king of clubs, column 3 the 5 of hearts
    assert refused(game, "t1-f1") == (
        "foundation_suit",
        {"foundation": foundation(1, "S"), "pile": column(1), "card": "KC"},
    )
    assert refused(game, "t3-f2") == (
        "foundation_ace",
        {"foundation": foundation(2, "H"), "pile": column(3), "card": "5H"},
    )
    game.play("t3-t4")  # the 5 of hearts onto the 6 of hearts: the ace of spades is on top
    game.play("t3-f1")
    game.play("t10-f1")  # the 2 of spades
    assert refused(game, "t4-f1")[1]["card"] == "5H"


def test_a_foundation_takes_the_next_card_and_ends_at_the_king() -> None:
    tops = ["KS", "KH", "KD", "JC", "KS", "KH", "KD", "KC"]
    game = GameState.from_layout([["KC"], ["QC"]] + [[]] * 8, [], foundations=tops)
    assert refused(game, "t1-f4") == (
        "foundation_next",
        {"foundation": foundation(4, "C"), "pile": column(1), "card": "KC", "want": "QC"},
    )
    assert refused(game, "t1-f8")[0] == "foundation_complete"
    game.play("t2-f4")
    assert refused(game, "t2-f4") == ("pile_empty", {"pile": column(2)})


def test_column_refusals_say_the_card_the_target_and_the_build_rule(layout: Layout) -> None:
    game = layout([["8S"], ["7H"], ["AS"], ["2S"]], park=1)
    assert refused(game, "t2-t1") == (
        "build",
        {"build": "same-suit", "card": "7H", "onto": "8S"},
    )
    assert refused(game, "t2-t3") == ("onto_ace", {"card": "7H", "onto": "AS"})
    assert refused(game, "t1-t1") == ("own_column", {"pile": column(1)})


def test_space_and_run_refusals(layout: Layout) -> None:
    kings = layout([["KS"], ["QS"]], variant="forty-thieves+kings")
    assert refused(kings, "t2-t3")[0] == "space_kings"
    game = layout([["KS"], ["QS"]])
    assert refused(game, "t2-t3") == ("space_whole_column", {"pile": column(2)})
    assert refused(game, "t1-t3x2") == ("no_runs", {"variant": "Forty Thieves"})
    josephine = layout([["KH", "QS", "JS"]], variant="josephine", park=2)
    assert refused(josephine, "t1-t2x3") == ("run_broken", {"card": "QS", "onto": "KH"})


def test_stock_redeal_and_undo_refusals(layout: Layout) -> None:
    game = layout([["KS"]], waste=["KH"])
    assert refused(game, "s") == ("stock_empty", {})
    assert refused(game, "r") == ("no_redeal", {"variant": "Forty Thieves"})
    assert refused(game, "undo") == ("nothing_to_undo", {})
    assert refused(GameState.from_seed(7, undo_limit=0), "undo") == ("no_undo", {})


def test_every_refusal_of_a_real_game_names_a_rule() -> None:
    """Every illegal move a player may try on a real deal, against every pile: each
    refusal names a rule (the page then never falls back to the English reason)."""
    game = GameState.from_seed(7)
    piles = ["w"] + [f"t{n}" for n in range(1, 11)]
    targets = [f"t{n}" for n in range(1, 11)] + [f"f{n}" for n in range(1, 9)]
    legal = set(game.legal_moves())
    rules = set()
    for src in piles:
        for dst in targets:
            move = f"{src}-{dst}"
            if move in legal or src == dst:
                continue
            rule, _ = refused(game, move)
            assert rule, move
            rules.add(rule)
    assert {"foundation_ace", "build", "pile_empty"} <= rules


def test_finishing_moves_win_from_where_nothing_is_left_to_decide() -> None:
    """On real wins: once the finish is offered, its moves win; it is offered no later
    than the last card sent home; and never while the stock holds cards."""
    games = json.loads(WON_GAMES.read_text())["games"]
    for record in games:
        game = GameState.from_code(record["code"])
        moves = record["moves"].split()
        offered = None
        for i, move in enumerate(moves):
            finish = game.finishing_moves()
            if finish:
                assert game.stock_count == 0 and game.face_down == 0
                if offered is None:
                    offered = i
                    ending = game.copy()
                    for step in finish:
                        assert step in ending.legal_moves()
                        ending.play(step)
                    assert ending.is_won()
            game.play(move)
        assert game.is_won() and game.finishing_moves() == []
        assert offered is not None and offered < len(moves)


def test_no_finish_while_a_card_is_buried_under_a_higher_one(layout: Layout) -> None:
    # park=2: the spades above the named ones wait on column 2, the 7 of spades on top.
    assert layout([["5S", "6S"]], park=2).finishing_moves() == []
    finish = layout([["6S", "5S"]], park=2).finishing_moves()
    assert finish[:2] == ["t1-f5", "t1-f5"] and set(finish[2:]) == {"t2-f5"}
    assert len(finish) == 2 + 7
    assert layout([["6S", "5S"]], stock=["7S"], park=2).finishing_moves() == []
