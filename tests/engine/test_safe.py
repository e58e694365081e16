"""Safe home moves (games.engine.safe): what "safe" means, that a safe move keeps every
move the cards that could build on it had, and that it never turns a won position lost."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.engine import GameState, IllegalMove, format_move
from games.engine import moves as engine_moves
from games.engine.notation import TO_COLUMN, TO_FOUNDATION, Move
from games.engine.safe import (
    automatic_on_top,
    is_safe_home,
    needed_home,
    next_safe_home,
    play_safe_home,
    undo_with_automatic,
)
from games.solver.heuristics import Knowledge
from tests.support.solver import VARIANTS, endgames, naive_winnable


def test_both_aces_of_a_deal_go_home_one_after_the_other() -> None:
    game = GameState.from_code("FT1-N-0000063")  # column 7: ..., AH, AH
    game.play("s")
    assert list(play_safe_home(game)) == ["t7-f2", "t7-f6"]
    assert next_safe_home(game) is None  # the 2 of clubs waits for the ace of clubs


def test_a_card_waits_while_another_copy_of_its_predecessor_is_out() -> None:
    tops = ["KS", "KH", "KD", "TC", "KS", "KH", "KD", "JC"]  # one jack of clubs still out
    layout = [["KC", "QC"], ["KC", "QC", "JC"]] + [[]] * 8
    game = GameState.from_layout(layout, [], foundations=tops)
    # The queen of clubs could go onto f8 now, but the other jack is out: not safe (it is
    # the jack's other foundation, f4, that would have to take both queens in turn).
    assert not is_safe_home(game, game.piles[1][-1], 1)
    assert next_safe_home(game) == Move(TO_FOUNDATION, 2, 3, 1)  # the jack: all tens home


def test_a_card_waits_while_a_card_that_could_build_on_it_is_out() -> None:
    # Streets (alternate colours): the 10 of hearts may go on the jack of spades.
    tops = ["TS", "9H", "KD", "KC", "TS", "KH", "KD", "KC"]
    layout = [["KS", "QS", "JS"], ["KS", "QS", "JS", "KH", "QH", "JH", "TH"]] + [[]] * 8
    game = GameState.from_layout(layout, [], "streets", foundations=tops)
    assert not is_safe_home(game, game.piles[1][-1], 1)
    assert format_move(next_safe_home(game)) == "t2-f2"  # the 10 of hearts: the nines home


def test_nothing_is_safe_with_foundation_takeback() -> None:
    game = GameState.from_code("FT1-NB-0000063")
    game.play("s")
    assert next_safe_home(game) is None


def test_a_waste_card_waits_while_a_redeal_would_regroup_a_draw_of_three() -> None:
    game = GameState.from_seed(5, "little-forty")
    ace = next(c for c in game.stock if c >> 2 == 1)
    assert not is_safe_home(game, ace, 0)
    spent = GameState.load({**game.dump(), "redeals_left": 0})
    assert is_safe_home(spent, ace, 0)


def test_the_solver_reads_the_engines_definition() -> None:
    rng = random.Random(4)
    for variant in ("forty-thieves", "streets", "indian", "josephine"):
        game = GameState.from_seed(rng.randrange(10**6), variant)
        knowledge = Knowledge(game)
        for _ in range(120):
            for src, pile in enumerate(game.piles):
                if pile:
                    assert knowledge.is_safe_home(game, pile[-1], src) == is_safe_home(
                        game, pile[-1], src
                    )
            legal = engine_moves.legal(game)
            if not legal:
                break
            game.play_move(rng.choice(legal))


def test_an_ace_needs_nothing_home() -> None:
    for build in ("same-suit", "other-suit", "alternate-colour"):
        assert all(needed_home(build)[(1 << 2) | s] == () for s in range(4))


# Properties -------------------------------------------------------------------------------


def _positions(seed: int, variant: str, steps: int) -> GameState:
    """A position part way through random play of a deal (home moves preferred, so that
    foundations fill and safe moves come up): after ``steps`` moves, the first with a safe
    home move to play (a walk that plays home moves as they come seldom stops at one:
    none of 50 did), within 300 more."""
    rng = random.Random(seed)
    game = GameState.from_seed(seed, variant)
    for done in range(steps + 300):
        if done >= steps and next_safe_home(game) is not None:
            break
        legal = engine_moves.legal(game)
        if not legal:
            break
        home = [m for m in legal if m.kind == TO_FOUNDATION]
        game.play_move(rng.choice(home) if home and rng.random() < 0.8 else rng.choice(legal))
    return game


def _still_legal(game: GameState, move: Move) -> bool:
    copy = GameState.load(game.dump(history=False))
    try:
        engine_moves.apply(copy, move)
    except (IllegalMove, IndexError):
        return False
    return True


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10**6),
    st.sampled_from(["forty-thieves", "streets", "indian", "josephine", "little-forty"]),
    st.integers(20, 300),
)
def test_a_safe_move_keeps_every_other_move_the_position_had(seed, variant, steps) -> None:
    """Every legal move before a safe home move is legal after it, except those of the card
    itself: a run that carried it on top moves one card shorter. So the cards that could
    build on it (all home) and every other card keep every continuation they had. Checked
    where the walk reaches a safe move (the others rejected): 150 of 219 examples (68 %)."""
    game = _positions(seed, variant, steps)
    safe = next_safe_home(game)
    assume(safe is not None)
    before = engine_moves.legal(game)
    after = GameState.load(game.dump(history=False))
    after.play_move(safe)
    for move in before:
        kind, src, dst, count = move
        if move == safe or (kind == TO_FOUNDATION and src == safe.src):
            continue  # the card itself (to either foundation of its suit)
        if kind == TO_COLUMN and src == safe.src:
            if count == 1:
                continue  # the card itself, to a column
            move = Move(kind, src, dst, count - 1)
        assert _still_legal(after, move), (format_move(safe), format_move(move), game.dump())


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(endgames(VARIANTS, lowest=8, stock=6))
def test_a_safe_move_never_turns_a_won_position_lost(game: GameState) -> None:
    """Checked where the end game has a safe move and the plain search finds its win
    (before and after the move): 100 of 141 examples (71 %); most of the others have no
    safe move."""
    safe = next_safe_home(game)
    assume(safe is not None)
    assume(naive_winnable(game, limit=5000))  # won, not lost already or undecided
    game.play_move(safe)
    after = naive_winnable(game, limit=20_000)
    assume(after is not None)  # a smaller space, but searched in another order
    assert after, format_move(safe)


# The undo of a move and the automatic moves it caused -------------------------------------


def test_the_automatic_moves_on_top_are_counted_back_to_the_players_move() -> None:
    log = [("s", False), ("t7-f2", True), ("t7-f6", True)]
    assert automatic_on_top(log, undo_limit=100) == 2
    assert automatic_on_top([*log, ("s", False)], undo_limit=100) == 0
    undone = [*log, ("undo", True), ("undo", True), ("undo", False)]
    assert automatic_on_top(undone, undo_limit=100) == 0
    assert automatic_on_top(log, undo_limit=0) == 0


def test_an_undo_takes_back_the_automatic_moves_and_the_players_move() -> None:
    game = GameState.from_code("FT1-N-0000063")
    start = game.view()
    game.play("s")
    automatic = list(play_safe_home(game))
    assert list(undo_with_automatic(game, len(automatic))) == [True, True, False]
    assert {k: v for k, v in game.view().items() if k != "moves"} == {
        k: v for k, v in start.items() if k not in ("moves",)
    } | {"can_undo": False}


def test_an_undo_that_cannot_reach_the_players_move_changes_nothing() -> None:
    game = GameState.from_code("FT1-N-0000063", undo_limit=2)
    game.play("s")
    list(play_safe_home(game))  # three records: the oldest dropped out of the history
    before = game.dump()
    with pytest.raises(IllegalMove):
        list(undo_with_automatic(game, 2))
    assert game.dump() == before


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.sampled_from(["forty-thieves", "streets", "indian"]))
def test_the_solver_finds_each_automatic_move_to_be_no_decision(seed: int, variant: str) -> None:
    """The analyses of a game (foresight, blind survival) ask the solver's ordering which
    moves were choices: every move the option plays must be the one it keeps alone."""
    rng = random.Random(seed)
    game = GameState.from_seed(seed, variant, undo_limit=0)
    knowledge = Knowledge(game)
    for _ in range(150):
        legal = engine_moves.legal(game)
        if not legal:
            break
        game.play_move(rng.choice(legal))
        safe = next_safe_home(game)
        while safe is not None:
            assert knowledge.ordered(game, engine_moves.legal(game), None) == [safe]
            game.play_move(safe)
            safe = next_safe_home(game)
