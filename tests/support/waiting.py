"""Waiting, in the integration tier, for what another process (a Celery worker, a server)
does in its own time."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest


def wait_for(what: Callable[[], Any], timeout: float = 60) -> Any:
    """Poll ``what`` until it returns something true, and return that; fail naming the
    last value after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    value = None
    while time.monotonic() < deadline:
        value = what()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"not reached in {timeout} s (last: {value!r})")


def clear_of_window_edge(seconds: float, margin: float) -> None:
    """Sleep into the next fixed window of the rate limits' clock (``games.throttles``
    counts in windows of ``seconds``) if this one has less than ``margin`` seconds left.
    A test that makes a limit's N requests to a server and expects the next one refused
    fails if they straddle two windows; the servers' clock cannot be pinned from here."""
    left = seconds - time.time() % seconds
    if left < margin:
        time.sleep(left + 0.05)


@pytest.fixture(autouse=True)
def clear_of_midnight() -> None:
    """For the tiers that talk to live servers (imported by their conftests): their tests
    read today's date (UTC), then ask the servers and workers about that day's deal, board
    or week, which close at midnight, so a test running over 00:00 would ask about a closed
    day and fail. One that would start in a day's last two minutes waits for the next day
    instead (about once in 720 tests started at random times)."""
    clear_of_window_edge(86_400, margin=120)
