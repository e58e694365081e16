"""Machine play from the server's own timestamps (pure: no Django).

The server stamps every accepted action when it commits it, so a client cannot forge its
pace. A person needs time to see a card and move the mouse: even fast players, tapping at
five a second in bursts, think for longer between most moves; a script plays a 259-move win
in four seconds, or at a fixed beat. Three features of the gaps between consecutive actions
say which:

* the median gap (a person's median think time is well over ``MIN_MEDIAN_MS``);
* the share of gaps under ``FAST_MS`` (a person has some, in bursts of obvious moves, never
  most of a game);
* regularity: the coefficient of variation of the gaps (a person's gaps vary wildly, from a
  quarter of a second to minutes; a script with a fixed delay does not).

Only games with at least ``MIN_ACTIONS`` actions are judged: a short game says too little.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

MIN_ACTIONS = 30
FAST_MS = 150
MIN_MEDIAN_MS = 250
MAX_FAST_SHARE = 0.5
MIN_VARIATION = 0.2


@dataclass(frozen=True)
class Timing:
    """The pace of one game, and whether it looks like a machine (with the reason)."""

    actions: int
    seconds: float
    median_ms: float
    fast_share: float
    variation: float
    machine: bool
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def timing_of(stamps_ms: Sequence[int]) -> Timing:
    """The features of a game whose actions were stamped at ``stamps_ms`` (in order).

    >>> timing_of([i * 15 for i in range(259)]).machine
    True
    >>> human = [0]
    >>> for i in range(1, 200):
    ...     human.append(human[-1] + (400, 1800, 650, 3100, 900)[i % 5])
    >>> timing_of(human).machine
    False
    """
    gaps = [max(0, b - a) for a, b in zip(stamps_ms, stamps_ms[1:], strict=False)]
    actions = len(stamps_ms)
    if not gaps:
        return Timing(actions, 0.0, 0.0, 0.0, 0.0, False, "")
    median = float(statistics.median(gaps))
    fast = sum(g < FAST_MS for g in gaps) / len(gaps)
    mean = statistics.fmean(gaps)
    # In floats: statistics.pstdev works in exact fractions, milliseconds per game here,
    # and this runs in every ranked verification.
    spread = math.sqrt(sum((g - mean) ** 2 for g in gaps) / len(gaps))
    variation = spread / mean if mean > 0 else 0.0
    seconds = (stamps_ms[-1] - stamps_ms[0]) / 1000
    reason = ""
    if actions >= MIN_ACTIONS:
        if median < MIN_MEDIAN_MS:
            reason = f"median think time {median:.0f} ms (a person's is over {MIN_MEDIAN_MS} ms)"
        elif fast > MAX_FAST_SHARE:
            reason = (
                f"{fast:.0%} of the moves came under {FAST_MS} ms after the one before"
                f" (a person's: in bursts, never most)"
            )
        elif variation < MIN_VARIATION:
            reason = (
                f"the moves came at a regular beat (variation {variation:.2f};"
                f" a person's is over {MIN_VARIATION})"
            )
    return Timing(
        actions=actions,
        seconds=round(seconds, 3),
        median_ms=round(median, 1),
        fast_share=round(fast, 4),
        variation=round(variation, 4),
        machine=bool(reason),
        reason=reason,
    )
