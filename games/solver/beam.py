"""A beam search over draw layers: the first, incomplete phase of :func:`solve`.

The stock is turned once, one card at a time (or the variant's draw count),
so every line of play falls into *layers*: the positions reached with the
same number of cards drawn. From each position kept in a layer the search
lists the positions reachable without drawing (a small depth-first search
over the engine's moves, ``closure`` positions at most, safe foundation moves
and redundant moves handled by :class:`~.heuristics.Knowledge` as in the
main search), scores every one with :func:`score`, keeps the ``width`` best
of the whole layer (with ``spread``, at most that many of them with the same
foundations first: see :func:`_keep`) and draws from each of them to make the
next layer. Once
the stock is empty the best positions are handed to the exact search.

The loop does not call :func:`score` or the key function itself: it keeps each
position's piles as tuples with their score terms (:mod:`.beam_score`) and sorted
key entries (:func:`.key.make_beam_key_parts`), remade only for the piles a move or a
draw touches, which gives the same numbers (round ten of docs/benchmarks.md: about
1.3 times faster, the same positions kept in every layer; ``tests/solver/
test_beam_same.py`` compares every layer with the plain loop's).

This phase only ever answers "win" (with a line the engine replays) or
nothing: it drops positions by score, so it proves nothing, and "lost" is
left to the exhaustive search. What it adds is breadth where depth-first
search is weakest: a depth-first run commits to its first draw order and
pays for it fifty moves later; the beam compares whole layers of
alternatives by how many cards are home and how deeply the cards needed next
are buried.
"""

from __future__ import annotations

import gc
import heapq
import threading
import time
from contextlib import contextmanager
from heapq import heappush, heappushpop
from typing import TYPE_CHECKING, Any, TypeVar

from games.engine.notation import DRAW, DRAW_MOVE

from .beam_score import Needs, base_of, moved, pile_info, score_from
from .key import PILES_TOUCHED, make_beam_key_parts

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import TypeAlias

    from games.engine import GameState
    from games.engine.moves import Record
    from games.engine.notation import Move

    from .beam_score import PileInfo
    from .heuristics import Knowledge
    from .key import Entries

    #: A position as the beam keeps it: piles, foundations, face-down counts, stock
    #: length, cards home, score.
    Snapshot: TypeAlias = tuple[
        tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], int, int, int
    ]
    #: A line of moves linked backwards: (last move, the line before it), None at the root.
    Line: TypeAlias = "tuple[Move, Line] | None"

#: Weights of :func:`score`: cards home, empty columns, burial, next cards' depth, waste.
Weights = tuple[float, float, float, float, float]


#: Weights of :func:`score` (tuned on classic seeds).
W_HOME, W_EMPTY, W_BURY, W_NEXT, W_WASTE = 20.0, 12.0, 0.25, 3.0, 10.0
#: The same, as one tuple (cards home, empty columns, burial, depth of the cards the
#: foundations need next, waste length): what :func:`score` and :class:`Beam` take.
WEIGHTS: Weights = (W_HOME, W_EMPTY, W_BURY, W_NEXT, W_WASTE)


def score(game: GameState, weights: Weights = WEIGHTS) -> float:
    """Higher is better: cards home, empty columns, and the cards each
    foundation needs next close to the top of their pile (column or waste)."""
    w_home, w_empty, w_bury, w_next, w_waste = weights
    piles, found, fsuit = game.piles, game.found, game.fsuit
    total = w_home * game.home - w_waste * len(piles[0])
    # the depth of the shallowest copy of each card a foundation needs next (99: none
    # found); only these cards are looked up, so the scan below stays cheap
    need: dict[int, int] = {}
    for k, rank in enumerate(found):
        if rank < 13:
            need[((rank + 1) << 2) | fsuit[k]] = 99
    bury = 0
    empty = 0
    for pile in piles:
        if not pile:
            empty += 1
            continue
        lowest = 99
        d = 0
        for card in reversed(pile):
            if card in need and need[card] > d:
                need[card] = d
            r = card >> 2
            if r < lowest:
                lowest = r
                bury += d * (14 - r)
            d += 1  # noqa: SIM113 - cheaper than enumerate in this hot loop
    if not piles[0]:
        empty -= 1  # the waste is no column
    total += w_empty * empty - w_bury * bury
    for k, rank in enumerate(found):
        if rank < 13:
            d = need[((rank + 1) << 2) | fsuit[k]]
            if d != 99:
                total -= w_next * d
    return total


def _snapshot(game: GameState) -> Snapshot:
    return (
        tuple(map(tuple, game.piles)),
        tuple(game.found),
        tuple(game.down),
        len(game.stock),
        game.home,
        game.score,
    )


class Beam:
    """One beam search over ``game`` (mutated and left in some position)."""

    def __init__(
        self,
        game: GameState,
        *,
        know: Knowledge,
        legal: Callable[[GameState], list[Move]],
        deadline: float,
        width: int,
        closure: int,
        weights: Weights = WEIGHTS,
        spread: int = 0,
    ) -> None:
        self.game = game
        self.weights = weights
        #: at most this many positions a layer with the same foundations (0: no cap)
        self.spread = spread
        self.know = know
        self.legal = legal
        self.deadline = deadline
        self.width = width
        self.closure = closure
        self.stock0 = list(game.stock)
        self.nodes = 0
        #: whether any layer had more positions than the width (if not, a
        #: wider beam would search exactly the same positions)
        self.dropped = False
        self.final: list[tuple[Snapshot, Line]] = []

    def restore(self, snap: Snapshot) -> None:
        g = self.game
        piles, found, down, stock, home, points = snap
        g.set_position(
            list(map(list, piles)),
            list(found),
            list(down),
            self.stock0[:stock],
            home=home,
            score=points,
        )

    def run(self) -> list[Move] | None:
        """The winning move list, or ``None`` (nothing proven)."""
        with _no_cycle_collector():
            return self._run()

    def _run(self) -> list[Move] | None:
        from games.engine import moves as _moves

        game = self.game
        deck = game.rules.deck_size
        apply, revert = _moves.apply, _moves.revert
        ordered, legal, weights = self.know.ordered, self.legal, self.weights
        w_next = weights[3]
        stock_key, columns_key, recolumn = make_beam_key_parts(game)
        needs = Needs(game.fsuit)
        touched = PILES_TOUCHED
        restore = self.restore
        clock = time.perf_counter
        width = self.width
        # Without a spread cap a layer keeps its ``width`` best, so a position scoring
        # below the ``width``-th best so far cannot be kept: it is still expanded (its
        # moves may lead to better), but once :func:`.beam_score.base_of`, an upper
        # bound of its score, says so it is neither scored to the end nor snapshotted
        # (``out`` remembers its key, ``top`` holds the best (score, key) pairs so far).
        bounded = not self.spread and w_next >= 0 and width > 0
        # Each position comes with its piles as tuples (``cols``: the key, the snapshot
        # and the score read them), its sorted column entries (``scols``, the key's bulk),
        # its piles' score infos (:mod:`.beam_score`) and the sum of their burials; a move
        # remakes those of the piles it touches, a draw those of the waste (round ten: the
        # key, the score and the snapshot, made from every pile of every position, were
        # half of a beam's time).
        cols = list(map(tuple, game.piles))
        infos = [pile_info(c) for c in cols]
        start = (_snapshot(game), None, columns_key(game, cols), infos, sum(i[0] for i in infos))
        # a layer's positions as the previous layer kept them, each drawn from when it
        # is expanded (drawing there, not when it is kept, saves a restore and a
        # snapshot a kept position: about a tenth of the beam's time)
        layer: list[tuple[Snapshot, Line, Entries, list[PileInfo], int]] = [start]
        draw = False
        while layer:
            pool: dict[int, tuple[float, int, Snapshot, Line, Entries, list[PileInfo], int]] = {}
            out: set[int] = set()
            top: list[tuple[float, int]] = []

            def keep(
                k: int,
                cols: list[tuple[int, ...]],
                infos: list[PileInfo],
                bury: int,
                line: Line,
                scols: Entries,
                pool: dict[int, Any] = pool,
                out: set[int] = out,
                top: list[tuple[float, int]] = top,
            ) -> None:
                """Score the position just reached (key ``k``) into this layer's ``pool``,
                or only mark it seen (``out``) when its bound says it cannot be kept.
                The layer's containers are bound at definition, once a layer."""
                home = game.home
                base = base_of(cols, bury, home, weights)
                if len(top) == width and base < top[0][0]:
                    out.add(k)
                    return
                found = tuple(game.found)
                value = score_from(base, cols, infos, needs[found], w_next)
                snapshot = (
                    tuple(cols),
                    found,
                    tuple(game.down),
                    len(game.stock),
                    home,
                    game.score,
                )
                pool[k] = (value, k, snapshot, line, scols, infos, bury)
                if bounded:
                    (heappush if len(top) < width else heappushpop)(top, (value, k))

            for snap, line, scols, infos, bury in layer:
                if clock() > self.deadline:
                    return None
                restore(snap)
                cols = list(snap[0])
                if draw:
                    apply(game, DRAW_MOVE)
                    line = (DRAW_MOVE, line)
                    old = infos[0]
                    infos = infos.copy()
                    infos[0] = moved(old, cols[0], waste := tuple(game.piles[0]))
                    cols[0] = waste
                    bury += infos[0][0] - old[0]
                # depth-first over the moves other than drawing, recording each position
                budget = self.closure
                path: list[Record] = []
                lines = [line]
                frames: list[list[Any]] = [[None, 0, cols, infos, None, scols, bury]]
                k = hash((stock_key(game), cols[0], *scols))
                if k not in pool and k not in out:
                    keep(k, cols, infos, bury, line, scols)
                while frames and budget > 0:
                    frame = frames[-1]
                    children, i, up_cols, up_infos, _, up_scols, up_bury = frame
                    if children is None:  # first visit: the position the frame was made at
                        children = frame[0] = ordered(game, legal(game), frame[4])
                    if i >= len(children):
                        frames.pop()
                        lines.pop()
                        if path:
                            revert(game, path.pop())
                        continue
                    frame[1] = i + 1
                    move = children[i]
                    if move[0] == DRAW:
                        continue
                    record = apply(game, move)
                    budget -= 1
                    self.nodes += 1
                    here = (move, lines[-1])
                    if game.home == deck:
                        return _unlink(here)
                    piles = game.piles
                    cols = up_cols.copy()
                    changed = touched[move]
                    for p in changed:
                        cols[p] = tuple(piles[p])
                    scols = recolumn(game, up_scols, up_cols, cols, changed)
                    k = hash((stock_key(game), cols[0], *scols))
                    if k in pool or k in out:
                        revert(game, record)
                        continue
                    infos = up_infos.copy()
                    bury = up_bury
                    for p in changed:
                        was = up_infos[p]
                        infos[p] = now = moved(was, up_cols[p], cols[p])
                        bury += now[0] - was[0]
                    keep(k, cols, infos, bury, here, scols)
                    path.append(record)
                    lines.append(here)
                    # its moves listed when first visited: not at all if the budget is
                    # spent now (the last position of most closures of a large layer)
                    frames.append([None, 0, cols, infos, move, scols, bury])
            if len(pool) + len(out) > width:
                self.dropped = True
            best = _keep(pool, width, self.spread)
            layer = []
            self.final = []
            draw = True
            for _, _, snap, line, scols, infos, bury in best:
                if snap[3]:
                    layer.append((snap, line, scols, infos, bury))
                else:
                    self.final.append((snap, line))
        return None

    @staticmethod
    def line(tail: Line) -> list[Move]:
        """The move list a linked line ``(move, parent)`` stands for."""
        return _unlink(tail)

    def endgames(self) -> list[tuple[Snapshot, Line]]:
        """The best positions with the stock empty, as (snapshot, line) pairs."""
        return self.final


@contextmanager
def _no_cycle_collector() -> Iterator[None]:
    """Python's cyclic garbage collector off for the block (back on after, if it was).

    Why: a beam allocates millions of tuples (snapshots, linked lines) that never form a
    cycle, and the collector walks the live ones again and again: a quarter of a beam's
    time (docs/benchmarks.md, round eight). Reference counting still frees them.

    Only on a process's main thread (a solver process, a Celery task, a benchmark): the
    switch is the whole process's, and a beam on a thread of a server (the thread pool
    that stands in for the solver processes with ``FT_SOLVER_PROCESSES=0``) must not
    stop the collector for the server's own threads, nor race another beam's switch."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


#: A pool entry: (score, key, snapshot, line, ...): what follows the line is the beam's own.
_Item = TypeVar("_Item", bound="tuple[Any, ...]")


def _keep(pool: dict[int, _Item], width: int, spread: int) -> list[_Item]:
    """The ``width`` best of a layer; with ``spread``, at most ``spread`` of them with the
    same foundations (the best ones of each), the places left then filled by score.

    Why: the best-scored positions of a layer are mostly one position's variants (the
    same cards home, the tableau rearranged), so a plain beam follows a single plan; the
    cap keeps several plans alive across the draws (docs/benchmarks.md, round seven)."""
    if not spread or len(pool) <= width:
        return heapq.nlargest(width, pool.values())
    ranked = sorted(pool.values(), reverse=True)
    kept: list[_Item] = []
    over: list[_Item] = []
    count: dict[tuple[int, ...], int] = {}
    for item in ranked:
        found = item[2][1]
        n = count.get(found, 0)
        if n < spread:
            count[found] = n + 1
            kept.append(item)
            if len(kept) == width:
                return kept
        else:
            over.append(item)
    return kept + over[: width - len(kept)]


def _unlink(line: Line) -> list[Move]:
    out = []
    while line is not None:
        move, line = line
        out.append(move)
    out.reverse()
    return out
