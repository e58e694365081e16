"""The candidate statistics of benchmarks/season_mixture.py are valid draw factors: averaged
over which of the five exchangeable positions is the truth, each has mean at most one (the
"+one" factor exactly one; the nodes' ranking keeps the verdict factor's mean)."""

from __future__ import annotations

import random
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import benchmarks.season_mixture


@pytest.fixture(scope="module")
def mixture() -> ModuleType:
    return benchmarks.season_mixture


POSITIONS = st.lists(
    st.tuples(st.sampled_from("wlu"), st.integers(min_value=0, max_value=5)), min_size=5, max_size=5
)


@settings(deadline=None, max_examples=200)
@given(POSITIONS)
def test_the_all_lost_draw_at_one_keeps_every_draw_at_mean_one(mixture, positions) -> None:
    verdicts = [v for v, _nodes in positions]
    means = []
    for one in (False, True):
        factors = []
        for i, truth in enumerate(verdicts):
            others = "".join(verdicts[:i] + verdicts[i + 1 :])
            factors.append(mixture.factor(truth, others, one=one, unknown=0.25))
        means.append(sum(factors) / len(factors))
    assert means[0] <= 1 + 1e-12 and abs(means[1] - 1) < 1e-12


@settings(deadline=None, max_examples=200)
@given(
    st.lists(st.sampled_from("wlu"), min_size=5, max_size=5),
    st.permutations(range(5)),
    st.sampled_from([0.5, 0.7]),
    st.booleans(),
)
def test_ranking_the_won_positions_by_nodes_keeps_the_factors_mean(
    mixture, verdicts, nodes, rho, reverse
) -> None:
    # Distinct node counts: each position in turn as the truth, the won ones' ranks are a
    # permutation, so the mean is exactly the verdict factor's (ties: the next test).
    positions = [[v, n] for v, n in zip(verdicts, nodes, strict=True)]
    refined, plain = [], []
    for i, truth in enumerate(positions):
        others = positions[:i] + positions[i + 1 :]
        row = {"day": "d", "kind": "k", "run": 0, "draws": [[48, others, {"8": truth}]]}
        refined += mixture.ranked(8, rho, reverse=reverse)(row)
        plain += mixture.ranked(8, 1.0)(row)
    assert sum(refined) / 5 == pytest.approx(sum(plain) / 5) and sum(plain) / 5 <= 1 + 1e-12


def test_a_rank_counts_the_positions_with_fewer_nodes_and_breaks_ties_at_random(mixture) -> None:
    rng = random.Random(1)
    positions = [["w", 3], ["w", 1], ["w", 3], ["w", 5]]
    assert mixture._rank(positions, 1, rng) == 1 and mixture._rank(positions, 3, rng) == 4
    assert {mixture._rank(positions, 0, rng) for _ in range(50)} == {2, 3}
