"""The sequential test's arithmetic (pure): a loss costs the fraction bet, never the whole
wealth; calibrated e-values keep an honest player's wealth a test supermartingale, so few
ever reach the threshold; a player whose games keep giving evidence does, soon."""

from __future__ import annotations

import math
import random

import pytest

from leaderboards.fairplay.eprocess import BETS, DRAW_BETS, THRESHOLD, DrawWealth, Wealth, run


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


def test_draw_by_draw_a_zero_factor_costs_each_pair_its_fraction_not_the_game() -> None:
    wealth = DrawWealth.start((4, 8)).bet({4: [2.0, 0.0], 8: [1.5]})
    pairs = [(s, lam) for s in (4, 8) for lam in DRAW_BETS]
    for log, (s, lam) in zip(wealth.logs, pairs, strict=True):
        draws = [2.0, 0.0] if s == 4 else [1.5]
        assert math.isclose(log, sum(math.log(1 - lam + lam * f) for f in draws))
    expected = sum(math.exp(x) for x in wealth.logs) / len(pairs)
    assert math.isclose(wealth.value, expected) and wealth.value > 0


def test_draw_wealth_of_another_layout_starts_afresh_and_a_game_without_draws_changes_nothing() -> (
    None
):
    start = DrawWealth.start((4, 8))
    assert DrawWealth.of(list(Wealth().logs), (4, 8)) == start
    assert start.bet({}) == start and start.value == 1.0
    with pytest.raises(ValueError):
        start.bet({4: [-1.0]})


def test_honest_draw_factors_rarely_cross_and_foresight_draws_do() -> None:
    # Each of the five positions of a draw (the truth and four completions) is won with a
    # chance of 85 %, independently: the honest truth is one more of them, the foresight
    # player's is always won. The factor is then 5 / (1 + completions won), or 0.
    rng = random.Random(3)

    def draw(foresight: bool) -> float:
        won = sum(rng.random() < 0.85 for _ in range(4))
        return 5 / (1 + won) if foresight or rng.random() < 0.85 else 0.0

    def crossed(foresight: bool) -> bool:
        wealth = DrawWealth.start((4, 8))
        for _day in range(365):
            game = [draw(foresight) for _ in range(12)]
            wealth = wealth.bet({4: game, 8: game[::2]})
            if wealth.crossed(THRESHOLD):
                return True
        return False

    assert sum(crossed(False) for _ in range(100)) <= 3  # Ville: 1 % expected at most
    assert sum(crossed(True) for _ in range(20)) == 20
