"""The blind-survival mean: one game's e-value as the mean of its draws' factors (pure).

The server's sequential test once weighed a game so (``games.solver.evidence``'s
docstring has the draw factor and why the mean, not the product, is an e-value); it now
judges the truth on its next cards and a certified tail (``games.solver.horizon``). The
mean stays here, beside the benchmarks, for ``benchmarks/season_mixture.py`` (which
compares the two on cached verdicts) and for the calibration tests
(``tests/solver/test_evidence_calibration.py``), which check the product against it.
Not the product's: nothing under ``games/`` or ``leaderboards/`` imports it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from benchmarks.players import Seen
from games.engine import GameState
from games.solver import _private_copy
from games.solver import evidence as ev  # ev.verdict at call time: tests replace it
from games.solver.evidence import (
    COMPLETIONS,
    MAX_STOCK,
    STRIDE,
    WIDTH,
    Pool,
    _blind_block,
    block_factor,
    split_blocks,
    weighed_counts,
)


@dataclass
class Block:
    """One weighed draw: the stock at its start, the solver's verdicts ("w" win, "l"
    lost, "u" undecided) on the true position and on the completions, and the factor."""

    stock: int
    true: str
    others: str
    factor: float


@dataclass
class Evidence:
    """A game's blind-survival e-value and what it rests on."""

    value: float  # the mean of the slots' factors (0 for a loss not weighed)
    won: bool
    blocks: list[Block] = field(default_factory=list)
    seconds: float = 0.0
    slots: int = 0  # the stock counts that could be weighed (a slot not weighed counts 1)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["blocks"] = [[b.stock, b.true, b.others, round(b.factor, 4)] for b in self.blocks]
        data["seconds"] = round(self.seconds, 3)
        return data


#: Draws one completion of what was seen before a block (``None``: none could be drawn).
Sampler = Callable[[GameState, Seen, random.Random], "GameState | None"]


def uniform_sampler(game: GameState, seen: Seen, rng: random.Random) -> GameState:
    """A uniformly random order of the unseen cards: the null for deals dealt at random."""
    return seen.sample(rng)


def certified_sampler(start: GameState, accept: Callable[[GameState], bool], tries: int) -> Sampler:
    """Completions drawn as the certification draws deals: a uniformly random order of the
    unseen cards, kept only if the whole deal it makes (the table as dealt, the cards turned
    so far in their order, then this order) passes ``accept``, the certification's own
    test (deterministic: a node-capped solve). A certified daily deal's stock is not a
    uniformly random order given its table (the certification chose it), so this is the
    honest null for it. ``None`` after ``tries`` refusals: the block is then not weighed
    (a choice made from what was seen only, so the test stays valid)."""

    def sample(game: GameState, seen: Seen, rng: random.Random) -> GameState | None:
        drawn = start.stock[len(game.stock) :]  # turned so far (the stock's top is last)
        for _ in range(tries):
            other = seen.sample(rng)
            deal = _private_copy(start)
            deal.restock(list(other.stock) + list(drawn))
            if accept(deal):
                return other
        return None

    return sample


def pooled_sampler(pool: Pool) -> Callable[[GameState], list[GameState] | None]:
    """The positions of a block from a deal's precomputed completions (``None``: none)."""

    def positions(game: GameState) -> list[GameState] | None:
        orders = pool.get(len(game.stock))
        if not orders:
            return None
        out = []
        for order in orders:
            other = _private_copy(game)
            other.restock(list(order))
            out.append(other)
        return out

    return positions


def weigh_block(
    game: GameState,
    block: list[str],
    *,
    rng: random.Random,
    completions: int,
    width: int,
    sampler: Sampler = uniform_sampler,
    pooled: list[GameState] | None = None,
) -> tuple[str, str] | None:
    """The verdicts on the true position after ``block`` and on ``completions`` random
    completions of what was seen before it (or the ``pooled`` ones), solved in a random
    order (``None`` when the sampler could not draw them)."""
    positions = list(pooled or [])
    if pooled is None:
        seen = Seen.from_view(game.view())
        for _ in range(completions):
            other = sampler(game, seen, rng)
            if other is None:
                return None
            positions.append(other)
    for other in positions:
        other.replay(block)
    after = game.copy()
    after.replay(block)
    positions.append(after)
    order = list(range(len(positions)))
    rng.shuffle(order)
    found = [""] * len(positions)
    for i in order:
        found[i] = ev.verdict(positions[i], width=width)
    return found[-1], "".join(found[:-1])


def game_value(
    factors: list[float], *, won: bool, losses: bool, slots: int, shrink: float = 1.0
) -> float:
    """A game's e-value from its weighed blocks' factors: the mean over ``slots`` (the
    stock counts that could be weighed, fixed before the game) of ``1 - shrink + shrink *
    f``, a slot not weighed counting 1. Each factor has mean <= 1 given what the player had
    seen but the factors are dependent (module docstring), and a fixed average of e-values
    is one whatever their dependence, where a product is not. A loss is 0 unless
    ``losses`` (weighed too)."""
    if not won and not losses:
        return 0.0
    if len(factors) > slots:
        raise ValueError(f"{len(factors)} factors for {slots} slots")
    if not slots:
        return 1.0
    terms = sum(1 - shrink + shrink * factor for factor in factors)
    return (terms + slots - len(factors)) / slots


def blind_survival(
    seed: int,
    variant: str,
    moves: list[str],
    *,
    won: bool,
    rng: random.Random,
    completions: int = COMPLETIONS,
    width: int = WIDTH,
    max_stock: int = MAX_STOCK,
    stride: int = STRIDE,
    accept: Callable[[GameState], bool] | None = None,
    tries: int = 40,
    pool: Pool | None = None,
    losses: bool = False,
    shrink: float = 1.0,
) -> Evidence:
    """The game's e-value (see the module's docstring). ``rng`` draws the completions and
    the solving order; it must not depend on the stock's order (the server seeds it from
    a fresh random number). The completions: ``pool``, a certified deal's precomputed ones
    (:func:`certified_pool`); else ``accept``, the certification's test, to draw them as it
    drew the deal (:func:`certified_sampler`); else uniformly (a deal dealt at random).
    ``losses``: weigh a lost game's blocks too (its value is then their mean, not 0);
    ``shrink``: each factor enters as ``1 - shrink + shrink * factor`` (:func:`game_value`)."""
    began = time.process_time()
    if not won and not losses:
        return Evidence(value=0.0, won=False)
    game = GameState.from_seed(seed, variant, undo_limit=0)
    sampler: Sampler = uniform_sampler
    if accept is not None:
        sampler = certified_sampler(game.copy(), accept, tries)
    pooled = pooled_sampler(pool) if pool is not None else None
    slots = 0
    if _blind_block(game):
        slots = len(weighed_counts(len(game.stock), max_stock=max_stock, stride=stride))
    blocks = []
    for block in split_blocks(moves):
        stock = game.stock_count
        if stock <= max_stock and stock % stride == 0 and _blind_block(game):
            others = pooled(game) if pooled is not None else None
            if pooled is None or others is not None:
                weighed = weigh_block(
                    game,
                    block,
                    rng=rng,
                    completions=completions,
                    width=width,
                    sampler=sampler,
                    pooled=others,
                )
                if weighed is not None:
                    true, found = weighed
                    blocks.append(Block(stock, true, found, block_factor(true, found)))
        game.replay(block)
    factors = [b.factor for b in blocks]
    value = game_value(factors, won=won, losses=losses, slots=slots, shrink=shrink)
    seconds = time.process_time() - began
    return Evidence(value=value, won=won, blocks=blocks, seconds=seconds, slots=slots)
