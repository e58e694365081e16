"""Channels' test communicators, patient with the messages a test expects.

They wait 1 s for a message by default, which a loaded machine exceeds now and then
between two steps of a consumer (test_no_daily_code_or_seed_is_sent_before_the_day_closes
failed so on main, at load 3 on 2 cores). Only a failing test waits the longer time; a
test that a message must *not* come keeps its own short wait (``receive_nothing``).
"""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.testing import WebsocketCommunicator

#: How long a test waits for a message it expects, unless it says otherwise.
EXPECTED_WITHIN_S = 10.0


def patient_communicators(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make :data:`EXPECTED_WITHIN_S` the communicators' default wait for a message (a
    timeout a test passes itself still holds)."""
    methods = [(ApplicationCommunicator, "receive_output")] + [
        (WebsocketCommunicator, name) for name in ("connect", "receive_from", "receive_json_from")
    ]
    for cls, name in methods:
        original = getattr(cls, name)

        async def patient(self: Any, timeout: float = EXPECTED_WITHIN_S, *, _wait=original) -> Any:
            return await _wait(self, timeout)

        monkeypatch.setattr(cls, name, patient)
