"""Safe cards sent home on the real stack: a socket move on one daphne brings the server's
safe home moves; the player and a watcher on another daphne both see them, and the undo
takes them back with the move."""

from __future__ import annotations

import asyncio
import json

import pytest

from games import services
from games.models import Action, User

from .test_live_play import receive, session_cookie, socket  # noqa: TID252

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]


def test_a_socket_move_brings_the_safe_moves_and_both_clients_see_them(
    servers, user: User, bob: User
) -> None:
    first, second = servers
    user.table_settings = {"auto_home": True}
    user.save(update_fields=["table_settings"])
    game = services.game_start_practice(user=user, code="FT1-N-0000063")  # AH over AH
    ada, bobs = session_cookie(user), session_cookie(bob)

    async def scenario():
        async with socket(first, game.pk, ada) as player, socket(second, game.pk, bobs) as watcher:
            hello = await receive(player, "hello")
            assert hello["game"]["auto_home"] is True
            await receive(watcher, "hello")
            # A client's own "automatic" mark is no part of the protocol: ignored.
            move = {"type": "move", "id": "m1", "move": "s", "version": 0, "automatic": True}
            await player.send(json.dumps(move))
            accepted = await receive(player, "accepted")
            seen = await receive(watcher, "action")
            await player.send(json.dumps({"type": "undo", "id": "u1", "version": 3}))
            undone = await receive(player, "accepted")
            seen_undo = await receive(watcher, "action")
            return accepted, seen, undone, seen_undo

    accepted, seen, undone, seen_undo = asyncio.run(scenario())
    assert accepted["action"] == "s" and accepted["automatic"] == ["t7-f2", "t7-f6"]
    assert accepted["version"] == 3 and accepted["score"] == 20
    assert (seen["version"], seen["automatic"], seen["changes"]) == (
        3,
        ["t7-f2", "t7-f6"],
        accepted["changes"],
    )
    assert {"1", "5"} <= set(accepted["changes"]["foundations"])  # f2 and f6, 0-based
    assert undone["automatic"] == ["undo", "undo"] and undone["version"] == 6
    assert seen_undo["version"] == 6 and seen_undo["changes"] == undone["changes"]
    log = list(
        Action.objects.filter(game=game)
        .order_by("seq")
        .values_list("move", "by_system", "client_id")
    )
    assert log == [
        ("s", False, "m1"),
        ("t7-f2", True, ""),
        ("t7-f6", True, ""),
        ("undo", True, ""),
        ("undo", True, ""),
        ("undo", False, "u1"),
    ]
