"""The server's socket messages are checked against their schemas wherever a test reads
one (tests/support/messages.py): a message out of its schema fails the test that reads it."""

from __future__ import annotations

import pytest

from games.messages import GAME_MESSAGES, message_problem
from games.socket.consumers import GameConsumer
from games.socket.protocol import refusal
from leaderboards.messages import BOARD_MESSAGES
from tests.support.messages import message_checked
from tests.support.sockets import ask, db, join, run_async

from .conftest import practice_game


def test_a_message_with_a_key_its_kind_lacks_is_refused() -> None:
    assert (
        message_problem({"type": "pong", "extra": 1})
        == "pong: extra: Extra inputs are not permitted"
    )


def test_a_message_missing_a_key_is_refused() -> None:
    assert message_problem({"type": "dead_end"}) == "dead_end: version: Field required"


def test_a_kind_of_another_socket_is_refused() -> None:
    assert message_problem({"type": "board", "result_id": 1}, GAME_MESSAGES) is not None
    assert message_problem({"type": "board", "result_id": 1}, BOARD_MESSAGES) is None


def test_a_refusal_with_its_codes_optional_keys_is_one() -> None:
    assert message_problem(refusal("rate_limited", "too fast", "c1", retry_after=0.13)) is None
    assert message_problem(refusal("stale_version", "behind", "c1", version=3)) is None
    assert message_problem(refusal("stale_version", "behind", "c1", versoin=3)) is not None


def test_reading_a_message_out_of_its_schema_fails() -> None:
    with pytest.raises(AssertionError, match="out of its schema"):
        message_checked('{"type": "synced", "version": "3"}')


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("empty_channel_layer")
@run_async
async def test_a_socket_that_sends_a_message_out_of_its_schema_fails_the_test_reading_it(
    user, monkeypatch
) -> None:
    game = await db(practice_game)(user)
    ws, _ = await join(game.pk, user)
    original = GameConsumer.send_message

    async def drifted(self, message):  # noqa: ANN001 - the consumer's own signature
        await original(self, {**message, "drifted": True})

    monkeypatch.setattr(GameConsumer, "send_message", drifted)
    with pytest.raises(AssertionError, match="drifted: Extra inputs are not permitted"):
        await ask(ws, {"type": "ping"})
    await ws.disconnect()
