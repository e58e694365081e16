"""The figures of one phase (:class:`Tally`, merged across client processes and summed up
as plain numbers) and their min/median/max across repeated runs."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Tally:
    players: int = 0
    seconds: float = 0.0  # the measured window
    connected: int = 0
    watchers: int = 0
    connect_failures: Counter[str] = field(default_factory=Counter)
    acked: int = 0  # answered and accepted (echoed), sent within the window
    acked_total: int = 0  # accepted over the whole phase, warm-up too (the durability check)
    undos: int = 0  # of acked
    refused: Counter[str] = field(default_factory=Counter)  # by code, whole phase
    refused_in_window: int = 0
    lost: int = 0  # no answer within the timeout (that player stopped)
    dropped: Counter[str] = field(default_factory=Counter)  # sockets closed under a player
    errors: Counter[str] = field(default_factory=Counter)  # the client's own failures
    late: int = 0  # open loop: answers that came after the player's next tick
    finished: int = 0  # games that ended (the policy should prevent it)
    latencies: list[float] = field(default_factory=list)  # ms, send -> answer, in window
    # When each of ``latencies`` was sent (the client's perf_counter, s): per-second figures.
    sent: list[float] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)  # ms, the client waking late for a send
    watched: int = 0  # versions the watchers should have seen
    missed: int = 0  # of those, skipped: a later version reached the watcher
    unarrived: int = 0  # of those, after the last one seen, not there once the watchers settled
    fanout: list[float] = field(default_factory=list)  # ms, player's send -> watcher's copy

    def accepted(self, sent_at: float, got: float, in_window: bool, *, undo: bool) -> None:
        self.acked_total += 1
        if in_window:
            self.acked += 1
            self.undos += undo
            self.latencies.append((got - sent_at) * 1000)
            self.sent.append(sent_at)

    def refusal(self, code: str, in_window: bool) -> None:
        self.refused[code] += 1
        self.refused_in_window += in_window

    def merge(self, other: Tally) -> None:
        for name, value in vars(other).items():
            if name == "seconds":
                continue
            mine = getattr(self, name)
            if isinstance(mine, Counter):
                mine.update(value)
            elif isinstance(mine, list):
                mine.extend(value)
            else:
                setattr(self, name, mine + value)


def percentile(samples: list[float], q: float) -> float | None:
    """Nearest-rank percentile (``q`` in 0..100); None without samples.

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 50), percentile([1.0, 2.0], 99)
    (3.0, 2.0)
    """
    if not samples:
        return None
    ordered = sorted(samples)
    rank = max(1, min(len(ordered), math.ceil(q * len(ordered) / 100)))
    return ordered[rank - 1]


def summary(tally: Tally) -> dict[str, Any]:
    """The plain figures of a phase (what ``--json`` writes and the tables print)."""

    def ms(samples: list[float], q: float) -> float | None:
        value = percentile(samples, q)
        return None if value is None else round(value, 2)

    return {
        "players": tally.players,
        "connected": tally.connected,
        "connect_failures": dict(tally.connect_failures),
        "seconds": tally.seconds,
        "per_s": round(tally.acked / tally.seconds, 1) if tally.seconds else 0.0,
        "acked": tally.acked,
        "acked_total": tally.acked_total,
        "undos": tally.undos,
        "refused": dict(tally.refused),
        "refused_in_window": tally.refused_in_window,
        "lost": tally.lost,
        "dropped": dict(tally.dropped),
        "errors": dict(tally.errors),
        "late": tally.late,
        "finished": tally.finished,
        "p50_ms": ms(tally.latencies, 50),
        "p99_ms": ms(tally.latencies, 99),
        "max_ms": ms(tally.latencies, 100),
        "client_lag_p99_ms": ms(tally.lags, 99),
        "watchers": tally.watchers,
        "watched_versions": tally.watched,
        "missed_versions": tally.missed,
        "unarrived_versions": tally.unarrived,
        "fanout_p50_ms": ms(tally.fanout, 50),
        "fanout_p99_ms": ms(tally.fanout, 99),
    }


def by_second(tally: Tally) -> list[dict[str, Any]]:
    """The answers by the second they were sent in, from the first send: how many, their
    p50, p99 and max (ms). Where late acks cluster (the first second, or all along)."""
    if not tally.sent:
        return []
    start = min(tally.sent)
    buckets: dict[int, list[float]] = {}
    for sent_at, ms in zip(tally.sent, tally.latencies, strict=True):
        buckets.setdefault(int(sent_at - start), []).append(ms)
    return [
        {
            "second": second + 1,
            "answers": len(values),
            "p50_ms": round(percentile(values, 50) or 0.0, 1),
            "p99_ms": round(percentile(values, 99) or 0.0, 1),
            "max_ms": round(max(values), 1),
            "over_50_ms": sum(v > 50 for v in values),
        }
        for second, values in sorted(buckets.items())
    ]


def spread(values: list[float | None]) -> dict[str, float | None]:
    """Min, median and max of one figure across repeated runs (None values left out).

    >>> spread([3.0, 1.0, 2.0])
    {'min': 1.0, 'median': 2.0, 'max': 3.0}
    """
    present = [v for v in values if v is not None]
    if not present:
        return {"min": None, "median": None, "max": None}
    return {"min": min(present), "median": statistics.median(present), "max": max(present)}


def min_med_max(values: list[float], fmt: str = "{}") -> str:
    """``min / median / max`` of repeated runs, each formatted with ``fmt``: how every
    load table reports a figure (the machines are shared and noisy)."""
    ordered = sorted(values)
    middle = statistics.median(ordered)
    return " / ".join(fmt.format(v) for v in (ordered[0], middle, ordered[-1]))
