"""The beam computes what it did before round ten, only faster (docs/research/beam-speed.md).

The beam keeps each position's piles as tuples, its sorted column entries and per-pile
score infos, remade only for the piles a move touches; the plain loop it replaced
(``tests/support/beam_reference.py``) keyed, snapshotted and scored every position whole.
Both must keep the same positions, in the same order, in every layer, and win with the
same line.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.solver.beam as beam_module
from games.engine import GameState
from games.engine import moves as engine_moves
from games.engine.rules import VARIANTS
from games.solver import BEAM_CLOSURE, BEAM_PORTFOLIO, _private_copy, beam_over
from games.solver.beam import _snapshot, _unlink, score
from games.solver.beam_score import Needs, moved, pile_info, score_of
from games.solver.key import make_beam_key_parts, make_key_function
from tests.support.beam_reference import reference_layers


def beam_layers(
    game: GameState, width: int, entry: int, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[list[tuple[Any, ...]]], list[Any] | None]:
    """(the (score, key, snapshot, line) kept in each layer, the winning line or None)."""
    layers: list[list[tuple[Any, ...]]] = []
    keep = beam_module._keep

    def recording(pool: Any, w: int, spread: int) -> Any:
        kept = keep(pool, w, spread)
        layers.append([(s, k, snap, _unlink(line)) for s, k, snap, line, *_ in kept])
        return kept

    monkeypatch.setattr(beam_module, "_keep", recording)
    weights, spread = BEAM_PORTFOLIO[entry]
    beam = beam_over(game, deadline=float("inf"), width=width, weights=weights, spread=spread)
    return layers, beam.run()


@pytest.mark.parametrize(
    ("variant", "seed", "width", "entry"),
    [
        ("forty-thieves", 505, 30, 0),
        ("forty-thieves", 506, 20, 1),  # a spread cap
        ("forty-thieves", 7, 40, 2),  # won by the beam
        ("indian", 11, 20, 0),  # face-down cards
        ("josephine", 12, 20, 0),  # runs move as a unit
        ("little-forty", 13, 10, 1),  # draws of three and redeals
        ("rank-and-file", 14, 10, 0),
        ("forty-thieves+takeback", 15, 20, 0),
    ],
)
def test_the_beam_keeps_the_layers_and_finds_the_line_of_the_plain_loop(
    variant: str, seed: int, width: int, entry: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    weights, spread = BEAM_PORTFOLIO[entry]
    cap = max(1, int(spread * width)) if spread else 0
    game = GameState.from_seed(seed, variant, undo_limit=0)
    expected = reference_layers(_private_copy(game), width, BEAM_CLOSURE, weights, cap)
    assert beam_layers(_private_copy(game), width, entry, monkeypatch) == expected
    assert len(expected[0]) > 5  # the deal got past its first draws


def random_play(variant: str, seed: int, steps: int, rng_seed: int) -> list[GameState]:
    """The positions of a random game from a deal (a fresh copy of each)."""
    game = GameState.from_seed(seed, variant, undo_limit=0)
    rng = random.Random(rng_seed)
    seen = [_private_copy(game)]
    for _ in range(steps):
        legal = engine_moves.legal(game)
        if not legal:
            break
        engine_moves.apply(game, rng.choice(legal))
        seen.append(_private_copy(game))
    return seen


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from(sorted(VARIANTS)),
    st.integers(0, 150),
    st.integers(0, 1000),
)
def test_pile_infos_carried_move_by_move_score_each_position_as_score_does(
    seed: int, variant: str, steps: int, rng_seed: int
) -> None:
    positions = random_play(variant, seed, steps, rng_seed)
    needs = Needs(positions[0].fsuit)
    cols = [tuple(p) for p in positions[0].piles]
    infos = [pile_info(c) for c in cols]
    for game in positions:
        new = [tuple(p) for p in game.piles]
        infos = [moved(info, old, pile) for info, old, pile in zip(infos, cols, new, strict=True)]
        cols = new
        assert infos == [pile_info(c) for c in cols]
        for weights, _ in BEAM_PORTFOLIO:
            fast = score_of(cols, infos, game.home, needs[tuple(game.found)], weights)
            assert fast == score(game, weights)  # to the last bit: ties are broken by key
        assert list(_snapshot(game)[0]) == cols


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from(sorted(VARIANTS)),
    st.integers(0, 150),
    st.integers(0, 1000),
)
def test_the_beam_key_parts_make_the_position_key(
    seed: int, variant: str, steps: int, rng_seed: int
) -> None:
    positions = random_play(variant, seed, steps, rng_seed)
    stock, columns, recolumn = make_beam_key_parts(positions[0])
    old = [tuple(p) for p in positions[0].piles]
    entries = columns(positions[0], old)
    for game in positions:
        cols = [tuple(p) for p in game.piles]
        changed = tuple(i for i in range(len(cols)) if cols[i] != old[i])
        entries = recolumn(game, entries, old, cols, changed)
        assert entries == columns(game, cols)
        assert hash((stock(game), cols[0], *entries)) == make_key_function(game)(game)
        old = cols
