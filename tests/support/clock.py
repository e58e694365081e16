"""The rate limits' wall clock stopped inside a window, for tests that count to a limit in
this process (``tests/conftest.py`` does it for every unit test)."""

from __future__ import annotations

import time as time_module

import pytest


class PinnedClock:
    """The ``time`` module with its wall clock stopped at ``at``: ``time()`` answers ``at``,
    everything else (``monotonic``, ``perf_counter``: paces and timings) runs on."""

    def __init__(self, at: float) -> None:
        self.at = at

    def time(self) -> float:
        return self.at

    def __getattr__(self, name: str) -> object:
        return getattr(time_module, name)


def pin_throttle_clock(monkeypatch: pytest.MonkeyPatch) -> float:
    """Stop the rate limits' wall clock 30 s into a minute (and a quarter of an hour) in
    this process, everywhere a window is computed: the counters (``games.throttles``), the
    sockets' counters taken from the event loop (``games.realtime.loop_throttle``) and a
    socket's check of its allowance's window (``games.realtime.consumers``). Returns it."""
    import games.realtime.consumers as consumers
    import games.realtime.loop_throttle as loop_throttle
    import games.throttles as throttles

    pinned = (int(time_module.time()) // 3600) * 3600 + 1830.0
    for module in (throttles, loop_throttle, consumers):
        monkeypatch.setattr(module, "time", PinnedClock(pinned))
    return pinned
