"""Proofs of loss: one exhaustive search that keeps every position it proves lost.

:func:`prove` is a single depth-first search over the engine's moves with the whole
budget (no restarts): the same move filter and order as :mod:`.search`
(:class:`~.heuristics.Knowledge`: safe foundation moves played alone, other empty
columns and re-moves of the unit just moved skipped, each argued there) and the same
canonical position key (:mod:`.key`: columns sorted, so interchangeable columns and
empty columns are one; the foundations left out, so the two foundations of a suit and
the two identical copies of a card are one; the stock by its length). It answers "win"
(a line the engine replays), "lost" (the space exhausted) or "unknown".

What it adds is a :class:`LostTable`: the keys of positions proved lost, kept across
searches of the same game. A plain depth-first search with a visited set cannot say
that a position it left is lost (it may have been cut off by a position still being
searched, on a cycle of column moves), so the search here finds strongly connected
components as it goes (Tarjan's algorithm over the search graph): a position is
*proved lost* once it and everything it depends on have been searched without a win.
The search graph has an edge from a position to each child kept by the filter, plus
one to its parent when the filter skipped a re-move (the skipped position is one move
from the parent, so searched there). When the search leaves a component's root, every
position of the component is lost:

    Suppose one had a win; take the one with the shortest win, of length ``d``. Its
    first move leads to a position with a win of length ``d - 1``. If the filter kept
    that move, the child is in the component or already in the table (every edge
    leaving a finished component goes to the table), so it has a win shorter than
    ``d`` inside the component (a contradiction) or in the table (which holds only
    lost positions, by induction on the order they were added). If the filter skipped
    it: another empty column gives the same position up to columns (the kept move's
    child, same length); a safe foundation move kept alone has a win no longer than
    ``d - 1`` (:mod:`.heuristics`); a re-move gives a child of the parent, and the
    parent is in the component by the extra edge. Each case gives a shorter win in
    the component or a win in the table: none exists.

So a search cut by its budget still leaves proofs behind, and a later search (of an
earlier position of the same game, say: its space contains the later one's) stops at
once wherever it meets them. The table is only valid for positions of one game (the
key counts the stock by its length): :meth:`LostTable.accepts` checks that.

The one caveat is the key's 64-bit hash (see :mod:`.key`): a collision could mark a
position lost unseen (probability below 1e-7 at a million positions).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from games.engine import moves as _moves
from games.engine.notation import TO_COLUMN, format_move

from .heuristics import knowledge_for
from .key import make_key_function
from .movegen import make_generator

if TYPE_CHECKING:
    from games.engine import GameState
    from games.engine.rules import RuleSet

    from . import SolveResult

#: How often (in nodes) the clock is read.
CLOCK_EVERY = 128
#: A table holding more positions than this (about 100 MB) is emptied before the next
#: search: forgetting proofs costs time, never soundness.
TABLE_LIMIT = 1_500_000
#: Less time than this is not worth starting the second search of :func:`decide`.
MIN_SECONDS = 0.05
#: What :func:`decide` runs: the exhaustive search, the win-finding solver, or both, in
#: that order.
PROVE, SOLVE, BOTH = "prove", "solve", "both"
#: The share of a probe's budget for the proof of loss when both run.
PROVE_SHARE = 0.5


def decide(
    game: GameState, *, max_seconds: float, table: LostTable | None = None, mode: str = BOTH
) -> SolveResult:
    """Win or proof of loss, whichever comes first: the fast decider. ``PROVE``:
    :func:`prove` with ``table`` (each proof reuses the ones before it and leaves its own,
    even when cut short; it finds wins too, in small spaces). ``SOLVE``:
    :func:`~games.solver.solve`, whose restarts and beams find wins in large spaces.
    ``BOTH``: the first for ``PROVE_SHARE`` of the budget, then, if it was undecided,
    the second for the rest."""
    from . import SolveResult, solve

    if mode == SOLVE:
        return solve(game, max_seconds=max_seconds)
    share = 1.0 if mode == PROVE else PROVE_SHARE
    first = prove(game, max_seconds=max_seconds * share, table=table)
    if mode == PROVE or first.verdict != "unknown":
        return first
    rest = max_seconds - first.seconds
    if rest < MIN_SECONDS:
        return first
    second = solve(game, max_seconds=rest)
    return SolveResult(
        second.verdict, second.line, first.nodes + second.nodes, first.seconds + second.seconds
    )


class _Budget(Exception):
    pass


class LostTable:
    """Keys of positions proved lost, for the positions of one game.

    The key counts the stock by its length (the stock's order never changes without
    a redeal), so a key means the same position only among games whose stocks are
    prefixes of one another: the positions of one deal's play.
    """

    def __init__(self) -> None:
        self.keys: set[int] = set()
        self._rules: RuleSet | None = None
        self._stock: list[int] = []

    def __len__(self) -> int:
        return len(self.keys)

    def accepts(self, game: GameState) -> bool:
        """Whether ``game`` is a position of the game the table holds (and adopt it
        if the table is new). With redeals the key holds the whole stock: any
        position of the variant will do."""
        if self._rules is None:
            self._rules, self._stock = game.rules, list(game._stock)
            return True
        if game.rules != self._rules:
            return False
        if game.rules.redeals:
            return True
        stock, mine = game._stock, self._stock
        if len(stock) > len(mine):
            if stock[: len(mine)] != mine:
                return False
            self._stock = list(stock)
            return True
        return mine[: len(stock)] == stock


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
    from . import SolveResult, _private_copy, _replays_to_win

    start = time.perf_counter()
    if table is None:
        table = LostTable()
    elif not table.accepts(game):
        raise ValueError("this table holds the positions of another game")
    if len(table) > TABLE_LIMIT:
        table.keys.clear()
    work = _private_copy(game)
    prover = _Prover(work, table, start + max_seconds, max_nodes)
    verdict, moves = prover.run()
    line = [format_move(m) for m in moves]
    if verdict == "win" and not _replays_to_win(game, line):  # the engine is the judge
        raise AssertionError("prover line does not replay to a win")
    return SolveResult(verdict, line, prover.nodes, time.perf_counter() - start)


class _Prover:
    def __init__(
        self, game: GameState, table: LostTable, deadline: float, max_nodes: int | None
    ) -> None:
        self.game = game
        self.table = table
        self.deadline = deadline
        self.max_nodes = -1 if max_nodes is None else max_nodes
        self.nodes = 0
        self.know = knowledge_for(game)
        self.key = make_key_function(game)
        self.legal = make_generator(game)

    def run(self):  # noqa: C901 - the hot loop is kept in one function on purpose
        game, lost = self.game, self.table.keys
        if game.is_won():
            return "win", []
        key, legal, ordered = self.key, self.legal, self.know.ordered
        apply, revert = _moves.apply, _moves.revert
        root = key(game)
        if root in lost:
            return "lost", []
        deck = game.rules.deck_size
        clock, deadline, max_nodes = time.perf_counter, self.deadline, self.max_nodes
        nodes = 0
        # Tarjan's bookkeeping: ``index`` of every position searched and not yet
        # proved lost (on the search path or waiting for a position on it), in the
        # order found; ``pending`` the same keys in that order.
        index: dict[int, int] = {root: 0}
        pending: list[int] = [root]
        counter = 1
        path: list = []
        # a frame: [children, next child, key, index, low]
        frames: list[list] = [[ordered(game, legal(game), None), 0, root, 0, 0]]
        try:
            while frames:
                frame = frames[-1]
                children, i = frame[0], frame[1]
                if i >= len(children):
                    frames.pop()
                    if frame[4] == frame[3]:  # the root of a component: all of it lost
                        # ``pending`` is in index order: this frame's key and the
                        # keys after it are the component
                        at = len(pending) - 1
                        while pending[at] != frame[2]:
                            at -= 1
                        done = pending[at:]
                        del pending[at:]
                        for k in done:
                            del index[k]
                        lost.update(done)
                    elif frames and frame[4] < frames[-1][4]:
                        frames[-1][4] = frame[4]
                    if path:
                        revert(game, path.pop())
                    continue
                frame[1] = i + 1
                if nodes == max_nodes:
                    raise _Budget
                move = children[i]
                record = apply(game, move)
                nodes += 1
                if not nodes % CLOCK_EVERY and clock() > deadline:
                    revert(game, record)
                    raise _Budget
                if game._home == deck:
                    path.append(record)
                    line = [r[0] for r in path]
                    self._restore(path)
                    return "win", line
                k = key(game)
                if k in lost:
                    revert(game, record)
                    continue
                seen = index.get(k)
                if seen is not None:
                    revert(game, record)
                    if seen < frame[4]:
                        frame[4] = seen
                    continue
                path.append(record)
                moves = legal(game)
                low = counter
                if move[0] == TO_COLUMN:
                    # the filter skips re-moving this unit: depend on the parent
                    dst, count = move[2], move[3]
                    for m in moves:
                        if m[0] == TO_COLUMN and m[1] == dst and m[3] == count:
                            low = frame[3]
                            break
                index[k] = counter
                pending.append(k)
                frames.append([ordered(game, moves, move), 0, k, counter, low])
                counter += 1
        except _Budget:
            self._restore(path)
            return "unknown", []
        finally:
            self.nodes = nodes
        return "lost", []

    def _restore(self, path: list) -> None:
        while path:
            _moves.revert(self.game, path.pop())
