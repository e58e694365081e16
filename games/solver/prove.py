"""Proofs of loss: one exhaustive search that keeps every position it proves lost.

:func:`prove` is a single depth-first search over the engine's moves with the whole
budget (no restarts): the search loop of :mod:`.search` with the plain move order, the
same move filter
(:class:`~.heuristics.Knowledge`: safe foundation moves played alone, other empty
columns and re-moves of the unit just moved skipped, each argued there) and the same
canonical position key (:mod:`.key`: columns as a multiset, so interchangeable columns and
empty columns are one; the foundations left out, so the two foundations of a suit and
the two identical copies of a card are one; the stock by its length), and the two cuts
of :mod:`.deadlock`: a position where no column can ever empty and each keeps a card
that never moves is lost at once, and a draw that commutes with every move that could
come before it is searched alone; and a move the parent tried before the move that led
to a position, and that commutes with it, is asleep there (:mod:`.sleep`, which adds its
case to the argument below). It answers "win"
(a line the engine replays), "lost" (the space exhausted) or "unknown".

The loop (:class:`~.search.Search`) keeps a :class:`LostTable`: the keys of positions
proved lost, kept across searches of the same game. A plain depth-first search with a
visited set cannot say that a position it left is lost (it may have been cut off by a
position still being searched, on a cycle of column moves), so the search finds strongly
connected
components as it goes (Tarjan's algorithm over the search graph): a position is
*proved lost* once it and everything it depends on have been searched without a win.
The search graph has an edge from a position to each child kept by the filter, plus
one to its parent when the filter skipped a re-move (the skipped position is one move
from the parent, so searched there). When the search leaves a component's root, every
position of the component is lost:

    Suppose one had a win; take the one with the shortest win, of length ``d``. Its
    first move leads to a position with a win of length ``d - 1``. If the filter kept
    that move, the child is in the component or already in the table (every edge
    leaving a finished component goes to the table, and a dead position goes there
    unsearched), so it has a win shorter than ``d`` inside the component (a
    contradiction) or in the table (which holds only lost positions, by induction on
    the order they were added). If the filter skipped it: another empty column gives
    the same position up to columns (the kept move's child, same length); a draw
    searched alone has a win of length ``d - 1`` after it (:mod:`.deadlock`: the moves
    before the win's first draw commute with it); a safe foundation move kept alone has
    a win no longer than ``d - 1`` (:mod:`.heuristics`); a re-move gives a child of the
    parent, and the parent is in the component by the extra edge. Each case gives a
    shorter win in
    the component or a win in the table: none exists. (A move asleep, :mod:`.sleep`,
    gives a win no longer, from a position found earlier: the induction is on the
    shortest win, then the order positions were found; argued there.)

So a search cut by its budget still leaves proofs behind, and a later search (of an
earlier position of the same game, say: its space contains the later one's) stops at
once wherever it meets them. The table is only valid for positions of one game (the
key counts the stock by its length): :meth:`LostTable.accepts` checks that.

Turns
-----
A :class:`Prover` runs the search of one position in turns (``Search(resumable=True)``):
a turn stopped by its budget keeps the search path, the frames with the children still
to try (the move being tried when the clock ran out is tried again) and Tarjan's
bookkeeping of the positions still open, and leaves its private copy of the game where
the search stood; the next turn goes on from there. Without it a cut-short search kept
only its proofs, and the next one searched again every position the first had left open
(the analysis's rounds double the budget each time, so up to half of all its exhaustive
search was repeated). The turns of one prover visit exactly the positions, in the same
order, that one search with their summed budget visits (tested, node for node). Between
two turns other searches of the same game may add to the table (other provers, the
solver's restarts): the argument above holds unchanged, because what it needs of an edge
leaving a finished component is that it leads to a position *proved lost*, and every
key any search adds to the table is one (by induction on the order they were added, over
all the searches together). A table emptied meanwhile (``TABLE_LIMIT``) forgets proofs
and keeps the argument: the positions it held are still lost. A turn that finds the
position it searches proved lost by another search answers "lost" at once.

The one caveat is the key's 64-bit hash (see :mod:`.key`): a collision could mark a
position lost unseen (probability below 1e-7 at a million positions).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from games.engine.notation import format_move

from .search import TABLE_LIMIT, LostTable, Search

__all__ = ["BOTH", "PROVE", "SOLVE", "TABLE_LIMIT", "LostTable", "Prover", "decide", "prove"]

if TYPE_CHECKING:
    from games.engine import GameState

    from . import SolveResult

#: Less time than this is not worth starting another search of :func:`decide`.
MIN_SECONDS = 0.05
#: What :func:`decide` runs: the exhaustive search, the win-finding solver, or both, in
#: turns.
PROVE, SOLVE, BOTH = "prove", "solve", "both"
#: The first turn of each search when both run (CPU seconds); each round doubles it.
FIRST_TURN = 0.05
#: Whether the exhaustive search puts commuting moves to sleep (:mod:`.sleep`).
SLEEP = True


def decide(
    game: GameState,
    *,
    max_seconds: float,
    table: LostTable | None = None,
    mode: str = BOTH,
    prover: Prover | None = None,
) -> SolveResult:
    """Win or proof of loss, whichever comes first: the fast decider. ``PROVE``:
    :func:`prove` with ``table`` (each proof reuses the ones before it and leaves its own,
    even when cut short; it finds wins too, in small spaces). ``SOLVE``:
    :func:`~games.solver.solve`, whose restarts and beams find wins in large spaces.
    ``BOTH``: the two in turns, the solver first, ``FIRST_TURN`` seconds each, then twice
    as long each round, until one decides or the budget is spent. Neither search knows
    beforehand which kind of answer a position has (an easy win, a loss whose proof is
    mostly in the table), so each gets a short turn before either gets a long one: a
    position the exhaustive search decides alone in ``t`` seconds is decided in at most
    about ``4 t`` (the turns before the deciding one add up to less than it, for each
    search; the solver's beams are sized by its turn, so its time to a win is not
    bounded so simply). Every
    turn reads and fills ``table`` (one of their own when not given): the proofs a
    cut-short turn leaves are where the next turn of either search stops at once.

    The exhaustive search's turns are turns of one :class:`Prover` (``prover``, of
    ``game`` and ``table``, when the caller keeps one across calls; a new one else):
    each goes on where the last stopped."""
    from . import SolveResult, solve

    if prover is not None:
        table = prover.table
    elif table is None:
        table = LostTable()
    if mode == SOLVE:
        return solve(game, max_seconds=max_seconds, table=table)
    if prover is None:
        prover = Prover(game, table=table)
    if mode == PROVE:
        return prover.run(max_seconds=max_seconds)
    began, nodes, turn = time.perf_counter(), 0, FIRST_TURN
    while True:
        for kind in (SOLVE, PROVE):
            rest = max_seconds - (time.perf_counter() - began)
            if rest < MIN_SECONDS:
                return SolveResult("unknown", [], nodes, time.perf_counter() - began)
            if kind == SOLVE:
                result = solve(game, max_seconds=min(turn, rest), table=table)
            else:
                result = prover.run(max_seconds=min(turn, rest))
            nodes += result.nodes
            if result.verdict != "unknown":
                return SolveResult(result.verdict, result.line, nodes, time.perf_counter() - began)
        turn *= 2


def prove(
    game: GameState,
    *,
    max_seconds: float = 10.0,
    max_nodes: int | None = None,
    table: LostTable | None = None,
) -> SolveResult:
    """Decide ``game`` (never changed) by one exhaustive search within the budget:
    "win" with a line the engine replays, "lost" when the space is exhausted, else
    "unknown". ``table`` (a :class:`LostTable` of the same game) is read and grows
    with every position proved lost, whatever the verdict."""
    return Prover(game, table=table).run(max_seconds=max_seconds, max_nodes=max_nodes)


class Prover:
    """The exhaustive search of one position, in as many turns as its callers give it:
    a turn cut short by its budget keeps its place (the search path, the positions
    still open), so the next turn goes on where it stopped instead of searching again
    what the last one left open (only its proofs would survive in the table). The turns
    together are one search (see "Turns" in the module docstring)."""

    def __init__(self, game: GameState, *, table: LostTable | None = None) -> None:
        from . import _private_copy

        self.game = game
        self.search = Search(
            _private_copy(game),
            deadline=0.0,
            max_nodes=None,
            table=table,
            resumable=True,
            sleep=SLEEP,
        )

    @property
    def table(self) -> LostTable:
        return self.search.table

    def run(self, *, max_seconds: float, max_nodes: int | None = None) -> SolveResult:
        """One more turn of at most ``max_seconds`` (and ``max_nodes``): the verdict, a
        winning line replayed by the engine, and this turn's nodes and seconds."""
        from . import SolveResult, _replays_to_win

        start = time.perf_counter()
        search = self.search
        search.deadline, search.max_nodes = start + max_seconds, max_nodes
        verdict, moves = search.run()
        line = [format_move(m) for m in moves]
        if verdict == "win" and not _replays_to_win(self.game, line):  # the engine judges
            raise AssertionError("prover line does not replay to a win")
        return SolveResult(verdict, line, search.nodes, time.perf_counter() - start)
