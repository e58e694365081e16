"""Depth-first search with a transposition table over the engine's own moves; the one
search loop of the solver (the restarts of :func:`~games.solver.solve`, the exhaustive
search of :mod:`.prove`, the end games of the beam all run it).

The search works on a private copy of the game and walks it with
:func:`games.engine.moves.apply` / :func:`~games.engine.moves.revert` (no
copies per node). At each position it asks :func:`games.engine.moves.legal`
(or the equal but faster generator of :mod:`.movegen`) for the legal moves,
lets :class:`~.heuristics.Knowledge` drop the ones that are provably
redundant and order the rest, and goes down the first child not seen before.
The explicit stack (no recursion) keeps deep lines cheap.

Completeness (why "lost" is a proof): every position entered is recorded and all its
kept children are tried before the search backs out of it. A child is left out only
when (a) another kept move of the same position leads to the same position up to a
permutation of columns (another empty column), (b) the move re-moves at once the unit
the previous move placed: the resulting position is a child of the parent position
(one direct move), which is searched there, or (c) a safe foundation move is played
instead, which keeps every win and never makes a shortest win longer (see
:mod:`.heuristics`), or (d) the draw is searched alone because no move without a draw
can ever free the waste's top: the draw commutes with every other move, so a shortest
win may play it first (see :mod:`.deadlock`; off in the restarts of
:func:`~games.solver.solve`, which keep their move order). A position :mod:`.deadlock`
shows dead (no column can ever empty, and each keeps a card that never moves) is lost
and goes into the table unsearched. (e) With ``sleep`` (the exhaustive search of
:mod:`.prove`), a move the parent tried before the move that led here, and that commutes
with it, is not tried: the position after it is one move from the one the parent reached
first (:mod:`.sleep`, where the induction below is extended to it). By induction on the
length of a shortest win, a position with a win always has a win-keeping position among
those entered, one step nearer the win, so an exhausted search proves there is no win.

Proofs that outlive the search: the positions seen are kept as Tarjan's algorithm keeps
them, so that every position left without a win, and without depending on a position
still open, goes into a :class:`LostTable` (the argument is in :mod:`.prove`). A table
shared by several searches of one game (the restarts of one solve, the probes of one
post-game analysis) lets each stop at once wherever an earlier one proved a loss; the
bookkeeping costs about 5 % a node (measured on classic deals, see docs/benchmarks.md).

A search made ``resumable`` keeps its place when the budget runs out and goes on from it
when run again (the turns of :class:`~.prove.Prover`; argued in :mod:`.prove`); the
others give the game back as they found it.

The one caveat is the 64-bit hash of the key (see :mod:`.key`): a collision could cut a
position unseen (probability below 1e-7 at a million positions).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from games.engine import moves as _moves
from games.engine.notation import DRAW, DRAW_MOVE, TO_COLUMN, WASTE, Move

from . import core as _core
from .deadlock import DEAD, DRAW_ONLY, OPEN, make_probe
from .heuristics import knowledge_for
from .key import ColumnsTouched, make_table_key, make_table_key_parts
from .movegen import make_generator
from .sleep import make_touches

if TYPE_CHECKING:
    import random
    from collections.abc import Callable
    from typing import TypeAlias

    from games.engine import GameState
    from games.engine.moves import Record
    from games.engine.rules import RuleSet

    #: ``enter(parent, move, i, verdict, record, key, cols, before, h0, h1)``, made by
    #: :meth:`Search._entering`
    Enter: TypeAlias = Callable[
        [list[Any], Move, int, int, Record, int, tuple[int, ...], int, int, int], None
    ]

#: The children of a position whose draw commutes with every other move (:mod:`.deadlock`).
_DRAW_ALONE = [DRAW_MOVE]
#: How often (in nodes) the clock is read.
CLOCK_EVERY = 128
#: A table holding more positions than this (about 100 MB) is emptied before the next
#: search: forgetting proofs costs time, never soundness.
TABLE_LIMIT = 1_500_000


class Budget(Exception):
    """Raised inside the search when the time or node budget runs out."""


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
            self._rules, self._stock = game.rules, list(game.stock)
            return True
        if game.rules != self._rules:
            return False
        if game.rules.redeals:
            return True
        stock, mine = game.stock, self._stock
        if len(stock) > len(mine):
            if stock[: len(mine)] != mine:
                return False
            self._stock = list(stock)
            return True
        return mine[: len(stock)] == stock


class _Walk:
    """Where a search stands, kept between the turns of a resumable one.

    ``frames``: a frame per position on the search path, root first: ``[children, next
    child, key, index, low, {child tried: its key}, then what leaving it puts back: the
    columns the move to it touched, the parent's sum of column hashes and the parent's
    hashes of those columns (0 where fewer)]``; ``path``: the undo records of the moves
    from the root. Tarjan's bookkeeping: ``index`` of every position searched and not yet
    proved lost (on the search path or waiting for a position on it), in the order found,
    ``pending`` the same keys in that order, ``counter`` the next index."""

    __slots__ = ("frames", "path", "index", "pending", "counter")

    def __init__(
        self,
        frames: list[list[Any]],
        path: list[Record],
        index: dict[int, int],
        pending: list[int],
        counter: int,
    ) -> None:
        self.frames, self.path, self.index, self.pending = frames, path, index, pending
        self.counter = counter


class Search:
    """One search over one position (the game given is mutated and restored).

    ``table``: a :class:`LostTable` of the same game, read and filled (a fresh one when
    not given); ``noise``: a ``random.Random`` that perturbs the move order (never which
    moves are kept)."""

    def __init__(
        self,
        game: GameState,
        *,
        deadline: float,
        max_nodes: int | None,
        noise: random.Random | None = None,
        table: LostTable | None = None,
        cuts: bool = True,
        lone_draws: bool = True,
        resumable: bool = False,
        sleep: bool = False,
    ) -> None:
        self.game = game
        self.noise = noise
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        if table is None:
            table = LostTable()
        elif not table.accepts(game):
            raise ValueError("this table holds the positions of another game")
        if len(table) > TABLE_LIMIT:
            table.keys.clear()
        self.table = table
        self.know = knowledge_for(game)
        #: the table key (:mod:`.key`); the loop keeps it up to date move by move
        self.key = make_table_key(game)
        self.column, self.whole = make_table_key_parts(game)
        self.touched = ColumnsTouched()
        #: column layouts (with the foundations) the probe found open on their own
        self.layouts: set[int] = set()
        self.legal = make_generator(game)
        #: the dead-position and lone-draw cuts (``None`` where they do not apply)
        self.probe = make_probe(game) if cuts else None
        self.lone_draws = lone_draws
        #: the one-step sleep set (:mod:`.sleep`; ``None`` where it does not apply)
        self.touches = make_touches(game) if sleep else None
        #: moves put to sleep, summed over the search's turns
        self.asleep = 0
        #: of those, the moves whose position was still open (a virtual edge that Tarjan's
        #: bookkeeping reads, :mod:`.sleep`), summed over the turns
        self.waits = 0
        #: ``resumable``: a search stopped by its budget keeps its place (the game is
        #: left where the search stood) and :meth:`run` goes on from there.
        self.resumable = resumable
        self._paused: _Walk | None = None
        #: the whole loop in C where the compiled core runs and serves the variant
        #: (games/solver/csrc/search_*.c): it keeps its own copy of the state, so the game
        #: given stays as it is; ``None``: the Python loop below runs
        self.compiled = _core.compiled_search(
            game,
            table.keys,
            noise=noise,
            cuts=cuts,
            lone_draws=lone_draws,
            sleep=sleep,
            resumable=resumable,
        )

    def run(self) -> tuple[str, list[Move]]:
        """``("win", moves)``, ``("lost", [])`` or ``("unknown", [])``; a resumable
        search that answered "unknown" goes on where it stopped when run again (with
        the budget then in ``deadline`` and ``max_nodes``)."""
        if self.compiled is not None:
            return self._run_compiled()
        game = self.game
        if len(self.layouts) > TABLE_LIMIT:
            self.layouts.clear()
        self.nodes = 0
        # the table key kept up to date: ``hashes[i]`` column i's hash, their sum the
        # key's columns (:mod:`.key`); a move recomputes only the columns it touches
        hashes = [0] + [self.column(game, i) for i in range(1, len(game.piles))]
        walk = self._paused
        if walk is not None:
            self._paused = None
            if walk.frames[0][2] in self.table.keys:  # another search proved the root lost
                self._restore(walk.path)
                return "lost", []
        else:
            begun = self._begin(sum(hashes))
            if isinstance(begun, str):
                return begun, []
            walk = begun
        try:
            return self._loop(walk, hashes)
        except Budget:
            if self.resumable:  # keep the place: the game stays where the search stood
                self._paused = walk
            else:
                self._restore(walk.path)
            return "unknown", []

    def _run_compiled(self) -> tuple[str, list[Move]]:
        """:meth:`run` in one call of the compiled loop: the same verdict, line, nodes,
        proofs and moves put to sleep (``tests/solver/test_core.py``)."""
        c: Any = self.compiled
        max_nodes = -1 if self.max_nodes is None else self.max_nodes
        try:
            verdict, line = c.run(self.deadline, max_nodes, time.perf_counter)
        finally:
            self.nodes, self.asleep, self.waits = c.nodes, c.asleep, c.waits
        return verdict, [Move(*m) for m in line]

    def _begin(self, total: int) -> _Walk | str:
        """The walk from the root (the game as it is, its columns' hashes summing to
        ``total``), or the verdict where the root needs no search: "win" when it is won,
        "lost" when the table holds it or the probe shows it dead."""
        game, lost = self.game, self.table.keys
        if game.is_won():
            return "win"
        root = self.whole(game, total)
        if root in lost:
            return "lost"
        first = self.probe(game) if self.probe is not None else OPEN
        if first == DEAD:
            lost.add(root)
            return "lost"
        if first == DRAW_ONLY and self.lone_draws:
            children = _DRAW_ALONE
        else:
            children = self.know.ordered(game, self.legal(game), None, self.noise)
        # no move led to the root: its frame has nothing to put back when it is left
        return _Walk([[children, 0, root, 0, 0, {}, (), 0, 0, 0]], [], {root: 0}, [root], 1)

    def _loop(self, walk: _Walk, hashes: list[int]) -> tuple[str, list[Move]]:
        """The search from where ``walk`` stands (``hashes``: the game's columns' hashes)
        to a win or the root's proof; :class:`Budget` when the budget runs out, ``walk``
        then where the search stood (the move being tried taken back, tried again on a
        resume). The hot loop: what every node needs is here, in locals; what a position
        entered or left needs, in :meth:`_entering` and :meth:`_leaving`. The probe is
        asked only after a draw or a move from the waste: the waste's top changed (where
        both cuts mostly arise; asking everywhere halves the speed)."""
        game, lost, touched = self.game, self.table.keys, self.touched
        column, whole, probe, layouts = self.column, self.whole, self.probe, self.layouts
        apply, revert, enter = _moves.apply, _moves.revert, self._entering(walk)
        leave, clock, deadline = self._leaving(walk, hashes), time.perf_counter, self.deadline
        deck, max_nodes = game.rules.deck_size, self.max_nodes
        if max_nodes is None:
            max_nodes = -1
        frames, index, sleeping = walk.frames, walk.index, self.touches is not None
        total, nodes = sum(hashes), 0
        try:
            while frames:
                frame = frames[-1]
                children, i = frame[0], frame[1]
                if i >= len(children):  # every child tried: back to the parent
                    total = leave(frames.pop(), total)
                    continue
                if nodes == max_nodes:
                    raise Budget
                frame[1] = i + 1
                move = children[i]
                record = apply(game, move)
                nodes += 1
                if not nodes % CLOCK_EVERY and clock() > deadline:
                    revert(game, record)
                    frame[1] = i  # a resumed search tries this move again
                    raise Budget
                if game.home == deck:
                    return "win", self._won(walk.path, record)
                # the key: the columns the move touched hashed again (at most two)
                cols = touched[move]
                before, h0, h1 = total, 0, 0
                if cols:
                    c0, h0 = cols[0], hashes[cols[0]]
                    hashes[c0] = h = column(game, c0)
                    total += h - h0
                    if len(cols) > 1:
                        c1, h1 = cols[1], hashes[cols[1]]
                        hashes[c1] = h = column(game, c1)
                        total += h - h1
                k = whole(game, total)
                if sleeping:  # only the sleep set reads the children tried
                    frame[5][move] = k
                if k not in lost:
                    seen = index.get(k)
                    if seen is None:
                        # the layouts whose columns alone said OPEN are remembered: a
                        # draw leaves the columns and foundations as they were (.deadlock)
                        verdict = (
                            probe(game, layouts, hash((total, *game.found)))
                            if probe is not None and (move[0] == DRAW or move[1] == WASTE)
                            else OPEN
                        )
                        if verdict != DEAD:
                            enter(frame, move, i, verdict, record, k, cols, before, h0, h1)
                            continue
                        lost.add(k)  # dead: lost whatever is searched (see .deadlock)
                    elif seen < frame[4]:
                        frame[4] = seen
                revert(game, record)  # not entered: back, the key back to the parent's
                total = before
                if cols:
                    hashes[c0] = h0
                    if len(cols) > 1:
                        hashes[c1] = h1
            return "lost", []
        finally:
            self.nodes = nodes

    def _entering(self, walk: _Walk) -> Enter:
        """``enter(parent, move, i, verdict, record, key, cols, before, h0, h1)``: enter
        the position ``move`` (the ``parent`` frame's ``i``-th child, played as
        ``record``; ``verdict`` the probe's) led to: give it the next index (Tarjan's
        bookkeeping) and a frame on ``walk``, which keeps what leaving it puts back (the
        parent's key sum ``before`` and hashes ``h0``, ``h1`` of the columns ``cols``),
        with its children: the draw alone where it commutes with everything else, else
        the moves the knowledge keeps, in its order, less those the sleep set puts to
        sleep. Made once a run: what it reads is in its closure."""
        game, legal, ordered, noise = self.game, self.legal, self.know.ordered, self.noise
        lone, touches, lost, search = self.lone_draws, self.touches, self.table.keys, self
        frames, path, index, pending = walk.frames, walk.path, walk.index, walk.pending

        def enter(
            parent: list[Any],
            move: Move,
            i: int,
            verdict: int,
            record: Record,
            key: int,
            cols: tuple[int, ...],
            before: int,
            h0: int,
            h1: int,
        ) -> None:
            path.append(record)
            low = counter = walk.counter
            walk.counter = counter + 1
            index[key] = counter
            pending.append(key)
            if verdict == DRAW_ONLY and lone:  # the draw commutes with everything else
                frames.append([_DRAW_ALONE, 0, key, counter, low, {}, cols, before, h0, h1])
                return
            moves = legal(game)
            if move[0] == TO_COLUMN:
                # the filter skips re-moving this unit: depend on the parent
                dst, count = move[2], move[3]
                for m in moves:
                    if m[0] == TO_COLUMN and m[1] == dst and m[3] == count:
                        low = parent[3]
                        break
            kids = ordered(game, moves, move, noise)
            if touches is not None and i:
                # the one-step sleep set (.sleep): the moves the parent tried before
                # this one that commute with it are not tried here; this position
                # depends on the positions they led to
                bits, tried, awake = touches[move], parent[5], []
                for m in kids:
                    kj = tried.get(m)
                    if kj is None or touches[m] & bits:
                        awake.append(m)
                        continue
                    search.asleep += 1
                    if kj not in lost:  # a virtual edge to a position still open
                        search.waits += 1
                        seen = index.get(kj)
                        if seen is None:  # cannot happen; depend on the parent
                            seen = parent[3]
                        if seen < low:
                            low = seen
                kids = awake
            frames.append([kids, 0, key, counter, low, {}, cols, before, h0, h1])

        return enter

    def _leaving(self, walk: _Walk, hashes: list[int]) -> Callable[[list[Any], int], int]:
        """``leave(frame, total) -> total``: leave the position of ``frame`` (just taken
        off ``walk``) for its parent: Tarjan's bookkeeping (the root of a component, its
        low its own index, proves the whole component lost: ``pending`` is in index
        order, so its key and the keys after it are the component; any other passes its
        low to its parent), then the move to it taken back and the parent's key sum and
        column hashes put back from the frame (nothing hashed again)."""
        game, revert, lost = self.game, _moves.revert, self.table.keys
        frames, path, index, pending = walk.frames, walk.path, walk.index, walk.pending

        def leave(frame: list[Any], total: int) -> int:
            if frame[4] == frame[3]:
                key = frame[2]
                at = len(pending) - 1
                while pending[at] != key:
                    at -= 1
                done = pending[at:]
                del pending[at:]
                for k in done:
                    del index[k]
                lost.update(done)
            elif frames and frame[4] < frames[-1][4]:
                frames[-1][4] = frame[4]
            if not path:  # the root: nothing to put back
                return total
            revert(game, path.pop())
            cols = frame[6]
            if cols:
                hashes[cols[0]] = frame[8]
                if len(cols) > 1:
                    hashes[cols[1]] = frame[9]
            result: int = frame[7]
            return result

        return leave

    def _won(self, path: list[Record], record: Record) -> list[Move]:
        """The winning line: the moves of ``path``, then ``record``'s; the game given
        back as the search found it."""
        path.append(record)
        line = [r[0] for r in path]
        self._restore(path)
        return line

    @property
    def paused(self) -> bool:
        """Whether a resumable search stopped by its budget holds its place."""
        if self.compiled is not None:
            return bool(self.compiled.paused)
        return self._paused is not None

    def _restore(self, path: list[Record]) -> None:
        while path:
            _moves.revert(self.game, path.pop())
