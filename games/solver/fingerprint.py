"""Solver copies: whether a won game's move log is, from its first move, a line this
project's own solver gives on the true deal.

The solver is public, and a player who learnt the stock's order can run it and play its
line (issue 10's attack 2 ran ``games.solver.solve`` on the scouted deal). Its lines are
deterministic for a given budget: the analysis solves the true deal with a few budgets a
copier would plausibly use (and takes the daily deal's certified line) and measures the
longest run of the log, from its first move, that one of these lines plays move for move.
An honest player, however strong, parts from a program's line within the first draws it
could not foresee. This catches copies of *this* solver only, from the start: a different
solver, or a copy that deviates early, leaves no such trace (see docs/fairplay.md).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from games.engine import GameState

from . import solve

#: Budgets (seconds) a copier would plausibly have used.
BUDGETS = (0.1, 0.5, 2.0)
#: A share of the log played as a solver line (from move 1) above this holds the result.
THRESHOLD = 0.9


@dataclass(frozen=True)
class CopyReport:
    share: float  # the longest solver-line prefix of the log / the log's length
    moves: int
    solves: int
    seconds: float
    suspicious: bool

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def common_prefix(log: Sequence[str], line: Sequence[str]) -> int:
    """How many moves ``log`` and ``line`` share from the start.

    >>> common_prefix(["s", "t1-t2", "s"], ["s", "t1-t2", "w-f1"])
    2
    """
    n = 0
    for a, b in zip(log, line, strict=False):
        if a != b:
            break
        n += 1
    return n


def solver_copy(
    seed: int,
    variant: str,
    log: Sequence[str],
    *,
    certified: Sequence[str] = (),
    max_seconds: float = 10.0,
) -> CopyReport:
    """The share of ``log`` that a solver line of the true deal plays from move 1."""
    began = time.perf_counter()
    best = common_prefix(log, certified) if certified else 0
    solves = 0
    for budget in BUDGETS:
        left = max_seconds - (time.perf_counter() - began)
        if best == len(log) or left <= 0:
            break
        result = solve(
            GameState.from_seed(seed, variant, undo_limit=0), max_seconds=min(budget, left)
        )
        solves += 1
        if result.verdict == "win":
            best = max(best, common_prefix(log, result.line))
    share = best / len(log) if log else 0.0
    return CopyReport(
        share=round(share, 4),
        moves=len(log),
        solves=solves,
        seconds=round(time.perf_counter() - began, 3),
        suspicious=share > THRESHOLD,
    )
