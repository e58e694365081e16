"""Scripted players for the benchmarks and the solver's tests (pure: no Django).

Not the product's: the site never plays. Kept beside the benchmarks that play them
(fair play, households, the decider, the post-game analysis); tests import them as
``benchmarks.players``.

Two kinds, kept apart by what they are given:

* **Honest** players see only what a player sees. They are driven by
  :func:`play_honest`, which hands them a :class:`Seen` built from
  ``GameState.view()`` (the JSON a browser gets: never the stock order) and plays
  the move they return on the true game. A ``Seen`` has no stock order at all:
  to look ahead, an honest player must *invent* one (:meth:`Seen.sample`, a
  random completion of the unseen cards). :func:`greedy` climbs a position
  score; :class:`Determinized` plans with the solver on a sampled completion
  and replans whenever a turned card contradicts its sample ("determinized
  replanning": solver-like lines without foresight, the hardest honest case).
* **Clairvoyant** players know the deal: :func:`clairvoyant` plays the
  solver's line on the true deal; :func:`clairvoyant_mixed` tries the honest
  player's choice at a share of the decisions and keeps it when the solver,
  on the true deal, still wins after it: lines that mix foresight with honest
  choices and are still won.

Every function returns a :class:`Played`: the move log and whether it won.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.engine import GameState, parse_card, parse_variant
from games.engine import moves as _moves
from games.engine.cards import full_deck
from games.engine.notation import DRAW, TO_FOUNDATION, format_move
from games.solver import solve
from games.solver.beam import score
from games.solver.heuristics import Knowledge, knowledge_for

#: Longest game a scripted player may play (a guard against loops).
MAX_ACTIONS = 2000


@dataclass
class Played:
    moves: list[str]
    won: bool
    info: dict[str, Any] = field(default_factory=dict)


# What an honest player may know ----------------------------------------------------


@dataclass(frozen=True)
class Seen:
    """A position as a player sees it: every visible card, and the multiset of
    unseen ones (the stock and any face-down cards) without their order."""

    variant: str
    columns: tuple[tuple[int, ...], ...]  # visible cards only, bottom to top
    down: tuple[int, ...]
    waste: tuple[int, ...]
    foundations: tuple[int, ...]  # ranks
    stock: int
    redeals_left: int
    unseen: tuple[int, ...]  # sorted: carries no order information

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Seen:
        rules = parse_variant(view["variant"])
        columns = tuple(tuple(parse_card(c) for c in col["cards"]) for col in view["columns"])
        waste = tuple(parse_card(c) for c in view["waste"])
        found = tuple(int(f["count"]) for f in view["foundations"])
        left = Counter(full_deck(decks=rules.decks))
        for k, rank in enumerate(found):
            left.subtract((r << 2) | rules.foundation_suit(k) for r in range(1, rank + 1))
        for pile in (*columns, waste):
            left.subtract(pile)
        return cls(
            variant=view["variant"],
            columns=columns,
            down=tuple(int(col["down"]) for col in view["columns"]),
            waste=waste,
            foundations=found,
            stock=int(view["stock"]),
            redeals_left=int(view["redeals_left"]),
            unseen=tuple(sorted(left.elements())),
        )

    def sample(self, rng: random.Random | None) -> GameState:
        """A game in this position with the unseen cards in a random order
        (``rng=None``: a fixed, meaningless order, for players that never look)."""
        cards = list(self.unseen)
        if rng is not None:
            rng.shuffle(cards)
        columns = []
        for col, hidden in zip(self.columns, self.down, strict=True):
            columns.append([cards.pop() for _ in range(hidden)] + list(col))
        game = GameState(
            parse_variant(self.variant),
            columns,
            cards,
            waste=self.waste,
            foundations=list(self.foundations),
            down=list(self.down),
            undo_limit=0,
            redeals_left=self.redeals_left,
        )
        return game


#: An honest policy: the seen position -> the move to play, or None to stop.
Policy = Callable[[Seen], "str | None"]


def play_honest(seed: int, variant: str, policy: Policy) -> Played:
    """Play ``policy`` on the deal: it is shown only ``GameState.view()``."""
    game = GameState.from_seed(seed, variant, undo_limit=0)
    log: list[str] = []
    while not game.is_won() and len(log) < MAX_ACTIONS:
        move = policy(Seen.from_view(game.view()))
        if move is None:
            break
        game.play(move)
        log.append(move)
    return Played(log, game.is_won())


# Honest players ----------------------------------------------------------------------


def climb_move(
    game: GameState, know: Knowledge | None = None, rng: random.Random | None = None
) -> str | None:
    """The non-draw move that raises :func:`games.solver.beam.score` the most, if any does
    (a strict rise, so repeated climbing always ends). With ``rng`` the rises
    are jittered by up to :data:`JITTER` points: seeded runs differ like
    players of the same style."""
    know = know or knowledge_for(game)
    legal = know.ordered(game, _moves.legal(game), None)
    if len(legal) == 1 and legal[0].kind == TO_FOUNDATION:
        return format_move(legal[0])  # a safe foundation move
    now = score(game)
    best, best_rise = None, 1e-9
    for move in legal:
        if move.kind == DRAW:
            continue
        record = _moves.apply(game, move)
        rise = score(game) - now
        _moves.revert(game, record)
        if rise > 1e-9 and rng is not None:
            rise += JITTER * rng.random()
        if rise > best_rise:
            best, best_rise = move, rise
    return None if best is None else format_move(best)


#: Score points of random jitter a seeded greedy player adds to each rise.
JITTER = 4.0


def greedy(seen: Seen, rng: random.Random | None = None) -> str | None:
    """Climb the position score; draw when no move raises it; stop when stuck."""
    game = seen.sample(None)  # the stock order is never read: it is not there
    move = climb_move(game, rng=rng)
    if move is not None:
        return move
    return "s" if game.stock else None


class Determinized:
    """Plans with the solver on a random completion of the unseen cards.

    The plan is followed while every turned card is the one the sample put
    there; otherwise a new completion is drawn and solved. When the solver
    finds no win in its samples it plays like :func:`greedy` until the next
    card is turned, then tries again. Seeded, so a run repeats."""

    def __init__(self, rng_seed: int, *, seconds: float = 0.3, tries: int = 2) -> None:
        self.rng = random.Random(rng_seed)
        self.seconds = seconds
        self.tries = tries
        self.plan: list[str] = []
        self.sampled: list[int] = []  # the sample's stock still to come, next card last
        self.pending: int | None = None  # the card the sample said the last draw turns
        self.failed_at: int | None = None  # stock size when planning last failed
        self.solves = 0

    def __call__(self, seen: Seen) -> str | None:
        if self.pending is not None:
            if not seen.waste or seen.waste[-1] != self.pending:
                self.plan = []  # the real card differs from the sample: replan
            self.pending = None
        if not self.plan and self.failed_at != seen.stock:
            self._replan(seen)
        if not self.plan:
            return greedy(seen)
        move = self.plan.pop(0)
        if move == "s":
            self.pending = self.sampled.pop()
        return move

    def _replan(self, seen: Seen) -> None:
        for _ in range(self.tries):
            game = seen.sample(self.rng)
            self.solves += 1
            result = solve(game, max_seconds=self.seconds)
            if result.verdict == "win":
                self.plan, self.sampled, self.failed_at = list(result.line), list(game.stock), None
                return
        self.failed_at = seen.stock


def determinized(seed: int, variant: str, rng_seed: int, *, seconds: float = 0.3) -> Played:
    player = Determinized(rng_seed, seconds=seconds)
    played = play_honest(seed, variant, player)
    played.info["solves"] = player.solves
    return played


def play_greedy(seed: int, variant: str, rng_seed: int = 0) -> Played:
    """The greedy player; run 0 is the plain climb, other seeds jitter it."""
    rng = random.Random(rng_seed) if rng_seed else None
    return play_honest(seed, variant, lambda seen: greedy(seen, rng))


# Clairvoyant players (they read the true deal) ----------------------------------------


def clairvoyant(
    seed: int, variant: str, line: list[str] | None = None, *, seconds: float = 3.0
) -> Played:
    """The solver's line on the true deal (``line`` if given, e.g. a certified one)."""
    if line is None:
        line = solve(GameState.from_seed(seed, variant, undo_limit=0), max_seconds=seconds).line
    game = GameState.from_seed(seed, variant, undo_limit=0)
    game.replay(line)
    return Played(list(line), game.is_won())


def clairvoyant_mixed(
    seed: int,
    variant: str,
    line: list[str],
    fraction: float,
    rng_seed: int,
    *,
    seconds: float = 1.0,
) -> Played:
    """A cheat who hides foresight: the solver's line on the true deal, but at
    each decision where the greedy honest player would play something else,
    with probability ``fraction`` the honest move is tried: kept if the solver
    (on the true deal, ``seconds``) still finds a win after it, the plan then
    being the new line; refused otherwise, so the game is still won."""
    rng = random.Random(rng_seed)
    game = GameState.from_seed(seed, variant, undo_limit=0)
    plan = list(line)
    log: list[str] = []
    replaced = tried = 0
    while plan and len(log) < MAX_ACTIONS:
        honest = greedy(Seen.from_view(game.view()))
        if honest is not None and honest != plan[0] and rng.random() < fraction:
            tried += 1
            trial = game.copy()
            trial.play(honest)
            result = solve(trial, max_seconds=seconds)
            if result.verdict == "win":
                game, plan = trial, list(result.line)
                log.append(honest)
                replaced += 1
                continue
        move = plan.pop(0)
        game.play(move)
        log.append(move)
    return Played(log, game.is_won(), {"replaced": replaced, "tried": tried})
