"""The compiled search loop (games/solver/csrc/search_*.c) against the engine and the Python loop.

The loop keeps its own state in C arrays and plays moves on it in place, so it is one
source of rules only if, at every position, its move list is the engine's, the position
after each move (and after taking it back) is the engine's, and its key, dead-position
probe and move order are the Python search's. Hypothesis walks random games of all eleven
variants (the loop serves those where single cards move; the others must fall back to the
Python loop) and checks each at every step. Whole searches then: the prover's turns, end
games proved lost (the node count of an exhaustive proof), wins the engine replays. A loop
broken on purpose (``set_fault``) must fail the same checks.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import GameState
from games.engine import moves as engine_moves
from games.engine.notation import DRAW, Move
from games.engine.rules import VARIANTS, parse_variant
from games.solver import core
from games.solver.deadlock import make_probe
from games.solver.heuristics import Knowledge
from games.solver.key import make_table_key
from games.solver.prove import Prover, prove
from games.solver.search import Search
from tests.solver.test_core import ALL, played, search_on
from tests.solver.test_prove import greedy_positions
from tests.support.solver import endgame, endgames

needs_core = pytest.mark.skipif(core.MODULE is None, reason="the compiled core is not built")


def served(variant: str) -> bool:
    rules = parse_variant(variant)
    return not rules.sequences and not rules.takeback


def loop_for(game: GameState, noise: random.Random | None = None):
    with core.using(core.COMPILED):
        return core.compiled_search(
            game, set(), noise=noise, cuts=True, lone_draws=True, sleep=True, resumable=False
        )


def state(game: GameState) -> tuple:
    return (game.piles, game.down, game.found, game.stock, game.redeals_left, game.home)


def differences(game: GameState, rng: random.Random, steps: int = 120) -> list[str]:
    """Where the compiled loop's state, moves, key, probe and order part from the engine's
    and the Python search's along a random game from ``game`` (each move played on both,
    and every legal move played and taken back on the loop): empty when they never do."""
    loop = loop_for(game)
    know, key, probe = Knowledge(game.rules), make_table_key(game), make_probe(game)
    found: list[str] = []
    last: Move | None = None
    for n in range(steps):
        expected = engine_moves.legal(game)
        if [Move(*m) for m in loop.legal()] != expected:
            found.append(f"step {n}: legal {loop.legal()} != engine {expected}")
        if loop.key() != key(game):
            found.append(f"step {n}: key differs")
        if probe is not None and loop.probe() != probe(game):
            found.append(f"step {n}: probe {loop.probe()} != {probe(game)}")
        if [Move(*m) for m in loop.ordered(last)] != know.ordered(game, expected, last):
            found.append(f"step {n}: order after {last} differs")
        seed = rng.randrange(10**9)
        one, two = random.Random(seed), random.Random(seed)
        noisy = loop_for(game, one).ordered(last)
        if [Move(*m) for m in noisy] != know.ordered(game, expected, last, two):
            found.append(f"step {n}: order with noise differs")
        if found:
            break
        for move in expected:  # each move played and taken back, as the search does
            record = engine_moves.apply(game, move)
            detail = loop.play(tuple(move))
            if loop.state() != state(game):
                found.append(f"step {n}: after {move} the state differs")
            engine_moves.revert(game, record)
            loop.unplay(tuple(move), detail)
            if loop.state() != state(game):
                found.append(f"step {n}: {move} taken back, the state differs")
        if not expected or found:
            break
        cards = [m for m in expected if m.kind != DRAW]
        last = rng.choice(cards if cards and rng.random() < 0.8 else expected)
        engine_moves.apply(game, last)
        loop.play(tuple(last))
    return found


@needs_core
@settings(max_examples=30, deadline=None)
@given(variant=st.sampled_from(ALL), seed=st.integers(1, 10**6), walk_seed=st.integers(0, 10**6))
def test_the_loop_plays_the_engines_moves_to_the_engines_positions(variant, seed, walk_seed):
    game = GameState.from_seed(seed, variant, undo_limit=0)
    if not served(variant):  # runs or take-back: the Python loop runs there
        assert loop_for(game) is None
        return
    assert differences(game, random.Random(walk_seed)) == []


@needs_core
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_each_variant_runs_the_loop_it_is_served_by(variant) -> None:
    game = GameState.from_seed(1, variant, undo_limit=0)
    with core.using(core.COMPILED):
        compiled = Search(game, deadline=float("inf"), max_nodes=10).compiled
    with core.using(core.PYTHON):
        python = Search(game, deadline=float("inf"), max_nodes=10).compiled
    assert (compiled is not None) == served(variant)
    assert python is None


def turns(backend: str, game: GameState, budgets: list[int]) -> list[Any]:
    """The prover's answers, turn by turn, and the proofs it leaves."""
    with core.using(backend):
        prover = Prover(game)
        answers = []
        for nodes in budgets:
            r = prover.run(max_seconds=1e9, max_nodes=nodes)
            answers.append((r.verdict, r.line, r.nodes, prover.search.paused))
            if r.verdict != "unknown":
                break
    return [answers, sorted(prover.table.keys), prover.search.asleep, prover.search.waits]


@needs_core
@settings(max_examples=10, deadline=None)
@given(
    variant=st.sampled_from([v for v in ALL if served(v)]),
    seed=st.integers(1, 10**6),
    steps=st.integers(0, 40),
)
def test_the_provers_turns_are_the_same_on_both_loops(variant, seed, steps) -> None:
    game = played(variant, seed, seed, steps)
    budgets = [700, 1, 2_300, 5_000]
    assert turns(core.COMPILED, game, budgets) == turns(core.PYTHON, game, budgets)


@needs_core
@settings(max_examples=20, deadline=None)
@given(game=endgames(lowest=8, stock=4, blocked=True))
def test_an_exhaustive_proof_of_loss_counts_the_same_positions(game) -> None:
    a = search_on(core.COMPILED, game, max_nodes=200_000, sleep=True)
    assert a == search_on(core.PYTHON, game, max_nodes=200_000, sleep=True)


@needs_core
def test_the_loop_wins_end_games_with_lines_the_engine_replays() -> None:
    for seed in range(20):
        game = endgame("forty-thieves", seed, lowest=9, stock=3, blocked=seed % 2 == 0)
        a = search_on(core.COMPILED, game, max_nodes=100_000, sleep=True)
        assert a == search_on(core.PYTHON, game, max_nodes=100_000, sleep=True)
        assert a[0] == "win"
        replay = GameState.load(game.dump(history=False))
        for move in a[1]:
            engine_moves.apply(replay, move)
        assert replay.is_won()


@needs_core
@pytest.mark.parametrize("at", [43, 47])
def test_a_proof_of_loss_of_a_lost_game_counts_the_same_positions(at) -> None:
    # deal 5's greedy game, lost 43 moves in (tests/solver/test_prove.py): the exhaustive
    # search visits every position it keeps, whatever the loop
    positions = greedy_positions(5)
    results = []
    for backend in (core.COMPILED, core.PYTHON):
        with core.using(backend):
            results.append(prove(positions[at], max_seconds=1e9, max_nodes=1_000_000))
    assert results[0].verdict == "lost"
    assert results[0].nodes == results[1].nodes > 1000


@needs_core
@pytest.mark.parametrize("fault", [1, 2, 3, 4, 5, 6])
def test_a_broken_loop_fails_the_equality_checks(fault) -> None:
    assert core.MODULE is not None
    game = played("forty-thieves", 7, 7, 10)
    core.MODULE.set_fault(fault)
    try:
        found = differences(GameState.from_seed(7, undo_limit=0), random.Random(7), steps=40)
        broken = [search_on(core.COMPILED, game, max_nodes=3_000, sleep=True)]
        broken += [
            search_on(
                core.COMPILED, endgame("forty-thieves", s, lowest=9), sleep=True, max_nodes=20_000
            )
            for s in range(6)
        ]
    finally:
        core.MODULE.set_fault(0)
    right = [search_on(core.PYTHON, game, max_nodes=3_000, sleep=True)]
    right += [
        search_on(core.PYTHON, endgame("forty-thieves", s, lowest=9), sleep=True, max_nodes=20_000)
        for s in range(6)
    ]
    if fault <= 4:  # the step checks see these; 5 and 6 change only what a search cuts
        assert found
    assert broken != right


@needs_core
def test_the_loop_reads_the_callers_clock(monkeypatch) -> None:
    # a benchmark counting CPU time replaces time.perf_counter: the loop must obey it, and
    # stop where the Python loop stops (the clock read every 128 nodes: 0, 1, ... 4 > 3)
    stopped = []
    for backend in (core.COMPILED, core.PYTHON):
        ticks = iter(range(10**9))
        monkeypatch.setattr("time.perf_counter", lambda ticks=ticks: float(next(ticks)))
        with core.using(backend):
            search = Search(GameState.from_seed(1, undo_limit=0), deadline=3.0, max_nodes=None)
            assert (search.compiled is not None) == (backend == core.COMPILED)
            assert search.run() == ("unknown", [])
        stopped.append(search.nodes)
    assert stopped == [128 * 5, 128 * 5]


@needs_core
def test_the_loop_lets_the_processes_other_threads_run() -> None:
    # one call searches for as long as its budget: it must hand the GIL over now and then
    # (a server's event loop, the solver pool's watcher), as the Python loop did. Releasing
    # it more often than the switch interval is not enough: each release wakes the waiting
    # thread before its wait times out, so it never asks for the lock and starves (3 ticks
    # in half a second at 5 ms, none at 20 ms, before the loop's hand-overs were timed).
    ticks: list[float] = []
    running = threading.Event()
    done = threading.Event()

    def tick() -> None:
        running.set()
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    thread = threading.Thread(target=tick)
    thread.start()
    running.wait()
    with core.using(core.COMPILED):
        began = time.perf_counter()
        state = GameState.from_seed(1, undo_limit=0)
        search = Search(state, deadline=began + 0.3, max_nodes=10**12)
        verdict, _ = search.run()
        ended = time.perf_counter()
    done.set()
    thread.join()
    assert verdict == "unknown"
    # a hand-over every two switch intervals (10 ms): about 30 in the search's 0.3 s
    assert sum(began < t < ended for t in ticks) >= 10
