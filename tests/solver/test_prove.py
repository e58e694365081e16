"""Proofs of loss: the exhaustive search agrees with a plain one, and every position its
table holds is lost.

The plain search (tests/support/solver.py) lists every legal move with the engine and
remembers whole states, with no pruning, no symmetry and no hashing; on end games of
every kind of variant (runs, kings only, redeals with draws of three, foundation
take-back) it decides the position, and the prover must agree. Where it lists every
position reachable (crowded late games of kings-only variants, with many lost positions,
and end games of every kind with three cards out), no position in the prover's table of
proved losses may have a win, even when its search was cut short by a node budget.

Each property test checks only examples the plain search decides: the others are
rejected (``assume``), never passed unchecked. The share of generated examples that were
checked (``--hypothesis-show-statistics``: passing / (passing + invalid)) is in each
test's docstring.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from benchmarks.players import play_greedy
from games.engine import GameState
from games.solver import _private_copy, solve
from games.solver.key import make_table_key
from games.solver.prove import PROVE, SOLVE, LostTable, Prover, decide, prove
from games.solver.search import Search
from tests.support.solver import (
    UNTIMED,
    VARIANTS,
    endgames,
    naive_winnable,
    reachable_outcomes,
    small_spaces,
    state_of,
)

#: The searches' budget: nodes, not seconds (a proof cut by the clock fails on a loaded
#: machine: deal 5's 42,600-node proof below took 23 s at a load of 24), far more than
#: any of these proofs takes.
PROOF_NODES = 1_000_000
#: Positions whose whole space the plain search lists (5,000 positions) in about four cases
#: in five: crowded kings-only games (about half listed, many lost positions among them)
#: and end games of every kind with three cards out (all listed, no lost position).
LISTED = small_spaces() | endgames(VARIANTS, lowest=8, stock=6, cards=3)


def replays_to_win(game: GameState, line: list[str]) -> bool:
    copy = game.copy()
    copy.replay(line)
    return copy.is_won()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(endgames(VARIANTS, lowest=8, stock=6))
def test_its_verdict_is_the_plain_searchs(game: GameState) -> None:
    """Checked where the plain search decides: 120 of 125 examples (96 %)."""
    truth = naive_winnable(game, limit=5000)
    assume(truth is not None)
    result = prove(game, max_seconds=UNTIMED, max_nodes=PROOF_NODES)
    assert result.verdict == ("win" if truth else "lost"), game.dump()
    if truth:
        assert replays_to_win(game, result.line)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LISTED, st.integers(1, 2000))
def test_every_position_its_table_holds_is_lost_even_when_cut_short(
    game: GameState, budget: int
) -> None:
    """Checked where the plain search lists the whole space: 80 of 121 examples (66 %)."""
    key = make_table_key(game)
    outcomes = reachable_outcomes(game, key, limit=5000)
    assume(outcomes)
    table = LostTable()
    prove(game, max_seconds=UNTIMED, max_nodes=budget, table=table)
    assert table.keys <= {k for won, k in outcomes.values() if not won}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LISTED, st.integers(1, 400), st.integers(0, 10**6))
def test_restarts_in_perturbed_orders_share_one_table_soundly(
    game: GameState, budget: int, seed: int
) -> None:
    """Checked where the plain search lists the whole space: 60 of 70 examples (86 %)."""
    key = make_table_key(game)
    outcomes = reachable_outcomes(game, key, limit=5000)
    assume(outcomes)
    table = LostTable()
    for run in range(5):  # as solve's restarts do: cut short, each in its own order
        noise = random.Random(seed + run) if run else None
        Search(_private_copy(game), deadline=1e18, max_nodes=budget, noise=noise, table=table).run()
    assert table.keys <= {k for won, k in outcomes.values() if not won}
    winnable = outcomes[state_of(game)][0]
    result = solve(game, max_seconds=UNTIMED, max_nodes=PROOF_NODES, table=table)
    assert result.verdict == ("win" if winnable else "lost"), game.dump()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(endgames(VARIANTS, lowest=8, stock=6))
def test_a_table_filled_from_a_later_position_gives_the_same_verdict(game: GameState) -> None:
    """Checked where the plain search decides: 40 of 43 examples (93 %)."""
    truth = naive_winnable(game, limit=5000)
    assume(truth is not None)
    table = LostTable()
    for later in _some_children(game):
        prove(later, max_seconds=UNTIMED, max_nodes=PROOF_NODES, table=table)
    result = prove(game, max_seconds=UNTIMED, max_nodes=PROOF_NODES, table=table)
    assert result.verdict == ("win" if truth else "lost"), game.dump()


def _some_children(game: GameState) -> list[GameState]:
    out = []
    for move in game.legal_moves()[:3]:
        child = game.copy()
        child.play(move)
        out.append(child)
    return out


def test_a_position_with_no_move_at_all_is_proved_lost_at_once() -> None:
    tops = ["9S", "JH", "JD", "9C", "JS", "JH", "JD", "JC"]
    columns = [[f"Q{s}", f"K{s}"] for s in "SHDC" for _ in range(2)]
    columns += [["TS", "JS"], ["TC", "JC"]]
    game = GameState.from_layout(columns, [], foundations=tops)
    assert game.legal_moves() == []
    result = prove(game)
    assert result.verdict == "lost" and result.nodes == 0


def greedy_positions(seed: int) -> list[GameState]:
    """The positions of the honest greedy player's (lost) game of a classic deal."""
    played = play_greedy(seed, "forty-thieves")
    assert not played.won
    game = GameState.from_seed(seed, undo_limit=0)
    positions = [game.copy()]
    for move in played.moves:
        if move != "resign":
            game.play(move)
            positions.append(game.copy())
    return positions


def test_proofs_from_later_positions_make_an_earlier_proof_cheaper() -> None:
    # Deal 5's greedy game: 43 moves in, 31 cards left in the stock, no win is left (deal
    # 1's positions there are now dead at once: tests/solver/test_deadlock.py).
    positions = greedy_positions(5)
    late, early = positions[47], positions[43]
    alone = prove(early, max_seconds=UNTIMED, max_nodes=PROOF_NODES)
    assert alone.verdict == "lost"
    table = LostTable()
    assert prove(late, max_seconds=UNTIMED, max_nodes=PROOF_NODES, table=table).verdict == "lost"
    held = len(table)
    helped = prove(early, max_seconds=UNTIMED, max_nodes=PROOF_NODES, table=table)
    assert helped.verdict == "lost" and helped.nodes < alone.nodes / 2
    assert len(table) > held
    again = prove(early, max_seconds=UNTIMED, max_nodes=PROOF_NODES, table=table)
    assert again.nodes == 0  # now known at once


def test_the_table_refuses_positions_of_another_game() -> None:
    table = LostTable()
    prove(GameState.from_seed(1), max_nodes=10, table=table)
    with pytest.raises(ValueError, match="another game"):
        prove(GameState.from_seed(2), max_nodes=10, table=table)
    with pytest.raises(ValueError, match="another game"):
        prove(GameState.from_seed(1, "streets"), max_nodes=10, table=table)
    later = GameState.from_seed(1)
    later.play("s")
    assert prove(later, max_nodes=10, table=table).verdict == "unknown"


def test_it_never_changes_the_callers_game() -> None:
    game = GameState.from_seed(3)
    before = game.dump()
    prove(game, max_nodes=3000)
    assert game.dump() == before


# The fast decider ----------------------------------------------------------------------


def test_the_decider_proves_a_loss_and_wins_where_a_win_is() -> None:
    tops = ["9S", "JH", "JD", "9C", "JS", "JH", "JD", "JC"]
    columns = [[f"Q{s}", f"K{s}"] for s in "SHDC" for _ in range(2)]
    columns += [["TS", "JS"], ["TC", "JC"]]
    stuck = GameState.from_layout(columns, [], foundations=tops)
    assert decide(stuck, max_seconds=5).verdict == "lost"
    tops = ["KS", "KH", "KD", "JC", "KS", "KH", "KD", "QC"]
    through_the_stock = GameState.from_layout([["KC"]] + [[]] * 9, ["QC", "KC"], foundations=tops)
    result = decide(through_the_stock, max_seconds=5)
    assert result.verdict == "win" and replays_to_win(through_the_stock, result.line)


def test_the_decider_in_solver_mode_shares_the_table() -> None:
    tops = ["9S", "JH", "JD", "9C", "JS", "JH", "JD", "JC"]
    columns = [[f"Q{s}", f"K{s}"] for s in "SHDC" for _ in range(2)]
    columns += [["TS", "JS"], ["TC", "JC"]]
    stuck = GameState.from_layout(columns, [], foundations=tops)
    table = LostTable()
    assert decide(stuck, max_seconds=5, table=table, mode=SOLVE).verdict == "lost"
    assert make_table_key(stuck)(stuck) in table.keys
    # and it reads it: the proof stands, no position is searched again
    assert decide(stuck, max_seconds=5, table=table, mode=SOLVE).nodes == 0


def test_the_decider_in_turns_leaves_its_proofs_in_the_table() -> None:
    tops = ["9S", "JH", "JD", "9C", "JS", "JH", "JD", "JC"]
    columns = [[f"Q{s}", f"K{s}"] for s in "SHDC" for _ in range(2)]
    columns += [["TS", "JS"], ["TC", "JC"]]
    stuck = GameState.from_layout(columns, [], foundations=tops)
    table = LostTable()
    assert decide(stuck, max_seconds=5, table=table).verdict == "lost"
    assert make_table_key(stuck)(stuck) in table.keys
    assert decide(stuck, max_seconds=5, table=table, mode=PROVE).nodes == 0


# Searches in turns -----------------------------------------------------------------------


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(endgames(VARIANTS, lowest=8, stock=6), st.lists(st.integers(1, 60), min_size=1))
def test_a_search_in_turns_is_the_search_in_one_piece(game: GameState, turns: list[int]) -> None:
    # Cut into turns of a few nodes each, the exhaustive search visits exactly what the
    # search in one piece visits (no move skipped or tried twice where a turn ended),
    # gives its verdict, and the caller's game is never changed. Checked where the search
    # in one piece decides within its 20,000 nodes: 80 of 96 examples (83 %).
    whole = prove(game, max_seconds=UNTIMED, max_nodes=20_000)
    assume(whole.verdict != "unknown")
    before = game.dump()
    prover = Prover(game)
    result, nodes, at = None, 0, 0
    while result is None or result.verdict == "unknown":
        result = prover.run(max_seconds=UNTIMED, max_nodes=turns[at % len(turns)])
        nodes, at = nodes + result.nodes, at + 1
    assert (result.verdict, nodes) == (whole.verdict, whole.nodes), game.dump()
    if result.verdict == "win":
        assert result.line == whole.line and replays_to_win(game, result.line)
    assert game.dump() == before


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    LISTED,
    st.lists(st.integers(1, 80), min_size=1, max_size=12),
    st.integers(0, 10**6),
)
def test_turns_interleaved_with_other_searches_of_the_game_stay_sound(
    game: GameState, turns: list[int], seed: int
) -> None:
    """Checked where the plain search lists the whole space: 60 of 122 examples (49 %)."""
    # Between two turns of one prover, other searches (provers of later positions,
    # perturbed restarts) fill the shared table: the table holds only lost positions,
    # and the prover, run to the end, gives the plain search's verdict.
    key = make_table_key(game)
    outcomes = reachable_outcomes(game, key, limit=5000)
    assume(outcomes)
    table = LostTable()
    prover = Prover(game, table=table)
    later = [Prover(child, table=table) for child in _some_children(game)]
    rng = random.Random(seed)
    for n, turn in enumerate(turns):
        prover.run(max_seconds=UNTIMED, max_nodes=turn)
        if later and n % 2:
            rng.choice(later).run(max_seconds=UNTIMED, max_nodes=turn)
        else:
            work, noise = _private_copy(game), random.Random(seed + n)
            Search(work, deadline=1e18, max_nodes=turn, noise=noise, table=table).run()
        assert table.keys <= {k for won, k in outcomes.values() if not won}
    result = prover.run(max_seconds=UNTIMED, max_nodes=PROOF_NODES)
    winnable = outcomes[state_of(game)][0]
    assert result.verdict == ("win" if winnable else "lost"), game.dump()
    assert table.keys <= {k for won, k in outcomes.values() if not won}


def test_a_real_proof_in_turns_costs_what_it_costs_in_one_piece() -> None:
    # Deal 5's greedy game at move 43 (31 cards in the stock): proved lost in one search;
    # in turns of 5,000 nodes of one kept prover the turns add up to that search (none
    # starts again from the root), and the decider goes on with a prover it is given.
    early = greedy_positions(5)[43]
    alone = prove(early, max_seconds=UNTIMED, max_nodes=PROOF_NODES)
    assert alone.verdict == "lost" and alone.nodes > 20_000
    prover = Prover(early)
    spent, result = 0, prover.run(max_seconds=UNTIMED, max_nodes=5000)
    while result.verdict == "unknown":
        spent += result.nodes
        result = prover.run(max_seconds=UNTIMED, max_nodes=5000)
    assert result.verdict == "lost" and spent + result.nodes == alone.nodes
    kept = Prover(early)
    assert kept.run(max_seconds=UNTIMED, max_nodes=5000).verdict == "unknown"
    result = decide(early, max_seconds=UNTIMED, mode=PROVE, prover=kept)
    assert result.verdict == "lost" and result.nodes == alone.nodes - 5000
