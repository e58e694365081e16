"""Move filtering, safe foundation moves, move ordering and position scores.

Nothing here decides what is legal: the moves come from
:func:`games.engine.moves.legal` and are played by
:func:`games.engine.moves.apply`. This module only *chooses among* them.

Safe foundation moves (played alone, without branching)
--------------------------------------------------------
What "safe" means is the engine's (:mod:`games.engine.safe`, where the argument that a
safe home move loses no win is written down); the "send safe cards home" option of the
site plays the same moves. A safe home move is searched as the only child: a win exists
after it whenever one existed before, and a shortest win gets no longer.

Skipped moves (equivalent to a kept one)
----------------------------------------
* Moves to an empty column other than the first empty one: empty columns are
  identical (no face-down cards, no numbering in any rule), so the results
  differ only by a permutation of the columns.
* Moving again, at once, the unit (same card count) the previous move put on
  a column: ``Y: A->B`` then ``Y: B->C`` ends where ``Y: A->C`` ends, and that
  move was legal before (Y fits on C's top, which did not change; if C is
  empty, A->C is legal unless Y was A's whole pile, in which case the two
  moves only swap two columns). ``Y: B->A`` straight back is the same case.
"""

from __future__ import annotations

from functools import cache
from operator import itemgetter
from typing import TYPE_CHECKING

from games.engine.cards import KING
from games.engine.notation import DRAW, TO_COLUMN, TO_FOUNDATION, WASTE
from games.engine.safe import needed_home, next_safe_home

from . import core as _core

if TYPE_CHECKING:
    import random

    from games.engine import GameState
    from games.engine.notation import Move
    from games.engine.rules import RuleSet


def knowledge_for(game: GameState) -> Knowledge:
    """The :class:`Knowledge` of the game's rule set, made once per rule set (it holds
    only tables read from the rules; the searches make many, one per restart)."""
    return _knowledge_for(game.rules, _core.current())


@cache
def _knowledge_for(rules: RuleSet, backend: str) -> Knowledge:
    return Knowledge(rules, backend=backend)


class Knowledge:
    """Per-variant tables used by the filters and scores."""

    def __init__(self, game: GameState | RuleSet, *, backend: str = _core.PYTHON) -> None:
        rules = game.rules if hasattr(game, "rules") else game
        table = rules.build_table
        fsuit = tuple(rules.foundation_suit(k) for k in range(rules.foundations))
        self.rules = rules
        self.decks = rules.decks
        self.table = table
        cards = [(r << 2) | s for r in range(1, KING + 1) for s in range(4)]
        #: ``onto[x]``: the cards the build rule lets go onto card x.
        self.onto = {x: [c for c in cards if table[(x << 6) | c]] for x in cards}
        #: foundation indexes of each suit
        self.by_suit = [[k for k in range(rules.foundations) if fsuit[k] == s] for s in range(4)]
        #: ``home_from[card]``: (foundation, rank it must show) for each foundation
        #: ``card`` may go to.
        self.home_from = [tuple((k, (c >> 2) - 1) for k in self.by_suit[c & 3]) for c in range(64)]
        #: ``safe_if[card]``: (foundation, rank it must have reached) pairs, all of which
        #: make ``card`` safe to send home: every copy of each card
        #: :func:`games.engine.safe.needed_home` names is home exactly when every
        #: foundation of its suit has reached its rank (a suit has ``decks`` foundations).
        needed = needed_home(rules.build)
        self.safe_if: list[tuple[tuple[int, int], ...]] = [
            tuple((k, c >> 2) for c in needed.get(x, ()) for k in self.by_suit[c & 3])
            for x in range(64)
        ]
        self.never_safe = rules.takeback
        self.waste_unsafe_on_redeal = rules.draw > 1
        compiled = _core.MODULE if backend == _core.COMPILED else None
        if compiled is not None:  # the same order, computed in C (games/solver/core.py)
            self.ordered = _core.compiled_ordered(  # type: ignore[method-assign]
                compiled,
                rules,
                self.home_from,
                self.safe_if,
                self.never_safe,
                self.waste_unsafe_on_redeal,
                NOISE,
            )

    def is_safe_home(self, game: GameState, card: int, src: int) -> bool:
        """Whether sending ``card`` (top of pile ``src``) home loses nothing: the engine's
        definition (:func:`games.engine.safe.is_safe_home`, property-tested equal), read
        from a table (the engine's function was 6 % of a classic solve)."""
        if self.never_safe:
            return False
        if src == WASTE and self.waste_unsafe_on_redeal and game.redeals_left:
            return False
        found = game.found
        for k, rank in self.safe_if[card]:  # noqa: SIM110 - a loop is faster here
            if found[k] < rank:
                return False
        return True

    def can_go_home(self, game: GameState, card: int) -> bool:
        found = game.found
        for k, below in self.home_from[card]:  # noqa: SIM110 - a loop is faster here
            if found[k] == below:
                return True
        return False

    # Ordering -----------------------------------------------------------

    def ordered(
        self,
        game: GameState,
        moves: list[Move],
        last: Move | None,
        noise: random.Random | None = None,
    ) -> list[Move]:
        """The moves worth searching, best first; a safe home move comes alone.

        ``noise``, a ``random.Random``, perturbs the order (for restarts); the
        set of moves kept never depends on it."""
        piles = game.piles
        first_empty = 0
        for i in range(1, len(piles)):
            if not piles[i]:
                first_empty = i
                break
        scored: list[tuple[float, Move]] = []
        table = self.table
        down = game.down
        is_safe_home, can_go_home = self.is_safe_home, self.can_go_home
        # the unit the last move put on a column (moving it again at once is skipped)
        if last is not None and last[0] == TO_COLUMN:
            _, _, again_src, again_count = last
        else:
            again_src = again_count = -1
        for m in moves:
            kind, src, dst, count = m
            if kind == TO_FOUNDATION:
                if is_safe_home(game, piles[src][-1], src):
                    # Alone, and the engine's next one (the one the site's "send safe
                    # cards home" plays), so an analysis of a game with that option
                    # finds each of its automatic moves to be no decision.
                    return [next_safe_home(game) or m]
                scored.append((1000, m))
                continue
            if kind == DRAW:
                scored.append((60, m))
                continue
            if kind != TO_COLUMN:
                scored.append((0, m))
                continue
            target = piles[dst]
            if not target and dst != first_empty:
                continue
            if src == again_src and count == again_count:
                continue
            pile = piles[src]
            if src == WASTE:
                s = 200 if target else 40
            else:
                rest = len(pile) - count
                if rest == 0:
                    s = 300
                else:
                    below = pile[rest - 1]
                    if can_go_home(game, below):
                        s = 400
                    elif down[src] and rest == down[src]:
                        s = 250
                    elif table[(below << 6) | pile[rest]]:
                        s = -50
                    else:
                        s = 100 + 5 * (KING - (below >> 2))
                if not target:
                    s -= 150
            scored.append((s, m))
        if noise is not None:
            jitter = noise.random
            scored = [(s + NOISE * jitter(), m) for s, m in scored]
        scored.sort(key=_first, reverse=True)  # stable: ties keep the moves' order
        return [m for _, m in scored]


#: The score of a (score, move) pair: a C function, so sorting calls no Python code.
_first = itemgetter(0)


def evaluate(game: GameState) -> float:
    """A position score for choosing a hint when no win is found: cards home
    first, then few low cards buried under higher ones, then empty columns."""
    score = 10.0 * game.home
    for pile in game.piles[1:]:
        if not pile:
            score += 8
            continue
        lowest = 99
        for depth, card in enumerate(reversed(pile)):
            r = card >> 2
            if r < lowest:
                lowest = r
                if depth:
                    score -= depth * (14 - r) * 0.3
    return score


#: How far the ordering of a restart may move a move's score (a draw scores
#: 60, a move that digs 100 to 160: noise of this size swaps neighbours only).
NOISE = 60.0
