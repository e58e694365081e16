"""The horizon statistic: the true position judged on its next S cards and a stored tail.

A cheap stand-in decider replaces the solver (a function of the position, hidden stock
included); ``test_evidence_calibration.py`` checks the statistic's calibration on many
games.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from games.engine import GameState
from games.engine.cards import is_red
from games.solver import evidence, horizon
from games.solver.horizon import horizon_survival

WIN = json.loads((Path(__file__).parents[1] / "data" / "classic_win.json").read_text())
SEED, VARIANT, MOVES = int(WIN["seed"], 16), WIN["variant"], WIN["moves"].split()
START = GameState.from_seed(SEED, VARIANT, undo_limit=0)


def pool_and_tails(rng: random.Random) -> tuple[evidence.Pool, horizon.Tails]:
    pool = evidence.certified_pool(SEED, VARIANT, accept=lambda g: True, rng=rng)
    tails = horizon.certified_tails(SEED, VARIANT, accept=lambda g: True, rng=rng)
    return pool, tails


@pytest.fixture
def seen(monkeypatch) -> list[list[int]]:
    """The stand-in decider: won when the stock's bottom card is red; records each stock."""
    stocks: list[list[int]] = []

    def decide(game: GameState, **budget) -> str:
        stocks.append(list(game.stock))
        return "w" if game.stock and is_red(game.stock[0]) else "l"

    monkeypatch.setattr(evidence, "verdict", decide)
    return stocks


def test_the_truth_is_its_next_cards_then_the_stored_tail_never_the_hidden_rest(seen) -> None:
    pool, tails = pool_and_tails(random.Random(1))
    found = horizon_survival(
        SEED, VARIANT, MOVES, won=True, rng=random.Random(2), pool=pool, tails=tails
    )
    draws = {d.stock: d for d in found.draws}
    assert sorted(draws, reverse=True) == evidence.weighed_counts(64)
    true_stock = START.stock  # bottom first: the card at index i is drawn with i + 1 left
    for n, draw in draws.items():
        assert set(draw.truths) == {s for s in horizon.HORIZONS if n % s == 0}
        for s in draw.truths:
            truth = (tails.get(n - s, []) if n > s else []) + true_stock[n - s : n - 1]
            # The block drew one card: the truth's stock is the tail then the head.
            assert truth in seen, (n, s)
    # The completions are the pool's orders (the block's draw taken from each).
    assert [*pool[48][0][:-1]] in seen


def test_a_draws_factor_compares_the_truth_with_the_completions(seen) -> None:
    pool, tails = pool_and_tails(random.Random(3))
    found = horizon_survival(
        SEED, VARIANT, MOVES, won=True, rng=random.Random(4), pool=pool, tails=tails
    )
    for draw in found.draws:
        for s, truth in draw.truths.items():
            assert draw.factors[s] == evidence.block_factor(truth, draw.others)
    assert found.factors(8) == [d.factors[8] for d in found.draws if d.stock % 8 == 0]
    detail = found.to_dict()
    assert detail["statistic"] == "horizon" and detail["factors"]["4"] == found.factors(4)


def test_a_tail_that_could_not_be_drawn_makes_its_factors_zero_and_is_not_solved(seen) -> None:
    pool, tails = pool_and_tails(random.Random(5))
    del tails[40]  # needed by S = 4 at 44 cards and S = 8 at 48
    found = horizon_survival(
        SEED, VARIANT, MOVES, won=True, rng=random.Random(6), pool=pool, tails=tails
    )
    draws = {d.stock: d for d in found.draws}
    assert draws[44].truths[4] == "-" and draws[44].factors[4] == 0.0
    assert draws[48].truths[8] == "-" and draws[48].factors[8] == 0.0
    assert draws[48].truths[4] != "-"  # its own tail (44) was drawn
    assert len(seen) == sum(
        len(d.others) + sum(t != "-" for t in d.truths.values()) for d in draws.values()
    )


def test_a_count_without_completions_is_not_weighed(seen) -> None:
    pool, tails = pool_and_tails(random.Random(7))
    del pool[24]
    found = horizon_survival(
        SEED, VARIANT, MOVES, won=True, rng=random.Random(8), pool=pool, tails=tails
    )
    assert 24 not in {d.stock for d in found.draws} and 20 in {d.stock for d in found.draws}


def test_a_lost_game_is_weighed_up_to_its_end(seen) -> None:
    pool, tails = pool_and_tails(random.Random(9))
    cut = MOVES[: MOVES.index("s") + 1]  # the first draw only: at 64 cards, not weighed
    found = horizon_survival(
        SEED, VARIANT, cut, won=False, rng=random.Random(1), pool=pool, tails=tails
    )
    assert found.draws == [] and found.value == 1.0 and not found.won


def test_the_tails_are_certified_orders_of_the_cards_left() -> None:
    def accept(deal: GameState) -> bool:
        return is_red(deal.stock[0])  # the last card drawn is red

    tails = horizon.certified_tails(SEED, VARIANT, accept=accept, rng=random.Random(1))
    assert sorted(tails, reverse=True) == list(range(44, 0, -4))
    for count, order in tails.items():
        assert sorted(order) == sorted(START.stock[:count]) and is_red(order[0])
