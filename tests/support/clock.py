"""The tests' clocks, all kept by one library (time-machine).

The wall clock: every unit test starts at :data:`PINNED_AT` (a Wednesday, noon UTC, the
start of a minute and of an hour) and the clock runs on from there (``tick=True``):
``time.time``, ``datetime.now``, ``date.today`` and so ``django.utils.timezone.now``,
everywhere in the process, C extensions included (tests/conftest.py, ``wall_clock``). So a
day's deal is open whatever the real hour, and a rate limit's window (a minute, an hour)
starts with the test: one that counts to a "2/min" limit straddles two windows only if it
runs for a minute. A test moves the clock with the fixture's ``move_to`` and ``shift``.

The integration and browser tiers run real servers in other processes (daphne, Celery,
Chromium), whose clocks no library in this process can move: they keep the real one, and
their in-process checks travel with time-machine where they need a fixed instant.

The solver's budgets read ``time.perf_counter``, which time-machine leaves alone: a test
that checks a budget in seconds steps that clock itself (:class:`StepClock`), so what it
asserts is a count of the solver's looks at the clock, never the machine's speed.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

#: Where the unit tier's wall clock starts, in every test.
PINNED_AT = datetime(2026, 12, 9, 12, 0, tzinfo=UTC)


class StepClock:
    """A stand-in for ``time.perf_counter`` that moves ``tick`` seconds each time it is
    read (``reads`` counts them): a budget in seconds becomes a budget in readings."""

    def __init__(self, tick: float) -> None:
        self.tick = tick
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.now += self.tick
        self.reads += 1
        return self.now


def step_perf_counter(monkeypatch: pytest.MonkeyPatch, tick: float) -> StepClock:
    """Replace ``time.perf_counter`` (the one the solver's modules read, through
    ``time``) by a :class:`StepClock` for the rest of the test; returns it."""
    clock = StepClock(tick)
    monkeypatch.setattr(time, "perf_counter", clock)
    return clock
