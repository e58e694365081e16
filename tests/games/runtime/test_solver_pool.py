"""Hints are solved away from the thread that serves moves: while one player's hint is
being searched, another player's moves are answered at once."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest

from games.runtime import solver_pool
from tests.support.sockets import ask, db, join, run_async

from ..conftest import practice_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("empty_channel_layer"),
]


@run_async
async def test_a_slow_hint_does_not_hold_up_another_players_moves(
    user, bob, monkeypatch, settings
) -> None:
    settings.FT_SOLVER_PROCESSES = 0
    searching, done = threading.Event(), threading.Event()

    def slow_hint(state: dict[str, Any], seconds: float) -> str | None:
        searching.set()
        done.wait(timeout=30)  # a long search, in the pool's thread, until the test ends it
        return "s"

    monkeypatch.setattr(solver_pool, "hint_for_state", slow_hint)
    asker, _ = await join((await db(practice_game)(user)).pk, user)
    mover, _ = await join((await db(practice_game)(bob)).pk, bob)
    await asker.send_json_to({"type": "hint", "id": "h1"})
    try:
        assert await asyncio.to_thread(searching.wait, 30)  # the hint is being searched now
        accepted = await ask(mover, {"type": "move", "id": "m1", "move": "s"})
        assert accepted["type"] == "accepted"
        # The move was answered while the hint was still being searched.
        assert await asker.receive_nothing(timeout=0.1)
    finally:
        done.set()
    hinted = json.loads(await asker.receive_from(timeout=5))
    assert hinted["type"] == "hint" and hinted["move"] == "s" and hinted["hints"] == 1
    await asker.disconnect()
    await mover.disconnect()


def test_the_pool_solves_a_hint_from_an_engine_dump() -> None:
    from games.engine import GameState

    move = solver_pool.hint_for_state(GameState.from_code("FT1-N-0000007").dump(), 0.2)
    assert move in GameState.from_code("FT1-N-0000007").legal_moves()
