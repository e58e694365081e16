"""The sequential test's arithmetic (pure): a loss costs the fraction bet, never the whole
wealth; calibrated e-values keep an honest player's wealth a test supermartingale, so few
ever reach the threshold; a player whose games keep giving evidence does, soon."""

from __future__ import annotations

import math
import random

import pytest

from leaderboards.fairplay.eprocess import BETS, THRESHOLD, Wealth, run


def test_a_loss_costs_each_fraction_what_it_bet_and_never_resets_the_wealth() -> None:
    wealth = Wealth().bet(10.0).bet(0.0)
    for log, lam in zip(wealth.logs, BETS, strict=True):
        assert math.isclose(log, math.log(1 - lam + 10 * lam) + math.log(1 - lam))
    assert wealth.value > 1  # the win's evidence outlives the loss


def test_the_wealth_is_the_mean_over_the_fractions() -> None:
    wealth = Wealth().bet(3.0)
    expected = sum(1 + 2 * lam for lam in BETS) / len(BETS)
    assert math.isclose(wealth.value, expected)


def test_stored_wealth_of_another_shape_starts_afresh() -> None:
    assert Wealth.of([1.0, 2.0]) == Wealth() and Wealth.of(None) == Wealth()


def test_it_refuses_a_negative_e_value() -> None:
    with pytest.raises(ValueError, match="e-value"):
        Wealth().bet(-0.5)


def test_a_player_whose_every_game_gives_three_to_one_crosses_within_a_fortnight() -> None:
    assert run([3.0] * 30) is not None and run([3.0] * 30) < 14


@pytest.mark.parametrize("win_rate", [0.1, 0.6])
def test_honest_players_with_calibrated_e_values_rarely_ever_cross(win_rate: float) -> None:
    """A seeded season of the tightest calibrated e-value there is: a win worth exactly
    1 / P(win), a loss 0 (mean one: nothing to spare). Ville's inequality bounds the share
    of players ever reaching the threshold by 1 / THRESHOLD; the mean final wealth stays
    near one (a test martingale)."""
    rng = random.Random(int(win_rate * 100))
    players, days = 1000, 150
    crossed, final = 0, []
    for _ in range(players):
        wealth, ever = Wealth(), False
        for _ in range(days):
            wealth = wealth.bet(1 / win_rate if rng.random() < win_rate else 0.0)
            ever = ever or wealth.crossed(THRESHOLD)
        crossed += ever
        final.append(wealth.value)
    bound = 1 / THRESHOLD
    assert crossed / players <= bound + 3 * math.sqrt(bound * (1 - bound) / players)
    assert sum(final) / players <= 1.5
