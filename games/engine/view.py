"""The engine's view for searchers: a position's own state under public names.

A searcher (the solver, a benchmark's player) reads a position at every node, millions of
times a search, so it reads the engine's compact state itself, as python-chess's users read
a board's bitboards: no copies, no calls. :class:`SearchView` is the base of
:class:`~games.engine.game.GameState` and holds that state:

* ``piles``: ``piles[0]`` the waste, ``piles[1..N]`` the columns, each bottom to top, as
  small-int cards (:mod:`.cards`); ``down[i]`` how many cards of pile ``i`` are face down
  (``down[0]`` is 0: the waste has none);
* ``stock``: the stock, bottom first: the next card to turn is ``stock[-1]``;
* ``found[k]``: the rank foundation ``k`` shows (0: empty), ``fsuit[k]`` its suit;
* ``home``: the cards on the foundations (``sum(found)``); ``score``; ``redeals_left``.

**Read-only.** These are the engine's own lists and numbers, read where they stand: outside
``games/engine`` nothing rebinds them, changes them in place or reads the engine's private
names (``tests/solver/test_engine_boundary.py`` parses every module for it). A searcher
changes a position only with the engine's moves (:func:`games.engine.moves.apply` and
:func:`~games.engine.moves.revert`, or ``GameState.play``), or with the two mutators below,
which searchers legitimately need and which say what they leave unchecked.

Why plain slots and not properties: a property costs about 85 ns a read against 7 for a slot
(CPython 3.11), and the searches read these at every node, some of them several times
(``benchmarks/search_speed.py`` measures the searches; docs/benchmarks.md, "Search speed").
"""

from __future__ import annotations

from .errors import InvalidLayout


class SearchView:
    """A position's state, read by searchers at every node (see the module docstring)."""

    __slots__ = ("piles", "down", "stock", "found", "fsuit", "home", "score", "redeals_left")

    piles: list[list[int]]
    down: list[int]
    stock: list[int]
    found: list[int]
    fsuit: tuple[int, ...]
    home: int
    score: int
    redeals_left: int

    # Mutators for searchers ------------------------------------------------

    def set_position(
        self,
        piles: list[list[int]],
        found: list[int],
        down: list[int],
        stock: list[int],
        *,
        home: int,
        score: int,
    ) -> None:
        """Put the game back in a position it was in: a searcher's snapshot (the beam
        keeps its layers' positions as tuples and plays on from each in turn).

        The lists become the game's own, not copied (the beam restores a position for
        every one it expands): pass lists nothing else holds. Nothing is checked: the
        caller vouches that the position is one of this game's (a snapshot of it), and
        ``home`` must be ``sum(found)``. The redeals left, the move counter and the undo
        history stay as they are."""
        self.piles = piles
        self.found = found
        self.down = down
        self.stock = stock
        self.home = home
        self.score = score

    def restock(self, stock: list[int]) -> None:
        """Deal the stock anew: the same cards in another order (``stock`` bottom first,
        as :attr:`stock` holds them), the rest of the position as it is. The samplers of
        unseen orders (``games.solver.evidence``, ``games.solver.horizon``) ask what a
        position would be worth had the stock been dealt otherwise.

        Refuses (:class:`~.errors.InvalidLayout`, the position unchanged) cards that are
        not the stock's: every card stays somewhere, once per copy."""
        if sorted(stock) != sorted(self.stock):
            raise InvalidLayout("a new stock must hold the same cards as the stock it replaces")
        self.stock = list(stock)


__all__ = ["SearchView"]
