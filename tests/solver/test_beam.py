"""The solver's beam phase: capped layers, its score, the portfolio of beams.

Split from test_solver.py; every line a beam returns is still judged by the engine.
"""

from __future__ import annotations

import gc
import random
import threading
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import GameState
from games.engine import moves as engine_moves
from games.solver import BEAM_PORTFOLIO, _beams, solve
from games.solver.beam import Beam, _keep, score
from games.solver.heuristics import Knowledge
from games.solver.movegen import make_generator
from tests.support.solver import layout

# The beam phase ------------------------------------------------------------------


def test_the_beam_finds_a_win_the_restarts_miss_and_it_replays() -> None:
    # Seed 7 is won by the beam (about 2 s), not by a few seconds of restarts.
    game = GameState.from_seed(7, undo_limit=0)
    beam = Beam(
        game,
        know=Knowledge(game),
        legal=make_generator(game),
        deadline=float("inf"),
        width=200,
        closure=60,
    )
    line = beam.run()
    assert line is not None
    fresh = GameState.from_seed(7)
    for move in line:
        engine_moves.apply(fresh, move)
    assert fresh.is_won()


def collector_spy(seen: set[bool]) -> Beam:
    """A small beam that adds to ``seen`` whether the collector was on at each position."""
    game = GameState.from_seed(3, undo_limit=0)
    legal = make_generator(game)

    def spying_legal(g: GameState) -> list:
        seen.add(gc.isenabled())
        return legal(g)

    return Beam(
        game,
        know=Knowledge(game),
        legal=spying_legal,
        deadline=float("inf"),
        width=5,
        closure=10,
    )


@pytest.mark.parametrize("was_on", [True, False])
def test_the_beam_runs_without_the_cycle_collector_and_restores_it(was_on: bool) -> None:
    seen: set[bool] = set()
    beam = collector_spy(seen)
    (gc.enable if was_on else gc.disable)()
    try:
        beam.run()
        assert gc.isenabled() is was_on
    finally:
        gc.enable()
    assert seen == {False}


def test_a_beam_on_another_thread_leaves_the_collector_alone() -> None:
    # A server's thread pool may run a beam (FT_SOLVER_PROCESSES=0): the process's
    # collector must stay on for the server's own threads while it runs.
    seen: set[bool] = set()
    beam = collector_spy(seen)
    assert gc.isenabled()
    worker = threading.Thread(target=beam.run)
    worker.start()
    worker.join()
    assert seen == {True} and gc.isenabled()


@given(
    st.lists(st.tuples(st.integers(0, 40), st.integers(0, 3)), min_size=1, max_size=60),
    st.integers(1, 30),
    st.integers(0, 8),
)
def test_a_capped_layer_keeps_the_best_of_each_foundation_state_first(
    items: list[tuple[int, int]], width: int, spread: int
) -> None:
    # pool entries as the beam makes them: (score, key, snapshot, line); the snapshot's
    # second field is the foundations
    pool = {k: (float(v), k, ((), (f,), (), 1, 0, 0), None) for k, (v, f) in enumerate(items)}
    kept = _keep(pool, width, spread)
    assert len(kept) == min(width, len(pool))
    assert len({item[1] for item in kept}) == len(kept)
    if not spread or len(pool) <= width:
        assert sorted(kept, reverse=True) == sorted(pool.values(), reverse=True)[: len(kept)]
        return
    ranked = sorted(pool.values(), reverse=True)
    # the positions within the cap: each foundation state's ``spread`` best
    seen: dict[tuple[int, ...], int] = {}
    capped = []
    for item in ranked:
        seen[item[2][1]] = seen.get(item[2][1], 0) + 1
        if seen[item[2][1]] <= spread:
            capped.append(item)
    if len(capped) >= width:
        assert kept == capped[:width]  # the best of them, and nothing over the cap
    else:  # all of them, then the best of the others
        assert kept[: len(capped)] == capped
        assert kept[len(capped) :] == [x for x in ranked if x not in capped][: width - len(capped)]


def test_the_beam_phase_stops_when_a_wider_beam_would_change_nothing(monkeypatch) -> None:
    # The blocked position of the tests above with its jack in the stock: tiny
    # layers, so no beam drops a position and no wider one is tried.
    import games.solver as solver

    tops = ["9S", "TH", "JD", "9C", "JS", "JH", "JD", "JC"]
    columns = [[f"Q{s}", f"K{s}"] for s in "SHDC" for _ in range(2)]
    columns += [["TS", "JS"], ["TC", "JC"]]
    game = layout(columns, stock=["JH"], foundations=tops)
    beams: list[int] = []
    made = solver.beam_over

    def counted(work: GameState, **options: Any) -> Beam:
        beams.append(options["width"])
        return made(work, **options)

    monkeypatch.setattr(solver, "beam_over", counted)
    # one beam, not beams until the deadline: 5 s would fit many
    assert _beams(game, time.perf_counter() + 5.0, 4) == (None, 2) and beams == [4]
    assert solve(game, max_seconds=60, max_nodes=10_000).verdict == "lost"


def test_every_beam_of_the_phase_starts_from_the_position_given_with_its_weights(
    monkeypatch,
) -> None:
    # A beam and its end-game searches leave their copy of the game anywhere; a wider
    # beam started from there (the last end game, stock empty) searched nothing.
    import games.solver as solver

    game = GameState.from_seed(3, undo_limit=0)

    def position(g: GameState) -> tuple:
        return repr((g.piles, g.stock, g.found, g.down, g.score))

    root = position(game)
    starts: list[str] = []
    made = solver.beam_over

    class Enough(Exception):
        pass

    weights: list[tuple[tuple[float, ...], float]] = []

    def recording(work: GameState, **options: Any) -> Beam:
        starts.append(position(work))
        weights.append((options["weights"], options["spread"]))
        if len(starts) == 3:
            raise Enough
        return made(work, **options)

    monkeypatch.setattr(solver, "beam_over", recording)
    with pytest.raises(Enough):
        _beams(game, time.perf_counter() + 60.0, 8)
    assert starts == [root] * 3
    # the score weights of the portfolio in turn
    assert weights == [BEAM_PORTFOLIO[i % len(BEAM_PORTFOLIO)] for i in range(3)]
    assert len(set(BEAM_PORTFOLIO)) == len(BEAM_PORTFOLIO) > 1


def test_the_portfolio_runs_every_entry_once_as_wide_as_fits_when_time_is_short(
    monkeypatch,
) -> None:
    # Each entry of the portfolio wins deals the others leave; a wider beam under the
    # first seldom does. So every entry gets its beam before any wider one, each as wide
    # as the first when the time allows and as wide as fits when not (the earlier ones,
    # which win more, are not narrowed for the later ones).
    import games.solver as solver

    clock = [0.0]
    runs: list[tuple[int, tuple[tuple[float, ...], float]]] = []

    class TimedBeam:  # a beam whose time is 0.01 s a unit of width, finding nothing
        dropped = True

        def __init__(self, work: GameState, **options: Any) -> None:
            self.width, self.nodes = options["width"], 0
            runs.append((options["width"], (options["weights"], options["spread"])))

        def run(self) -> None:
            clock[0] += 0.01 * self.width

        def endgames(self) -> list:
            return []

    monkeypatch.setattr(solver, "beam_over", TimedBeam)
    monkeypatch.setattr(solver.time, "perf_counter", lambda: clock[0])
    assert _beams(GameState.from_seed(3), 10.0, 400) == (None, 0)
    # 4 s for the first; then 0.75 of the 6 s left fits 450 units: the second as wide
    # as the first (4 s); then 0.75 of 2 s fits 150 (over a quarter of 400); then 0.5 s
    # is left: nothing wider
    assert [w for w, _ in runs] == [400, 400, 150]
    assert [ws for _, ws in runs] == list(solver.BEAM_PORTFOLIO)
    # with time enough, each as wide as the first, then wider beams from the first score
    runs.clear()
    clock[0] = 0.0
    _beams(GameState.from_seed(3), 30.0, 400)
    widths = [w for w, _ in runs]
    assert widths[:3] == [400, 400, 400] and widths[3] > 400
    assert runs[3][1] == solver.BEAM_PORTFOLIO[0]


def test_solve_refuses_to_return_a_line_the_engine_does_not_win(monkeypatch) -> None:
    # The engine is the judge of every line: a search that returned a wrong one (here a
    # beam "win" that stops short) must never reach the caller as a win.
    import games.solver as solver

    game = GameState.from_seed(7)

    def short_line(self: Beam) -> list:
        return [engine_moves.legal(self.game)[0]]

    monkeypatch.setattr(solver.Beam, "run", short_line)
    with pytest.raises(AssertionError, match="does not replay"):
        solve(game, max_seconds=2.0)


def test_the_beam_score_prefers_cards_home_and_a_short_waste() -> None:
    game = GameState.from_seed(3, undo_limit=0)
    before = score(game)
    engine_moves.apply(game, engine_moves.legal(game)[0])  # the draw
    assert engine_moves.legal(game) and score(game) < before


def documented_score(game: GameState, weights: tuple[float, ...] | None = None) -> float:
    """The beam score as docs/benchmarks.md states it, written plainly."""
    from games.solver.beam import WEIGHTS

    W_HOME, W_EMPTY, W_BURY, W_NEXT, W_WASTE = weights or WEIGHTS  # noqa: N806

    total = W_HOME * game.home - W_WASTE * len(game.piles[0])
    total += W_EMPTY * sum(1 for pile in game.piles[1:] if not pile)
    depth: dict[int, int] = {}
    for pile in game.piles:
        lowest = 99
        for d, card in enumerate(reversed(pile)):
            depth[card] = min(depth.get(card, 99), d)
            if card >> 2 < lowest:
                lowest = card >> 2
                total -= W_BURY * d * (14 - lowest)
    for k, rank in enumerate(game.found):
        wanted = ((rank + 1) << 2) | game.fsuit[k]
        if rank < 13 and wanted in depth:
            total -= W_NEXT * depth[wanted]
    return total


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from(["forty-thieves", "streets", "sixty-thieves", "indian"]),
    st.integers(0, 120),
    st.integers(0, 1000),
)
def test_the_beam_score_is_the_documented_sum(seed, variant, steps, rng_seed) -> None:
    game = GameState.from_seed(seed, variant, undo_limit=0)
    rng = random.Random(rng_seed)
    for _ in range(steps):
        legal = engine_moves.legal(game)
        if not legal:
            break
        engine_moves.apply(game, rng.choice(legal))
    assert score(game) == pytest.approx(documented_score(game))
    for weights, _ in BEAM_PORTFOLIO:
        assert score(game, weights) == pytest.approx(documented_score(game, weights))
