"""A socket's pace (``throttles.Pace``, ``GameConsumer.paced``): a person's burst is slowed
with a retry hint, never closed; a client that ignores the hint is closed with 4008; the
per-user limit still stops a script that honours the pace on several sockets."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from ftsite.rates import Rate
from games.socket.consumers import GameConsumer
from tests.support.sockets import ask, close_code, db, join, run_async

from ..conftest import practice_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("empty_channel_layer"),
]


async def play_like_the_page(
    ws: WebsocketCommunicator, moves: list[str], every: float
) -> tuple[list[dict[str, Any]], int]:
    """Tap a move every ``every`` seconds, one in flight at a time as the board's queue
    sends them; a ``rate_limited`` answer is sent again after its ``retry_after``.
    Returns the accepted answers and how many refusals were honoured."""
    accepted, honoured, start = [], 0, time.monotonic()
    for n, move in enumerate(moves):
        await asyncio.sleep(max(0.0, start + n * every - time.monotonic()))
        while True:
            answer = await ask(ws, {"type": "move", "id": f"m{n}", "move": move})
            if answer.get("code") != "rate_limited":
                break
            assert answer["id"] == f"m{n}" and 0 < answer["retry_after"] <= 1
            honoured += 1
            await asyncio.sleep(answer["retry_after"])
        assert answer["type"] == "accepted", answer
        accepted.append(answer)
    return accepted, honoured


@run_async
async def test_a_burst_faster_than_the_pace_is_slowed_and_never_closed(user, monkeypatch) -> None:
    # A pace of 5 at once then 5 a second, met with 20 taps a second: most taps wait.
    monkeypatch.setattr(GameConsumer, "pace_rate", Rate.parse("5/1s"))
    game = await db(practice_game)(user)
    ws, _ = await join(game.pk, user)
    started = time.monotonic()
    accepted, honoured = await play_like_the_page(ws, ["s"] * 20, every=0.05)
    took = time.monotonic() - started
    assert [a["version"] for a in accepted] == list(range(1, 21))
    assert honoured >= 10  # slowed: refused with a hint, each honoured ...
    assert took >= (20 - 5) / 5 - 0.2  # ... to the pace: 15 taps past the burst at 5 a second
    await asyncio.sleep(0.2)
    assert await ask(ws, {"type": "ping"}) == {"type": "pong"}  # and never closed
    await ws.disconnect()


@run_async
async def test_a_refusal_for_pace_names_the_wait_and_applies_nothing(user, monkeypatch) -> None:
    monkeypatch.setattr(GameConsumer, "pace_rate", Rate.parse("2/1s"))
    game = await db(practice_game)(user)
    ws, _ = await join(game.pk, user)
    assert (await ask(ws, {"type": "move", "id": "a", "move": "s"}))["version"] == 1
    assert await ask(ws, {"type": "ping"}) == {"type": "pong"}
    refused = await ask(ws, {"type": "move", "id": "b", "move": "s"})
    assert (refused["type"], refused["code"], refused["id"]) == ("refused", "rate_limited", "b")
    assert 0 < refused["retry_after"] <= 0.5 and "send it again in" in refused["reason"]
    await asyncio.sleep(refused["retry_after"])
    # Sent again after the wait, the same message is applied once, at the next version.
    assert (await ask(ws, {"type": "move", "id": "b", "move": "s"}))["version"] == 2
    await ws.disconnect()


@run_async
async def test_a_client_that_ignores_the_hint_is_closed_with_4008(user, monkeypatch) -> None:
    monkeypatch.setattr(GameConsumer, "pace_rate", Rate.parse("5/1s"))
    game = await db(practice_game)(user)
    ws, _ = await join(game.pk, user)
    for n in range(40):  # a script: no wait for answers, no heed of hints
        await ws.send_json_to({"type": "move", "id": f"x{n}", "move": "s"})
    answers = []
    while (output := await ws.receive_output())["type"] == "websocket.send":
        answers.append(output["text"])
    assert output == {"type": "websocket.close", "code": 4008, "reason": output.get("reason")}
    # Five applied (the burst), then refusals until the eleventh early message.
    assert sum('"accepted"' in a for a in answers) == 5
    assert sum('"rate_limited"' in a for a in answers) == GameConsumer.flood_strikes + 1
    await ws.disconnect()


@run_async
async def test_a_message_on_time_after_a_refusal_forgives_the_early_ones(user, monkeypatch) -> None:
    monkeypatch.setattr(GameConsumer, "pace_rate", Rate.parse("1/1s"))
    game = await db(practice_game)(user)
    ws, _ = await join(game.pk, user)
    for _ in range(3):  # three episodes of a few early messages each: never closed
        assert await ask(ws, {"type": "ping"}) == {"type": "pong"}
        for _ in range(GameConsumer.flood_strikes - 2):
            assert (await ask(ws, {"type": "ping"}))["code"] == "rate_limited"
        await asyncio.sleep(1.0)
    assert await ask(ws, {"type": "ping"}) == {"type": "pong"}
    await ws.disconnect()


@run_async
async def test_the_per_user_limit_still_stops_a_script_that_keeps_the_pace(
    user, settings, monkeypatch
) -> None:
    """Several sockets each within their pace: the limit of all the user's sockets together
    refuses, with the wait to its next window, and the early messages after it count."""
    settings.FT_RATE_SOCKET_MESSAGES = Rate.parse("12/min")
    monkeypatch.setattr(GameConsumer, "pace_rate", Rate.parse("10/1s"))
    game = await db(practice_game)(user)
    sockets = [(await join(game.pk, user))[0] for _ in range(3)]
    answers = [await ask(ws, {"type": "ping"}) for _ in range(5) for ws in sockets]
    limited = [a for a in answers if a.get("code") == "rate_limited"]
    assert answers[:12] == [{"type": "pong"}] * 12 and len(limited) == 3
    assert all(a["retry_after"] >= 1 and "messages on your sockets" in a["reason"] for a in limited)
    for ws in sockets:
        await ws.disconnect()


@run_async
async def test_messages_before_a_user_limit_wait_end_close_a_script(
    user, settings, monkeypatch
) -> None:
    settings.FT_RATE_SOCKET_MESSAGES = Rate.parse("2/min")
    monkeypatch.setattr(GameConsumer, "pace_rate", Rate.parse("100/1s"))
    game = await db(practice_game)(user)
    ws, _ = await join(game.pk, user)
    for _ in range(2):
        assert await ask(ws, {"type": "ping"}) == {"type": "pong"}
    for _ in range(GameConsumer.flood_strikes + 1):
        assert (await ask(ws, {"type": "ping"}))["code"] == "rate_limited"
    await ws.send_json_to({"type": "ping"})
    assert await close_code(ws) == 4008
    await ws.disconnect()
