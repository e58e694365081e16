"""Post-game analysis of a lost game: where the win slipped away.

For a finished game that was not won, find the last position from which a win
was still possible, the move played there that lost it, and a winning line from
that position. Pure: the engine replays the log, :func:`~games.solver.prove.prove`
and :func:`~games.solver.solve` decide the positions; no Django.

The positions
-------------
Only the moves still in effect at the end count: the log's ``undo`` entries take
moves back and ``resign`` changes no card (:func:`effective_line`). Along those
moves winnability can only fall: a position from which no win is possible has
no winnable successor. So there is one boundary, the last winnable position, and
the move played from it (the last time it was played: a move taken back and
played again counts from its final playing) is the one that lost the game.

The search
----------
Each probe gets at most ``position_seconds`` (times a round's factor) and the whole
analysis ``total_seconds``. A "win" comes with a line the engine replays, so it is
certain; a "lost" is an exhausted search, so it is a proof too; "unknown" is a budget
that ran out and says nothing. Every probe shares one
:class:`~games.solver.prove.LostTable`: the positions proved lost so far, kept even by
searches cut short. A position's space holds the next position's, so the proof that
position ``i`` is lost reuses all of the proof for ``i + 1`` and only searches what is
new. So:

1. the end first (a resigned game may still have had a win), with both searches;
2. rounds, for 60 % of the time, each with twice the budget a position:
   back from the first proved loss one position at a time with the exhaustive search
   (:func:`~games.solver.prove.prove`; it finds wins too, and a win just before the
   proved loss is the exact answer); then the win-finding solver
   (:func:`~games.solver.solve`) on the first position not proved lost;
3. with the time left, the deal (when no win is known: a deal is likelier to have one
   than any later position), a bisection for the latest win the solver finds below that
   position (so an answer that is not exact still says where a win was left), then
   the rounds again.

Each position's exhaustive search is a :class:`~games.solver.prove.Prover` kept across
its probes (the last ``KEEP_PROVERS``), so a round with twice the budget goes on where
the last stopped instead of searching again what it left open. After every exhaustive
search the analysis looks up each undecided position of the game in the table: a search
of an earlier position proves later ones lost on its way.

A win found at a position also decides the positions after it for free while
the player's moves follow the solver's line. The losing move is known exactly
when the two ends meet; otherwise the result says the win slipped away between
them and how many positions there were left undecided.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine import RESIGN, UNDO, GameState

from .key import make_table_key
from .prove import BOTH, PROVE, SOLVE, LostTable, Prover, decide

__all__ = ["Played", "Postmortem", "Probe", "analyse", "decide", "effective_line"]

#: The verdicts, from the most precise: the losing move is known (``exact``); the win was
#: lost between two positions (``between``); a win was left at the end (``at_end``); no
#: win from the deal itself (``never``); no win found anywhere the budget allowed
#: (``no_win_found``).
VERDICTS = ("exact", "between", "at_end", "never", "no_win_found")

#: How many exhaustive searches cut short an analysis keeps, to go on with them later.
KEEP_PROVERS = 3

#: A probe shorter than this is not started: the answer would be "unknown" anyway.
MIN_PROBE_SECONDS = 0.05

Progress = Callable[[int, int], None]

#: The share of the analysis's time for the exact answer (proofs back from the loss and
#: a win just before); the rest looks for the latest win it can find below.
EXACT_SHARE = 0.6


@dataclass(frozen=True)
class Played:
    """A move still in effect at the end of the game, and the log entry (1-based) that
    played it last."""

    seq: int
    move: str


@dataclass(frozen=True)
class Probe:
    """One position the solver was asked about: its index on the effective line."""

    index: int
    verdict: str  # "win" | "lost" | "unknown"
    seconds: float
    nodes: int


@dataclass
class Postmortem:
    """The analysis in positions of the effective line (``index`` ``i``: after its
    first ``i`` moves); :meth:`to_dict` speaks in the replay's steps instead."""

    verdict: str
    line: list[Played]
    log_length: int
    last_win: int | None = None  # the last position known winnable
    first_lost: int | None = None  # the first position proved lost
    winning_line: list[str] = field(default_factory=list)  # from ``last_win``
    probes: list[Probe] = field(default_factory=list)
    stock_at_win: int | None = None
    seconds: float = 0.0
    position_seconds: float = 0.0
    total_seconds: float = 0.0

    def step_of(self, index: int) -> int:
        """The replay step (0: the deal; ``k``: after the log's ``k``-th action) showing
        position ``index`` last: just before the move played from it, or the end."""
        if index >= len(self.line):
            return self.log_length
        return self.line[index].seq - 1

    @property
    def undecided(self) -> int:
        """Positions strictly between the known win and the proved loss (or after the
        known win, to the end, when no loss was proved): the losing move was played from
        one of them, or from ``last_win``."""
        if self.last_win is None:
            return 0
        end = len(self.line) + 1 if self.first_lost is None else self.first_lost
        return max(0, end - self.last_win - 1)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON: the replay steps of the last win and the first proved loss, the
        losing move (exact verdict only), the winning line and what the search cost."""
        losing = None
        if self.verdict == "exact" and self.last_win is not None:
            played = self.line[self.last_win]
            losing = {"seq": played.seq, "move": played.move}
        return {
            "verdict": self.verdict,
            "win_step": None if self.last_win is None else self.step_of(self.last_win),
            "lost_step": (
                None
                if self.first_lost is None
                else (0 if self.first_lost == 0 else self.line[self.first_lost - 1].seq)
            ),
            "losing": losing,
            "line": list(self.winning_line),
            "stock_at_win": self.stock_at_win,
            "undecided": self.undecided,
            "checked": len(self.probes),
            "probes": [
                [self.step_of(p.index), p.verdict, round(p.seconds, 3)] for p in self.probes
            ],
            "seconds": round(self.seconds, 3),
            "position_seconds": self.position_seconds,
            "total_seconds": self.total_seconds,
        }


def effective_line(log: Sequence[str]) -> list[Played]:
    """The moves in effect at the end of ``log``: each ``undo`` takes the last one back,
    ``resign`` plays nothing.

    >>> [(p.seq, p.move) for p in effective_line(["s", "t1-t2", "undo", "s", "resign"])]
    [(1, 's'), (4, 's')]
    """
    stack: list[Played] = []
    for seq, action in enumerate(log, start=1):
        if action == UNDO:
            if stack:
                stack.pop()
        elif action != RESIGN:
            stack.append(Played(seq, action))
    return stack


def _positions(start: GameState, line: list[Played]) -> list[GameState]:
    """The position before each effective move, and the last one (``len(line) + 1``)."""
    engine = GameState.load({**start.dump(), "undo_limit": 0, "history": []})
    positions = [engine.copy()]
    for played in line:
        engine.play(played.move)
        positions.append(engine.copy())
    return positions


class _Search:
    """The state of one analysis: what is known of each position, and the budget."""

    def __init__(
        self,
        positions: list[GameState],
        line: list[Played],
        *,
        position_seconds: float,
        deadline: float,
        progress: Progress,
        clock: Callable[[], float],
    ) -> None:
        self.positions = positions
        self.line = line
        self.position_seconds = position_seconds
        self.deadline = deadline
        self.progress = progress
        self.clock = clock
        self.known: dict[int, str] = {}  # "win" or "lost"
        self.tried: dict[tuple[int, str], int] = {}  # the budget factor an "unknown" had
        self.probes: list[Probe] = []
        self.lo: int | None = None  # last known winnable
        self.lo_line: list[str] = []
        self.hi = len(positions) - 1  # the first proved lost (the end until proved)
        self.hi_proved = False
        #: positions proved lost, shared by every probe (all are positions of one game)
        self.table = LostTable()
        self.key = make_table_key(positions[0])
        self.provers: dict[int, Prover] = {}

    # Knowledge ---------------------------------------------------------------------------

    def learn_win(self, index: int, winning: list[str]) -> None:
        """``index`` is winnable by ``winning``; so is every position after it while the
        player's moves follow that line."""
        if self.lo is not None and index <= self.lo:
            return
        while index < len(self.line) and winning and self.line[index].move == winning[0]:
            self.known[index] = "win"
            index, winning = index + 1, winning[1:]
        self.known[index] = "win"
        self.lo, self.lo_line = index, list(winning)

    def learn_lost(self, index: int) -> None:
        self.known[index] = "lost"
        if not self.hi_proved or index < self.hi:
            self.hi, self.hi_proved = index, True

    def settled(self, index: int, mode: str, factor: int) -> bool:
        """Decided, or undecided by ``mode`` with at least ``factor`` times the budget."""
        return index in self.known or self.tried.get((index, mode), 0) >= factor

    def time_left(self) -> float:
        return self.deadline - self.clock()

    def probe(self, index: int, mode: str = BOTH, factor: int = 1) -> str | None:
        """Ask about ``index`` (``mode``: see :func:`decide`) with ``factor`` times the
        position budget, once per mode and budget; ``None`` once the total budget is
        spent."""
        if self.settled(index, mode, factor):
            return self.known.get(index, "unknown")
        budget = min(self.position_seconds * factor, self.time_left())
        if budget < MIN_PROBE_SECONDS:
            return None
        prover = None if mode == SOLVE else self.prover_of(index)
        result = decide(
            self.positions[index], max_seconds=budget, table=self.table, mode=mode, prover=prover
        )
        self.probes.append(Probe(index, result.verdict, result.seconds, result.nodes))
        if result.verdict == "win":
            self.learn_win(index, result.line)
        elif result.verdict == "lost":
            self.learn_lost(index)
        else:
            for covered in (PROVE, SOLVE) if mode == BOTH else (mode,):
                self.tried[(index, covered)] = factor
        if result.verdict != "unknown":
            self.provers.pop(index, None)
        if mode != SOLVE:
            self.absorb()
        self.progress(len(self.probes), len(self.probes) + self.estimate())
        return result.verdict

    def prover_of(self, index: int) -> Prover:
        """The exhaustive search of ``index``, kept across its probes so that each goes on
        where the last stopped (the ``KEEP_PROVERS`` last asked about; the others are
        dropped with the positions they held open, their proofs staying in the table)."""
        prover = self.provers.pop(index, None)
        if prover is None:
            prover = Prover(self.positions[index], table=self.table)
        self.provers[index] = prover  # the most recent last
        while len(self.provers) > KEEP_PROVERS:
            del self.provers[next(iter(self.provers))]
        return prover

    def absorb(self) -> None:
        """Every position of the game the table now holds is proved lost (an exhaustive
        search of one position proves others on its way: the game's later positions
        are in an earlier one's space)."""
        lost = self.table.keys
        for index in range(self.low() + 1, self.top()):
            if index not in self.known and self.key(self.positions[index]) in lost:
                self.learn_lost(index)
                return

    # The steps ---------------------------------------------------------------------------

    def low(self) -> int:
        """The last position known winnable; -1 before any."""
        return -1 if self.lo is None else self.lo

    def top(self) -> int:
        """Past the last position that may still be winnable: the first proved lost, or
        past the end while the end is not proved lost."""
        return self.hi if self.hi_proved else self.hi + 1

    def open(self) -> bool:
        return self.low() + 1 < self.top()

    def estimate(self) -> int:
        """Probes still to come at most in this round: a step for each position between
        the two ends (a proof each), and a bisection of them for a win."""
        gap = max(0, self.top() - self.low() - 1)
        return gap + gap.bit_length()

    def sweep(self, factor: int) -> bool:
        """Back from the first proved loss one position at a time while the positions are
        proved lost (each proof reuses the table the ones after it filled, so a step costs
        only what is new); False once out of time."""
        while self.open():
            verdict = self.probe(self.top() - 1, PROVE, factor)
            if verdict is None:
                return False
            if verdict != "lost":
                return True
        return True

    def win_side(self, factor: int) -> bool:
        """Bisect for the latest win below the undecided position just before the proved
        loss (each position asked once per budget); False once out of time."""
        ceiling = self.top() - 1
        while True:
            above = [i for i in range(self.low() + 1, ceiling) if self.settled(i, SOLVE, factor)]
            if above:
                ceiling = min(above)
            untried = list(range(self.low() + 1, ceiling))
            if not untried:
                return True
            if self.probe(untried[len(untried) // 2], SOLVE, factor) is None:
                return False

    def rounds(self, until: float) -> None:
        """Until the clock reads ``until``, round after round with twice the budget a
        position each: the sweep of proofs back from the loss, then the solver on the
        first position not proved lost (a win there is the exact answer). The proofs a
        cut-short search leaves in the table make each round start where the last one
        stopped."""
        factor = 1
        deadline, self.deadline = self.deadline, until
        try:
            while self.open():
                if not self.sweep(factor) or not self.open():
                    return
                if self.probe(self.top() - 1, SOLVE, factor) is None:
                    return
                factor *= 2
        finally:
            self.deadline = deadline

    def fallback(self) -> None:
        """With the time left: the deal (when no win is known yet: the likeliest to have
        one), then the bisection for the latest win below the first position not proved
        lost, so an answer that is not exact still narrows the range; then the rounds
        again. (Not the deal's exhaustive search with all the time left: measured in
        docs/benchmarks.md, round six, it cost deal 1's greedy game its exact answer,
        which the rounds find, and did not prove deal 5 lost in the time.)"""
        if self.lo is None and self.open() and self.probe(0, SOLVE) is None:
            return
        if self.open() and self.win_side(1):
            self.rounds(self.deadline)


def analyse(
    start: GameState,
    log: Sequence[str],
    *,
    position_seconds: float = 3.0,
    total_seconds: float = 60.0,
    start_line: Sequence[str] | None = None,
    progress: Progress | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Postmortem:
    """Analyse the game played from ``start`` (the deal; never changed) by ``log`` (the
    actions as logged: moves, ``undo``, ``resign``). ``start_line``: a winning line from
    the deal already known (a rating's), which saves solving the deal. ``progress(done,
    total)`` is called after each position the solver decides (``total`` an estimate)."""
    began = clock()
    line = effective_line(log)
    search = _Search(
        _positions(start, line),
        line,
        position_seconds=position_seconds,
        deadline=began + total_seconds,
        progress=progress or (lambda done, total: None),
        clock=clock,
    )
    if search.probe(len(line)) == "win":
        return _result(search, "at_end", log, began, total_seconds)
    if start_line and _wins(search.positions[0], start_line):
        search.learn_win(0, list(start_line))
    search.rounds(began + EXACT_SHARE * total_seconds)
    search.fallback()
    if search.lo == len(line):
        verdict = "at_end"
    elif search.hi_proved and search.hi == 0:
        verdict = "never"
    elif search.lo is None:
        verdict = "no_win_found"
    elif search.hi_proved and search.hi == search.lo + 1:
        verdict = "exact"
    else:
        verdict = "between"
    return _result(search, verdict, log, began, total_seconds)


def _wins(position: GameState, moves: Sequence[str]) -> bool:
    """Whether ``moves`` is a win from ``position`` (the engine is the judge)."""
    check = position.copy()
    try:
        check.replay(moves)
    except ValueError:
        return False
    return check.is_won()


def _result(
    search: _Search, verdict: str, log: Sequence[str], began: float, total: float
) -> Postmortem:
    lo = search.lo
    return Postmortem(
        verdict=verdict,
        line=search.line,
        log_length=len(log),
        last_win=lo,
        first_lost=search.hi if search.hi_proved else None,
        winning_line=search.lo_line if lo is not None else [],
        probes=search.probes,
        stock_at_win=None if lo is None else search.positions[lo].stock_count,
        seconds=search.clock() - began,
        position_seconds=search.position_seconds,
        total_seconds=total,
    )
