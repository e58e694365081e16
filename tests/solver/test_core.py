"""The compiled core (games/solver/core.py) against the Python search it stands in for.

The core computes the move list of the single-card variants, the move order and the table
key's parts; the search is node for node the Python one only if each is exactly the Python
code's at every position. So: random games of all eleven variants (and the modifiers that
take other branches: kings-only spaces, redeals, take-back), at every position of a random
walk the same column hashes and whole keys (Python's own), the same moves in the same order
(and the engine's, for the list), the same order with the restarts' noise (and the same
random numbers drawn); then whole searches (the restarts, the exhaustive prover with its
sleep set, end games they decide) with the same verdict, line, node count and table of
proofs on both cores. A core broken on purpose (``set_fault``) must fail the same checks.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import GameState
from games.engine import moves as engine_moves
from games.engine.notation import DRAW
from games.engine.rules import VARIANTS
from games.solver import core
from games.solver.heuristics import Knowledge
from games.solver.key import make_table_key_parts
from games.solver.movegen import make_generator
from games.solver.prove import prove
from games.solver.search import Search
from tests.support.solver import endgames

#: All eleven variants, and the modifiers whose branches the plain ones do not take.
ALL = [*VARIANTS, "forty-thieves+kings", "indian+kings+redeal1", "streets+redeal2"]
ALL += ["forty-thieves+takeback", "maria+kings"]

needs_core = pytest.mark.skipif(core.MODULE is None, reason="the compiled core is not built")


def walk(game: GameState, rng: random.Random, steps: int):
    """The positions of a random game from ``game`` (card moves favoured, so columns
    empty and the waste's top changes), each yielded with the move that led to it."""
    last = None
    for _ in range(steps):
        yield last
        legal = engine_moves.legal(game)
        if not legal:
            return
        cards = [m for m in legal if m.kind != DRAW]
        last = rng.choice(cards if cards and rng.random() < 0.8 else legal)
        engine_moves.apply(game, last)


def differences(game: GameState, rng: random.Random, steps: int = 150) -> list[str]:
    """Where the compiled core and the Python code disagree along a random game from
    ``game`` (the table key's parts, move lists, orders, orders with noise): empty when
    they never do."""
    with core.using(core.PYTHON):
        py_legal = make_generator(game)
    with core.using(core.COMPILED):
        c_legal = make_generator(game)
    py_know = Knowledge(game.rules)
    c_know = Knowledge(game.rules, backend=core.COMPILED)
    with core.using(core.PYTHON):
        py_column, py_whole = make_table_key_parts(game)
    with core.using(core.COMPILED):
        c_column, c_whole = make_table_key_parts(game)
    found: list[str] = []
    for n, last in enumerate(walk(game, rng, steps)):
        hashes = [py_column(game, i) for i in range(1, len(game.piles))]
        if [c_column(game, i) for i in range(1, len(game.piles))] != hashes:
            found.append(f"step {n}: column hashes differ")
        for total in (sum(hashes), rng.randrange(-(2**70), 2**70)):
            if c_whole(game, total) != py_whole(game, total):
                found.append(f"step {n}: whole key of {total} differs")
        expected = engine_moves.legal(game)
        for name, moves in (("python", py_legal(game)), ("compiled", c_legal(game))):
            if moves != expected:
                found.append(f"step {n}: {name} legal {moves} != engine {expected}")
        for previous in (None, last):
            a = py_know.ordered(game, expected, previous)
            b = c_know.ordered(game, expected, previous)
            if a != b:
                found.append(f"step {n}: ordered after {previous}: {b} != {a}")
        seed = rng.randrange(10**9)
        one, two = random.Random(seed), random.Random(seed)
        a = py_know.ordered(game, expected, last, one)
        b = c_know.ordered(game, expected, last, two)
        if a != b or one.getstate() != two.getstate():
            found.append(f"step {n}: ordered with noise: {b} != {a}")
    return found


@needs_core
@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(ALL), seed=st.integers(1, 10**6), walk_seed=st.integers(0, 10**6))
def test_the_core_lists_and_orders_exactly_the_python_moves(variant, seed, walk_seed) -> None:
    game = GameState.from_seed(seed, variant, undo_limit=0)
    assert differences(game, random.Random(walk_seed)) == []


def search_on(backend: str, game: GameState, **options) -> tuple:
    """Everything a search leaves that says which positions it visited: verdict, line,
    nodes, the keys it proved lost, the moves put to sleep, the noise drawn."""
    noise = random.Random(options.pop("noise")) if "noise" in options else None
    with core.using(backend):
        search = Search(
            GameState.load(game.dump(history=False)),
            deadline=float("inf"),
            noise=noise,
            **options,
        )
        verdict, line = search.run()
    drawn = noise.getstate() if noise is not None else None
    return verdict, line, search.nodes, sorted(search.table.keys), search.asleep, drawn


def played(variant: str, seed: int, walk_seed: int, steps: int) -> GameState:
    game = GameState.from_seed(seed, variant, undo_limit=0)
    for _ in walk(game, random.Random(walk_seed), steps):
        pass
    return game


@needs_core
@settings(max_examples=25, deadline=None)
@given(
    variant=st.sampled_from(ALL),
    seed=st.integers(1, 10**6),
    walk_seed=st.integers(0, 10**6),
    steps=st.integers(0, 60),
    noise=st.integers(0, 10**6),
)
def test_a_search_visits_the_same_positions_on_both_cores(
    variant, seed, walk_seed, steps, noise
) -> None:
    game = played(variant, seed, walk_seed, steps)
    for options in (
        {"max_nodes": 1500, "lone_draws": False, "noise": noise},  # a restart of solve
        {"max_nodes": 1500, "sleep": True},  # the prover's search
    ):
        assert search_on(core.COMPILED, game, **options) == search_on(core.PYTHON, game, **options)


@needs_core
@settings(max_examples=25, deadline=None)
@given(game=endgames(lowest=9, stock=3))
def test_decided_end_games_get_the_same_verdict_line_and_nodes(game) -> None:
    a = search_on(core.COMPILED, game, max_nodes=20_000, sleep=True)
    assert a == search_on(core.PYTHON, game, max_nodes=20_000, sleep=True)


@needs_core
def test_the_prover_answers_the_same_on_both_cores() -> None:
    results = []
    for backend in (core.PYTHON, core.COMPILED):
        with core.using(backend):
            r = prove(GameState.from_seed(3), max_seconds=1e9, max_nodes=20_000)
        results.append((r.verdict, r.line, r.nodes))
    assert results[0] == results[1]


@needs_core
@pytest.mark.parametrize("fault", [1, 2, 3])
def test_a_broken_core_fails_the_equality_checks(fault) -> None:
    assert core.MODULE is not None
    core.MODULE.set_fault(fault)
    try:
        found = differences(GameState.from_seed(7, undo_limit=0), random.Random(7), steps=40)
        game = played("forty-thieves", 7, 7, 10)
        broken = search_on(core.COMPILED, game, max_nodes=800, sleep=True)
    finally:
        core.MODULE.set_fault(0)
    assert found
    assert broken != search_on(core.PYTHON, game, max_nodes=800, sleep=True)


def backend_in_a_fresh_process(**env: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", "from games.solver import core; print(core.BACKEND)"],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


def test_the_compiled_core_is_built_and_runs_by_default() -> None:
    # make venv builds it (setup.py); a machine without a compiler fails here, not silently
    assert core.MODULE is not None
    assert backend_in_a_fresh_process(FT_SOLVER_CORE="auto") == core.COMPILED


def test_the_environment_forces_the_python_core() -> None:
    assert backend_in_a_fresh_process(FT_SOLVER_CORE="python") == core.PYTHON


def test_it_refuses_a_core_that_does_not_exist() -> None:
    with pytest.raises(ValueError, match="no core"), core.using("rust"):
        pass
