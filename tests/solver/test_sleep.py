"""The one-step sleep set of the exhaustive search (games/solver/sleep.py) against a plain
search.

Two moves whose piles are disjoint must commute (both orders legal, the same position);
and the prover that puts such moves to sleep must agree with the plain search
(tests/support/solver.py: engine moves, whole states, no pruning) on small late games of
the variants it applies to, leaving in its table of proved losses no position that has a
win, even when cut short. The positions are the crowded late games where moves between
columns interleave with draws, so many moves are put to sleep (counted, so the checks
cannot pass with the rule idle).
"""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from benchmarks.players import play_greedy
from games.engine import GameState
from games.engine import moves as engine_moves
from games.solver import _private_copy
from games.solver.key import make_table_key
from games.solver.prove import LostTable
from games.solver.search import Search
from games.solver.sleep import make_touches
from tests.support.solver import (
    VARIANTS,
    crowded_games,
    endgames,
    reachable_outcomes,
    state_of,
)

#: The variants the rule applies to (single cards move, no take-back).
SLEEPY = [v for v in VARIANTS if make_touches(GameState.from_seed(1, v)) is not None]
#: Kings-only spaces and building by suit keep a crowded late game blocked: small spaces,
#: mostly lost, where moves between columns still interleave (about a third of these put
#: moves to sleep in a space the plain search lists whole).
BLOCKED = crowded_games(["streets+kings"], loose=18, stock=4)


def sleeping_search(game: GameState, *, budget: int | None, table: LostTable) -> Search:
    return Search(_private_copy(game), deadline=1e18, max_nodes=budget, table=table, sleep=True)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crowded_games(SLEEPY, loose=18) | endgames(SLEEPY, lowest=8, stock=6))
def test_moves_on_disjoint_piles_commute(game: GameState) -> None:
    touches = make_touches(game)
    assert touches is not None
    legal = engine_moves.legal(game)
    for a in legal:
        for b in legal:
            if a == b or touches[a] & touches[b]:
                continue
            ends = []
            for first, second in ((a, b), (b, a)):
                copy = GameState.load(game.dump(history=False))
                engine_moves.apply(copy, first)
                assert second in engine_moves.legal(copy)
                engine_moves.apply(copy, second)
                ends.append(state_of(copy))
            assert ends[0] == ends[1]


ASLEEP: list[int] = []


# derandomized: the count of sleeping moves below reads these examples
@settings(
    max_examples=80, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(BLOCKED | BLOCKED | crowded_games(SLEEPY, loose=18), st.integers(1, 300))
def test_the_prover_with_sleeping_moves_agrees_with_the_plain_search(
    game: GameState, budget: int
) -> None:
    """Checked where the plain search lists the whole space (the others rejected): 80 of
    233 examples (34 %), most of them blocked kings-only games."""
    outcomes = reachable_outcomes(game, make_table_key(game), limit=5000)
    assume(outcomes)
    winnable = outcomes[state_of(game)][0]
    lost = {k for won, k in outcomes.values() if not won}
    table = LostTable()
    cut = sleeping_search(game, budget=budget, table=table)  # cut short: its proofs hold
    cut.run()
    assert table.keys <= lost, game.dump()
    table = LostTable()
    whole = sleeping_search(game, budget=None, table=table)
    verdict, _ = whole.run()
    assert verdict == ("win" if winnable else "lost"), game.dump()
    assert table.keys <= lost, game.dump()
    ASLEEP.append(whole.asleep)


def test_the_checks_above_put_many_moves_to_sleep() -> None:
    if not ASLEEP:  # run alone: the property test first
        test_the_prover_with_sleeping_moves_agrees_with_the_plain_search()
    assert sum(1 for n in ASLEEP if n) >= 8 and sum(ASLEEP) >= 200


def test_a_real_late_position_is_proved_lost_with_fewer_moves_tried() -> None:
    # late positions of the greedy player's lost game of deal 5: the same verdict,
    # fewer moves tried
    for seed, at in ((5, 46), (5, 64), (5, 82)):
        game = GameState.from_seed(seed)
        moves = [m for m in play_greedy(seed, "forty-thieves").moves if m != "resign"]
        game.replay(moves[:at])
        plain = Search(_private_copy(game), deadline=1e18, max_nodes=300_000)
        asleep = sleeping_search(game, budget=300_000, table=LostTable())
        assert plain.run()[0] == asleep.run()[0] == "lost"
        assert asleep.nodes < plain.nodes and asleep.asleep > 0


def test_the_variants_with_runs_or_take_back_put_nothing_to_sleep() -> None:
    for spec in ("josephine", "forty-thieves+takeback"):
        assert make_touches(GameState.from_seed(1, spec)) is None
