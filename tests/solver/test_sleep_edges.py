"""The sleep set's virtual edges (games/solver/sleep.py) against the plain search.

A move asleep at ``P = G·c`` is one ``G`` tried before ``c``; ``P`` then depends on the
position ``G·m`` it led to, which is proved lost or still open in Tarjan's bookkeeping.
Only the second case (a *virtual edge* to an open position, counted by ``Search.waits``)
lets a wrong rule declare a component lost too soon, so these checks use the positions
where such edges are common: end games of kings-only spaces and building by suit with
four to eight ranks still to go home and a few stock cards, where column moves commute
with each other and with draws and reversible moves make cycles. Each is searched in
several move orders (the search's noise), cut short at random budgets and in turns
interleaved with a search of a later position on the same table, and every position the
sleeping search proves lost must be lost for the plain search of tests/support/solver.py
(engine moves, whole states, no pruning).

What these checks catch (session 12, checked by breaking the rule): sleeping the parent's
earlier moves that do not commute with the move made (the two winnable positions given as
examples are then called lost). What they do not catch: leaving the virtual edge out
(without it, 14 of 1,630 sampled searches closed a component sooner, and every position
so proved lost was lost for the plain solver: the edge is argued, not shown necessary),
or a commutation rule wrong for foundations (test_sleep.py's commute check catches it).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, example, given, settings, target
from hypothesis import strategies as st

from games.engine import GameState
from games.engine import moves as engine_moves
from games.solver import _private_copy
from games.solver.key import make_table_key
from games.solver.prove import LostTable
from games.solver.search import Search
from tests.support.solver import (
    crowded_game,
    crowded_games,
    endgames,
    reachable_outcomes,
    state_of,
)

#: Small spaces where virtual edges to open positions arise (most examples are over the
#: plain search's limit and skipped; one search in nine or so meets such an edge).
POSITIONS = crowded_games(["streets+kings"], loose=18, stock=4) | endgames(
    ["streets+kings"], lowest=5, stock=6
)
LIMIT = 4000
SLOW = [HealthCheck.too_slow]
#: Virtual edges to open positions met by the first check below, one entry a search.
WAITS: list[int] = []


def sleeping(game: GameState, table: LostTable, *, order: int, budget: int | None) -> Search:
    noise = random.Random(order) if order else None
    return Search(
        _private_copy(game),
        deadline=1e18,
        max_nodes=budget,
        table=table,
        sleep=True,
        noise=noise,
        resumable=True,
    )


def truth(game: GameState) -> tuple[bool, set[int]] | None:
    """Whether ``game`` has a win, and the keys of its reachable positions without one
    (``None`` past the plain search's limit)."""
    outcomes = reachable_outcomes(game, make_table_key(game), limit=LIMIT)
    if not outcomes:
        return None
    return outcomes[state_of(game)][0], {k for won, k in outcomes.values() if not won}


@settings(max_examples=100, derandomize=True, deadline=None, suppress_health_check=SLOW)
@given(POSITIONS, st.integers(1, 10**6), st.integers(1, 400))
# two winnable positions that a rule sleeping moves which do not commute calls lost
@example(crowded_game("streets+kings", 2, loose=18, stock=4), 1, 50)
@example(crowded_game("streets+kings", 6, loose=18, stock=4), 1, 300)
def test_sleeping_searches_in_any_order_prove_only_lost_positions(
    game: GameState, order: int, budget: int
) -> None:
    """Checked where the plain search lists the whole space (the others rejected): 100 of
    224 examples (45 %)."""
    known = truth(game)
    assume(known is not None)
    assert known is not None
    winnable, lost = known
    met = len(WAITS)
    for shift in range(4):  # four move orders of one position
        cut = LostTable()
        search = sleeping(game, cut, order=order + shift, budget=budget * (shift + 1))
        search.run()
        assert cut.keys <= lost, game.dump()
        WAITS.append(search.waits)
        whole = LostTable()
        search = sleeping(game, whole, order=order + shift, budget=None)
        verdict, _ = search.run()
        assert verdict == ("win" if winnable else "lost"), game.dump()
        assert whole.keys <= lost, game.dump()
        WAITS.append(search.waits)
    # Steer Hypothesis towards the positions this check exists for: with only the decided
    # examples kept (assume), it drifts to small spaces where no edge is virtual (session
    # 18: 8 of 816 searches met one), so it is told to seek the ones that meet most.
    target(float(sum(WAITS[met:])), label="virtual edges to open positions")


@settings(max_examples=25, derandomize=True, deadline=None, suppress_health_check=SLOW)
@given(POSITIONS, st.integers(1, 10**6), st.lists(st.integers(1, 60), min_size=4, max_size=12))
def test_turns_interleaved_with_a_later_positions_search_prove_only_lost_positions(
    game: GameState, order: int, turns: list[int]
) -> None:
    """Checked where the plain search lists the whole space: 25 of 67 examples (37 %)."""
    known = truth(game)
    assume(known is not None)
    assert known is not None
    winnable, lost = known
    table = LostTable()
    root = sleeping(game, table, order=order, budget=None)
    later = GameState.load(game.dump(history=False))
    legal = engine_moves.legal(later)
    if legal:
        engine_moves.apply(later, legal[order % len(legal)])
    other = sleeping(later, table, order=order + 1, budget=None)
    verdict = "unknown"
    for at, size in enumerate(turns * 50):
        search = root if at % 2 else other
        search.max_nodes = size
        found, _ = search.run()
        assert table.keys <= lost, game.dump()
        if search is root and found != "unknown":
            verdict = found
            break
    if verdict != "unknown":
        assert verdict == ("win" if winnable else "lost"), game.dump()


def test_the_checks_above_meet_virtual_edges_to_open_positions() -> None:
    if not WAITS:  # run alone: the property tests first
        test_sleeping_searches_in_any_order_prove_only_lost_positions()
    # Steered by target() above: 453 of 816 searches met 9,637 such edges (session 19);
    # without it 8 met 26.
    assert sum(1 for n in WAITS if n) >= 100 and sum(WAITS) >= 1000
