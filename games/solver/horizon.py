"""The horizon statistic: a game's blind-survival draws as a product that stays valid (pure).

The per-draw factor of ``games.solver.evidence`` judges the true position on the *whole*
rest of the stock, so the factors of successive draws read the same hidden cards and only
their mean is an e-value (docs/fairplay.md section 6), which carries little evidence. Here
the true position after a block at stock count ``n`` is judged on its next ``S`` cards (the
horizon: the cards turned before count ``n - S``) followed by a **tail**, a certified order
of the cards left at ``n - S`` drawn as the certification drew the deal (one order per count
and deal, kept with the deal's completions), against the deal's completions at ``n`` as
before. Then:

* given what the player has seen at ``n``, the true order is a certified order (the deal is
  a random deal conditioned on certification); its head with a tail drawn given that head
  is one too, and so is each completion, all independently drawn: exchangeable, so the
  draw's factor ``h(truth) * 5 / sum h`` has mean at most one;
* the factor reads the true order only through the head, which the draw at ``n - S`` has
  turned face up, so the next factor of the same horizon is again calibrated given this
  one: the product over a horizon's draws is a test supermartingale, and so is
  ``prod (1 - lam + lam * f)`` for every fixed fraction ``lam`` (betting draw by draw: a
  zero factor costs the fraction, not the game).

Each horizon ``S`` in ``HORIZONS`` weighs the counts ``n <= MAX_STOCK`` with ``n % S == 0``
and shares the completions' verdicts; the e-process (``leaderboards.fairplay.eprocess``)
mixes every (horizon, fraction) pair, which is a test supermartingale at game ends, where it
is checked (each pair's game ratio has mean <= 1 given the earlier games).

**A tail that could not be drawn** (``tries`` refusals): the factors that need it are 0.
Whether it failed depends on the head, a card the player had not seen at ``n``, so 1 (not
weighing it) would not be valid; 0 is: the factor equals the one an unbounded sampler would
give whenever the bounded one succeeds (the same tries), so its mean is at most that
factor's, at most one. It did not happen in the measurements (400 tries).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.engine import GameState

from . import _private_copy
from . import evidence as ev

#: The horizons mixed (docs/benchmarks.md "Stronger valid statistics"): 4 and 8 cards.
HORIZONS = (4, 8)
#: One tail a count, drawn with this many tries (one certified order of the cards left).
TAIL_TRIES = 400

#: A deal's tails: per stock count, the order of the cards still in the stock (bottom
#: first, as ``GameState.stock``); count 0 is the empty stock and never stored.
Tails = dict[int, list[int]]


@dataclass
class Draw:
    """One weighed draw: the stock at its start, the completions' verdicts, and per
    horizon the true position's verdict and the factor."""

    stock: int
    others: str
    truths: dict[int, str]
    factors: dict[int, float]


@dataclass
class HorizonEvidence:
    """A game's draws per horizon (the e-process bets on each factor in turn)."""

    won: bool
    draws: list[Draw] = field(default_factory=list)
    seconds: float = 0.0

    def factors(self, horizon: int) -> list[float]:
        return [d.factors[horizon] for d in self.draws if horizon in d.factors]

    @property
    def value(self) -> float:
        """For display: the mean over the horizons of their factors' product (itself an
        e-value, the wealth of betting everything on each draw)."""
        products = []
        for s in HORIZONS:
            product = 1.0
            for f in self.factors(s):
                product *= f
            products.append(product)
        return sum(products) / len(products)

    def to_dict(self) -> dict[str, Any]:
        return {
            "statistic": "horizon",
            "won": self.won,
            "value": self.value,
            "factors": {str(s): self.factors(s) for s in HORIZONS},  # exact: the bets read them
            "draws": [
                [d.stock, d.others, {str(s): v for s, v in d.truths.items()}] for d in self.draws
            ],
            "seconds": round(self.seconds, 3),
        }


def certified_tails(
    seed: int,
    variant: str,
    *,
    accept: Callable[[GameState], bool],
    rng: random.Random,
    tries: int = TAIL_TRIES,
    max_stock: int = ev.MAX_STOCK,
) -> Tails:
    """One certified order of the cards left at each count a horizon's truth needs (the
    multiples of the smallest horizon below ``max_stock``), drawn as
    ``evidence.certified_pool`` draws completions, with its own random numbers."""
    pool = ev.certified_pool(
        seed,
        variant,
        accept=accept,
        rng=rng,
        completions=1,
        max_stock=max_stock - min(HORIZONS),
        stride=min(HORIZONS),
        tries=tries,
    )
    return {count: orders[0] for count, orders in pool.items()}


def _truth(after: GameState, n: int, s: int, tails: Tails) -> GameState | None:
    """The true position after the block judged on its next ``s`` cards, then the tail at
    ``n - s`` (``None``: that tail could not be drawn)."""
    rest = n - s
    tail = [] if rest == 0 else tails.get(rest)
    if tail is None:
        return None
    truth = _private_copy(after)
    truth.restock(list(tail) + list(after.stock[rest:]))
    return truth


def _weigh(
    game: GameState, block: list[str], orders: list[list[int]], tails: Tails, rng: random.Random
) -> Draw:
    n = game.stock_count
    positions: list[GameState] = []
    for order in orders:
        other = _private_copy(game)
        other.restock(list(order))
        other.replay(block)
        positions.append(other)
    after = game.copy()
    after.replay(block)
    truths: dict[int, GameState | None] = {
        s: _truth(after, n, s, tails) for s in HORIZONS if n % s == 0
    }
    todo = positions + [t for t in truths.values() if t is not None]
    found: dict[int, str] = {}
    for i in rng.sample(range(len(todo)), len(todo)):  # solved in a random order
        found[i] = ev.verdict(todo[i])
    others = "".join(found[i] for i in range(len(positions)))
    verdicts: dict[int, str] = {}
    factors: dict[int, float] = {}
    at = len(positions)
    for s, truth in truths.items():
        if truth is None:
            verdicts[s], factors[s] = "-", 0.0  # no tail: 0 (module docstring)
            continue
        verdicts[s] = found[at]
        factors[s] = ev.block_factor(found[at], others)
        at += 1
    return Draw(n, others, verdicts, factors)


def horizon_survival(
    seed: int,
    variant: str,
    moves: list[str],
    *,
    won: bool,
    rng: random.Random,
    pool: ev.Pool,
    tails: Tails,
    max_stock: int = ev.MAX_STOCK,
) -> HorizonEvidence:
    """The game's draws (module docstring), won or lost, on a certified deal's pooled
    completions and tails. ``rng`` only orders the solving (fresh on the server). A count
    without completions is not weighed (a choice made from the deal and the cards seen)."""
    began = time.process_time()
    game = GameState.from_seed(seed, variant, undo_limit=0)
    found = HorizonEvidence(won=won)
    if not ev._blind_block(game):
        return found
    step = min(HORIZONS)
    for block in ev.split_blocks(moves):
        n = game.stock_count
        if n <= max_stock and n % step == 0 and pool.get(n):
            found.draws.append(_weigh(game, block, pool[n], tails, rng))
        game.replay(block)
    found.seconds = time.process_time() - began
    return found
