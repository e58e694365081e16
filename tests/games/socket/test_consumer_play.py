"""Playing over the game socket, through the real ASGI stack (origin check, session auth): the
player's accepted moves reach every watcher as actions, watchers may not act, a resent
message id is applied once, stale versions, illegal moves, undo in a ranked game and
actions after the end are refused with a code, and a reconnecting client syncs to the
server's version. Async tests run under :func:`~tests.support.sockets.run_async`, without
pytest-asyncio.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from games import services
from games.models import Action
from tests.support.sockets import ask, db, join, receive, run_async

from ..conftest import practice_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("empty_channel_layer"),
]


async def move(ws: WebsocketCommunicator, id: str, move: str, **more: Any) -> dict[str, Any]:
    """Play a move; the player's socket gets its answer and nothing else (the group's copy
    goes only to the game's other sockets)."""
    answer = await ask(ws, {"type": "move", "id": id, "move": move, **more})
    assert await ws.receive_nothing(timeout=0.02)
    return answer


@run_async
async def test_a_watcher_sees_each_accepted_move(user, bob) -> None:
    game = await db(practice_game)(user)
    player, _ = await join(game.pk, user)
    watcher, _ = await join(game.pk, bob)

    accepted = await ask(player, {"type": "move", "id": "c1", "move": "s", "version": 0})
    assert accepted["type"] == "accepted" and accepted["id"] == "c1"
    assert accepted["version"] == 1 and accepted["action"] == "s"
    assert accepted["changes"]["waste"] == ["3S"] and accepted["changes"]["stock"] == 63
    assert accepted["duplicate"] is False and accepted["status"] == "active"
    # The watcher gets the group's copy; the player's socket, which has its answer, does not.
    action = await receive(watcher)
    expected = {k: accepted[k] for k in accepted if k not in ("id", "duplicate")}
    assert action == {**expected, "type": "action"}
    assert await player.receive_nothing(timeout=0.05)
    await move(player, "c2", "s")
    assert (await receive(watcher))["version"] == 2
    assert await watcher.receive_nothing(timeout=0.05)
    await player.disconnect()
    await watcher.disconnect()


@run_async
async def test_a_watcher_acting_is_refused_as_forbidden_and_nothing_changes(user, bob) -> None:
    game = await db(practice_game)(user)
    watcher, _ = await join(game.pk, bob)
    for message in (
        {"type": "move", "id": "w1", "move": "s"},
        {"type": "undo", "id": "w2"},
        {"type": "resign", "id": "w3"},
    ):
        refused = await ask(watcher, message)
        assert (refused["type"], refused["code"], refused["id"]) == (
            "refused",
            "forbidden",
            message["id"],
        )
    assert await ask(watcher, {"type": "sync", "version": 0}) == {"type": "synced", "version": 0}
    await game.arefresh_from_db()
    assert game.version == 0
    await watcher.disconnect()


@run_async
async def test_a_resent_message_id_is_applied_once(user, bob) -> None:
    game = await db(practice_game)(user)
    player, _ = await join(game.pk, user)
    watcher, _ = await join(game.pk, bob)
    first = await move(player, "c1", "s")
    again = await move(player, "c1", "s")
    assert again["type"] == "accepted" and again["duplicate"] is True
    assert again["version"] == first["version"] == 1 and again["changes"] == {}
    assert await player.receive_nothing(timeout=0.05)
    assert (await receive(watcher))["version"] == 1
    assert await watcher.receive_nothing(timeout=0.05)
    assert await Action.objects.filter(game=game).acount() == 1
    await player.disconnect()
    await watcher.disconnect()


@run_async
async def test_a_stale_version_is_refused_with_the_servers_version(user) -> None:
    game = await db(practice_game)(user)
    player, _ = await join(game.pk, user)
    await move(player, "c1", "s", version=0)
    refused = await ask(player, {"type": "move", "id": "c2", "move": "s", "version": 0})
    assert refused["code"] == "stale_version" and refused["version"] == 1
    assert refused["id"] == "c2"
    await player.disconnect()


@run_async
async def test_an_illegal_or_invalid_move_is_refused_with_the_reason(user) -> None:
    game = await db(practice_game)(user)
    player, _ = await join(game.pk, user)
    illegal = await ask(player, {"type": "move", "id": "c1", "move": "t1-f1"})
    assert illegal["code"] == "illegal_move"
    assert illegal["reason"].startswith("foundation f1 builds spades only")
    # The rule and its parameters, for the page to say in the player's language.
    assert illegal["rule"] == "foundation_suit"
    assert illegal["params"] == {
        "foundation": {"kind": "foundation", "n": 1, "suit": "S"},
        "pile": {"kind": "column", "n": 1},
        "card": "KC",
    }
    assert (await ask(player, {"type": "move", "id": "c2", "move": "t1-x"}))["code"] == (
        "invalid_move"
    )
    # Not a move at all: game_act refuses it as the engine's invalid_move.
    assert (await ask(player, {"type": "move", "id": "c3", "move": "undo"}))["code"] == (
        "invalid_move"
    )
    await player.disconnect()


@run_async
async def test_undo_works_in_practice_and_is_forbidden_in_a_ranked_game(user, now) -> None:
    practice = await db(practice_game)(user)
    player, _ = await join(practice.pk, user)
    await move(player, "c1", "s")
    undone = await ask(player, {"type": "undo", "id": "c2", "version": 1})
    assert undone["action"] == "undo" and undone["changes"]["stock"] == 64
    await player.disconnect()

    ranked = await db(services.game_start_daily)(user=user, now=now)
    player, _ = await join(ranked.pk, user)
    refused = await ask(player, {"type": "undo", "id": "c1"})
    assert refused["code"] == "forbidden" and "ranked" in refused["reason"]
    await player.disconnect()


@run_async
async def test_a_finished_game_refuses_actions_as_game_over(user) -> None:
    game = await db(practice_game)(user)
    player, _ = await join(game.pk, user)
    resigned = await ask(player, {"type": "resign", "id": "c1"})
    assert resigned["status"] == "resigned" and resigned["changes"]["legal_moves"] == []
    refused = await ask(player, {"type": "move", "id": "c2", "move": "s"})
    assert refused["code"] == "game_over"
    await player.disconnect()


@run_async
async def test_sync_after_a_reconnect_sends_the_full_state_when_behind(user) -> None:
    game = await db(practice_game)(user)
    first, _ = await join(game.pk, user)
    await move(first, "c1", "s")
    await first.disconnect()
    # Another tab plays on while this one is away.
    other, _ = await join(game.pk, user)
    await move(other, "c2", "s")
    await other.disconnect()

    back, hello = await join(game.pk, user)
    assert hello["game"]["version"] == 2
    state = await ask(back, {"type": "sync", "version": 1})
    assert state["type"] == "state" and state["game"]["version"] == 2
    assert state["game"]["board"]["stock"] == 62
    assert await ask(back, {"type": "sync", "version": 2}) == {"type": "synced", "version": 2}
    # A client ahead of the server is wrong, so it gets the truth.
    assert (await ask(back, {"type": "sync", "version": 9}))["type"] == "state"
    await back.disconnect()


@run_async
async def test_a_move_goes_to_the_group_only_while_another_socket_listens(user, bob) -> None:
    layer = get_channel_layer()
    sent: list[str] = []
    group_send = layer.group_send

    async def counting(group: str, event: dict[str, Any]) -> None:
        sent.append(event["type"])
        await group_send(group, event)

    layer.group_send = counting
    try:
        game = await db(practice_game)(user)
        player, _ = await join(game.pk, user)
        await move(player, "c1", "s")
        assert "game.action" not in sent  # alone: answered, and nothing else sent
        watcher, _ = await join(game.pk, bob)
        await move(player, "c2", "s")
        # The newcomer first gets the player's last action again (sent to it alone, in case
        # it joined while that one went to nobody), then the group's copy of the next.
        assert [(await receive(watcher))["version"] for _ in range(2)] == [1, 2]
        assert sent.count("game.action") == 1
        await watcher.disconnect()
        await move(player, "c3", "s")  # the watcher said goodbye: alone again
        assert sent.count("game.action") == 1
        await player.disconnect()
    finally:
        layer.group_send = group_send
