"""Scripted players for the fair-play benchmark and its tests (pure: no Django).

Two kinds, kept apart by what they are given:

* **Honest** players see only what a player sees. They are driven by
  :func:`play_honest`, which hands them a :class:`Seen` built from
  ``Game.view()`` (the JSON a browser gets: never the stock order) and plays
  the move they return on the true game. A ``Seen`` has no stock order at all:
  to look ahead, an honest player must *invent* one (:meth:`Seen.sample`, a
  random completion of the unseen cards). :func:`greedy` climbs a position
  score; :class:`Determinized` plans with the solver on a sampled completion
  and replans whenever a turned card contradicts its sample ("determinized
  replanning": solver-like lines without foresight, the hardest honest case).
* **Clairvoyant** players know the deal: :func:`clairvoyant` plays the
  solver's line on the true deal; :func:`clairvoyant_mixed` lets the honest
  player choose a share of the decisions and re-solves on the true deal after
  each one, so its lines mix foresight with honest choices.

Every function returns a :class:`Played`: the move log and whether it won.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from games.engine import Game, parse_card, parse_variant
from games.engine import moves as _moves
from games.engine.cards import full_deck
from games.engine.notation import DRAW, TO_FOUNDATION, format_move

from . import solve
from .beam import score
from .heuristics import Knowledge

#: Longest game a scripted player may play (a guard against loops).
MAX_ACTIONS = 2000


@dataclass
class Played:
    moves: list[str]
    won: bool
    info: dict = field(default_factory=dict)


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
    def from_view(cls, view: dict) -> Seen:
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

    def sample(self, rng: random.Random | None) -> Game:
        """A game in this position with the unseen cards in a random order
        (``rng=None``: a fixed, meaningless order, for players that never look)."""
        cards = list(self.unseen)
        if rng is not None:
            rng.shuffle(cards)
        columns = []
        for col, hidden in zip(self.columns, self.down, strict=True):
            columns.append([cards.pop() for _ in range(hidden)] + list(col))
        game = Game(
            parse_variant(self.variant),
            columns,
            cards,
            waste=self.waste,
            foundations=list(self.foundations),
            down=list(self.down),
            undo_limit=0,
        )
        game._redeals_left = self.redeals_left
        return game


#: An honest policy: the seen position -> the move to play, or None to stop.
Policy = Callable[[Seen], "str | None"]


def play_honest(seed: int, variant: str, policy: Policy) -> Played:
    """Play ``policy`` on the deal: it is shown only ``Game.view()``."""
    game = Game.from_seed(seed, variant, undo_limit=0)
    log: list[str] = []
    while not game.is_won() and len(log) < MAX_ACTIONS:
        move = policy(Seen.from_view(game.view()))
        if move is None:
            break
        game.play(move)
        log.append(move)
    return Played(log, game.is_won())


# Honest players ----------------------------------------------------------------------


def climb_move(game: Game, know: Knowledge | None = None) -> str | None:
    """The non-draw move that raises :func:`~.beam.score` the most, if any does
    (a strict rise, so repeated climbing always ends)."""
    know = know or Knowledge(game)
    legal = know.ordered(game, _moves.legal(game), None)
    if len(legal) == 1 and legal[0].kind == TO_FOUNDATION:
        return format_move(legal[0])  # a safe foundation move
    best, best_score = None, score(game) + 1e-9
    for move in legal:
        if move.kind == DRAW:
            continue
        record = _moves.apply(game, move)
        value = score(game)
        _moves.revert(game, record)
        if value > best_score:
            best, best_score = move, value
    return None if best is None else format_move(best)


def greedy(seen: Seen) -> str | None:
    """Climb the position score; draw when no move raises it; stop when stuck."""
    game = seen.sample(None)  # the stock order is never read: it is not there
    move = climb_move(game)
    if move is not None:
        return move
    return "s" if game._stock else None


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
                self.plan, self.sampled, self.failed_at = list(result.line), list(game._stock), None
                return
        self.failed_at = seen.stock


def determinized(seed: int, variant: str, rng_seed: int, *, seconds: float = 0.3) -> Played:
    player = Determinized(rng_seed, seconds=seconds)
    played = play_honest(seed, variant, player)
    played.info["solves"] = player.solves
    return played


def play_greedy(seed: int, variant: str) -> Played:
    return play_honest(seed, variant, greedy)
