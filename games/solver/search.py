"""Depth-first search with a transposition table over the engine's own moves.

The search works on a private copy of the game and walks it with
:func:`games.engine.moves.apply` / :func:`~games.engine.moves.revert` (no
copies per node). At each position it asks :func:`games.engine.moves.legal`
(or the equal but faster generator of :mod:`.movegen`) for the legal moves,
lets :class:`~.heuristics.Knowledge` drop the ones that are provably
redundant and order the rest, and goes down the first child not seen before.
The explicit stack (no recursion) keeps deep lines cheap.

Completeness (why "lost" is a proof): every position entered is recorded in
the transposition table and all its kept children are tried before the
search backs out of it. A child is left out only when (a) another kept move
of the same position leads to the same position up to a permutation of
columns (another empty column), (b) the move re-moves at once the unit the
previous move placed: the resulting position is a child of the parent
position (one direct move), which is searched there, or (c) a safe
foundation move is played instead, which keeps every win and never makes a
shortest win longer (see :mod:`.heuristics`). By induction on the length of
a shortest win, a position with a win always has a win-keeping position
among those entered, one step nearer the win, so an exhausted search proves
there is no win. The one caveat is the 64-bit hash of the key (see
:mod:`.key`): a collision could cut a position unseen (probability below
1e-7 at a million positions).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from games.engine import moves as _moves

from .heuristics import knowledge_for
from .key import make_key_function
from .movegen import make_generator

if TYPE_CHECKING:
    from games.engine import GameState
    from games.engine.notation import Move

#: How often (in nodes) the clock is read.
CLOCK_EVERY = 128


class Budget(Exception):
    """Raised inside the search when the time or node budget runs out."""


class Search:
    """One search over one position (the game given is mutated and restored)."""

    def __init__(
        self, game: GameState, *, deadline: float, max_nodes: int | None, noise=None
    ) -> None:
        self.game = game
        self.noise = noise
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self.know = knowledge_for(game)
        self.key = make_key_function(game)
        self.legal = make_generator(game)
        self.seen: set[int] = set()

    def run(self) -> tuple[str, list[Move]]:
        """``("win", moves)``, ``("lost", [])`` or ``("unknown", [])``."""
        game = self.game
        if game.is_won():
            return "win", []
        apply, revert, legal = _moves.apply, _moves.revert, self.legal
        ordered = self.know.ordered
        key = self.key
        noise = self.noise
        seen = self.seen
        seen.add(key(game))
        max_nodes = self.max_nodes if self.max_nodes is not None else -1
        deadline = self.deadline
        clock = time.perf_counter
        nodes = self.nodes
        deck = game.rules.deck_size
        path: list = []  # undo records of the moves from the root
        frames: list[list] = [[ordered(game, legal(game), None, noise), 0]]
        try:
            while frames:
                frame = frames[-1]
                children, i = frame
                if i >= len(children):
                    frames.pop()
                    if path:
                        revert(game, path.pop())
                    continue
                frame[1] = i + 1
                if nodes == max_nodes:
                    raise Budget
                move = children[i]
                record = apply(game, move)
                nodes += 1
                if not nodes % CLOCK_EVERY and clock() > deadline:
                    revert(game, record)
                    raise Budget
                if game._home == deck:
                    path.append(record)
                    line = [r[0] for r in path]
                    self._restore(path)
                    return "win", line
                k = key(game)
                if k in seen:
                    revert(game, record)
                    continue
                seen.add(k)
                path.append(record)
                frames.append([ordered(game, legal(game), move, noise), 0])
        except Budget:
            self._restore(path)
            return "unknown", []
        finally:
            self.nodes = nodes
        return "lost", []

    def _restore(self, path: list) -> None:
        while path:
            _moves.revert(self.game, path.pop())
