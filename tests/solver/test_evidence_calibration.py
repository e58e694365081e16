"""Calibration on certified deals, statistically: under completions drawn as the
certification drew the deal (``certified_pool``), an honest (blind) player's per-game
e-value has mean <= 1; under uniform completions it does not.

The exact identity behind it (exchangeability) is tested in ``test_evidence.py``; this test
checks the whole pipeline (the pool, the sampler, the replay of the player's blocks, lost
games weighed) on many games with a fixed seed. A real solver costs a tenth of a second a
position, so the certification and the verdict are replaced by cheap deterministic
functions that depend strongly on the stock's hidden order — a certification that prefers
red cards in the middle of the stock, and a "solver" that wins a position whose next stock
card is red — which makes the certification's tilt large. Not a timed test.
"""

from __future__ import annotations

import functools
import math
import random
import statistics
from typing import Any

import pytest

from benchmarks import blind_survival as survival
from benchmarks.players import Played, play_greedy
from games.engine import GameState
from games.engine.cards import is_red
from games.solver import evidence, horizon

VARIANT = "forty-thieves"
GAMES = 60
MAX_STOCK = 12  # every draw from 12 cards left: 12 weighed draws, 60 positions, cheap


def certifies(deal: GameState) -> bool:
    """A deterministic, strongly tilted certification: the 8 cards drawn while the stock
    goes from 12 to 4 cards are all red."""
    return all(is_red(card) for card in deal.stock[4:12])


def toy_verdict(game: GameState, **budget) -> str:
    """Won when the next stock card is red, undecided otherwise (a function of the
    position, including the hidden stock, as the real decider is)."""
    return "w" if game.stock and is_red(game.stock[-1]) else "u"


def certified_seeds(count: int, rng: random.Random) -> list[int]:
    """Deals drawn as the site draws them: random seeds until one is certified."""
    out = []
    while len(out) < count:
        seed = rng.getrandbits(128)
        if certifies(GameState.from_seed(seed, VARIANT, undo_limit=0)):
            out.append(seed)
    return out


@functools.cache
def certified_games(rng_seed: int) -> tuple[list[tuple[int, Played]], tuple[Any, ...]]:
    """The :data:`GAMES` certified deals drawn from ``rng_seed``, each with the blind
    player's game of it (it sees only the table), and the random state after the drawing.
    Three tests weigh the same games (about 2 s of CPU to draw and play): drawn once."""
    rng = random.Random(rng_seed)
    seeds = certified_seeds(GAMES, rng)
    played = [(seed, play_greedy(seed, VARIANT, rng_seed=n + 1)) for n, seed in enumerate(seeds)]
    return played, rng.getstate()


def honest_games(*, conditioned: bool) -> list[survival.Evidence]:
    """The weighed games of a blind player on certified deals."""
    deals, after_drawing = certified_games(20261201)
    rng = random.Random()
    rng.setstate(after_drawing)
    games = []
    for seed, played in deals:
        pool = None
        if conditioned:
            pool = evidence.certified_pool(
                seed, VARIANT, accept=certifies, rng=rng, max_stock=MAX_STOCK, stride=1, tries=200
            )
        found = survival.blind_survival(
            seed,
            VARIANT,
            played.moves,
            won=played.won,
            rng=rng,
            pool=pool,
            losses=True,
            max_stock=MAX_STOCK,
            stride=1,
        )
        games.append(found)
    return games


def mean_and_error(values: list[float]) -> tuple[float, float]:
    return statistics.fmean(values), statistics.stdev(values) / len(values) ** 0.5


@pytest.fixture
def toy(monkeypatch) -> None:
    monkeypatch.setattr(evidence, "verdict", toy_verdict)


def test_honest_play_has_mean_e_value_at_most_one_under_certified_completions(toy) -> None:
    games = honest_games(conditioned=True)
    # Each draw's factor has mean exactly one given the past (no verdict here is a proof
    # of loss): bounded, so its sample mean is tight on both sides.
    factors = [block.factor for game in games for block in game.blocks]
    mean, error = mean_and_error(factors)
    assert len(factors) > 10 * GAMES and abs(mean - 1) <= 3 * error, (mean, error)
    # The game's value (their product, lost games included) then has mean <= 1; it is
    # heavy-tailed, so only the upper side and the tail are checked.
    assert_e_values([game.value for game in games])


def test_uniform_completions_on_certified_deals_overstate_the_evidence(toy) -> None:
    # The control: the same honest games against uniform completions, as if the deals
    # were dealt at random, give values far above one (why the pool exists).
    games = honest_games(conditioned=False)
    mean, error = mean_and_error([b.factor for game in games for b in game.blocks])
    assert mean > 1 + 3 * error, (mean, error)
    mean, error = mean_and_error([game.value for game in games])
    assert mean > 1 + 3 * error, (mean, error)


def far_sighted_verdict(game: GameState, **budget) -> str:
    """Won when the *last* card of the stock (drawn last) is red, undecided otherwise.

    Like the real decider, and unlike :func:`toy_verdict`, it reads cards that the next
    weighed draw has not revealed yet, so the true position's verdicts at successive draws
    are correlated (they read the same hidden card) while each draw's completions are
    fresh. Each draw's factor still has mean one given what the player has seen."""
    return "w" if game.stock and is_red(game.stock[0]) else "u"


def test_an_honest_games_value_stays_calibrated_when_the_verdict_reads_far_ahead(
    monkeypatch,
) -> None:
    # The product of the draws' factors is not a martingale here: the true deal's factors
    # at successive draws read the same hidden cards (the truth that was winnable at one
    # draw stays winnable at the next; fresh completions do not), so a product of twelve
    # factors of mean one has a mean far above one (about 66 in this toy). A valid
    # combination of the draws keeps the game's mean at most one.
    monkeypatch.setattr(evidence, "verdict", far_sighted_verdict)
    games = honest_games(conditioned=True)
    factors = [block.factor for game in games for block in game.blocks]
    mean, error = mean_and_error(factors)
    assert len(factors) > 10 * GAMES and abs(mean - 1) <= 3 * error, (mean, error)
    assert_e_values([game.value for game in games])


def assert_e_values(values: list[float]) -> None:
    """What any sample of e-values (mean <= 1) must show: a sample mean at most 3 standard
    errors above one, and, since a heavy tail widens that error, Markov's inequality on
    the tail: at most 1 in 20 values reach 20 (within 3 standard errors)."""
    mean, error = mean_and_error(values)
    assert mean <= 1 + 3 * error, (mean, error)
    share, bound = sum(v >= 20 for v in values) / len(values), 1 / 20
    assert share <= bound + 3 * (bound * (1 - bound) / len(values)) ** 0.5, share


def test_the_horizon_product_stays_calibrated_where_the_full_rest_product_does_not(
    monkeypatch,
) -> None:
    # The server's statistic (games.solver.horizon): the true position is judged on its next
    # S cards and a certified tail, so the far-sighted verdict reads the tail's cards, not
    # the hidden rest, and each draw's factor is revealed by the next draw of its horizon:
    # the *product* of a horizon's factors is a test martingale. Horizons 1 and 2 here, so
    # a game has 12 and 6 weighed draws. The control: the full-rest factors of the same
    # games (each draw's truth reads the same last card) multiply to far above one.
    monkeypatch.setattr(evidence, "verdict", far_sighted_verdict)
    monkeypatch.setattr(horizon, "HORIZONS", (1, 2))
    rng = random.Random(20261202)
    products: dict[int, list[float]] = {1: [], 2: []}
    factors: list[float] = []
    full_rest: list[float] = []
    for n, seed in enumerate(certified_seeds(GAMES, rng)):
        played = play_greedy(seed, VARIANT, rng_seed=n + 1)
        pool = evidence.certified_pool(
            seed, VARIANT, accept=certifies, rng=rng, max_stock=MAX_STOCK, stride=1, tries=200
        )
        tails = horizon.certified_tails(
            seed, VARIANT, accept=certifies, rng=rng, max_stock=MAX_STOCK, tries=200
        )
        found = horizon.horizon_survival(
            seed, VARIANT, played.moves, won=played.won, rng=rng, pool=pool, tails=tails,
            max_stock=MAX_STOCK,
        )  # fmt: skip
        for s in (1, 2):
            products[s].append(math.prod(found.factors(s)))
        factors += found.factors(1)
        rest = survival.blind_survival(
            seed, VARIANT, played.moves, won=played.won, rng=rng, pool=pool, losses=True,
            max_stock=MAX_STOCK, stride=1,
        )  # fmt: skip
        full_rest.append(math.prod(b.factor for b in rest.blocks))
    mean, error = mean_and_error(factors)
    assert len(factors) > 10 * GAMES and abs(mean - 1) <= 3 * error, (mean, error)
    for s in (1, 2):
        assert_e_values(products[s])
    # Heavy-tailed: Markov's inequality on the tail is what it breaks.
    share, bound = sum(v >= 20 for v in full_rest) / len(full_rest), 1 / 20
    assert share > bound + 3 * (bound * (1 - bound) / len(full_rest)) ** 0.5, share
