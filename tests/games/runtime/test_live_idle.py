"""Idle live games dropped (issue 37): an entry with no socket and no use for
``FT_LIVE_IDLE_SECONDS`` leaves the process's memory, and the next connection rebuilds it
from the log and carries on exactly where the game was, every acknowledged action kept."""

from __future__ import annotations

import time

import pytest
from channels.testing import WebsocketCommunicator

from games import services
from games.models import Game, User
from games.runtime import live
from games.runtime.live import (
    engine_for,
    live_attach,
    live_detach,
    live_evict_idle,
    live_game,
    replay_log,
)
from tests.support.sockets import ask, db, join, run_async

CODE = "FT1-N-0000007"
LATER = 10_000.0  # seconds past any idle timeout the tests set


def held(game: Game) -> bool:
    return game.pk in live._entries


@pytest.mark.django_db
def test_an_idle_game_without_a_socket_is_dropped_and_a_recent_one_kept(
    user: User, settings
) -> None:
    settings.FT_LIVE_IDLE_SECONDS = 120
    idle, recent = (services.game_start_practice(user=user, code=CODE) for _ in range(2))
    live_game(game_id=idle.pk)
    live_game(game_id=recent.pk)
    live._entries[idle.pk].used -= 121
    assert live_evict_idle() == 1
    assert not held(idle) and held(recent)


@pytest.mark.django_db
def test_a_game_with_an_open_socket_is_kept_however_idle(user: User, settings) -> None:
    settings.FT_LIVE_IDLE_SECONDS = 1
    game = services.game_start_practice(user=user, code=CODE)
    live_game(game_id=game.pk)
    live_attach(game_id=game.pk)
    assert live_evict_idle(now=time.monotonic() + LATER) == 0 and held(game)
    live_detach(game_id=game.pk)
    assert live_evict_idle() == 0  # its close counts as a use: idle from now
    assert live_evict_idle(now=time.monotonic() + LATER) == 1 and not held(game)


@pytest.mark.django_db
def test_an_entry_an_action_holds_is_left_for_the_next_sweep(user: User, settings) -> None:
    settings.FT_LIVE_IDLE_SECONDS = 1
    game = services.game_start_practice(user=user, code=CODE)
    entry = live_game(game_id=game.pk)
    with entry.lock:
        assert live_evict_idle(now=time.monotonic() + LATER) == 0
    assert live_evict_idle(now=time.monotonic() + LATER) == 1
    assert entry.stale  # a thread that waited for it takes a fresh one


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("empty_channel_layer")
@run_async
async def test_a_game_dropped_while_idle_continues_exactly_on_reconnecting(
    user: User, settings
) -> None:
    settings.FT_LIVE_IDLE_SECONDS = 120
    game = await db(services.game_start_practice)(user=user, code=CODE)
    ws, hello = await join(game.pk, user)
    played = []
    for n, move in enumerate(["s", "s", "undo", "s"], start=1):
        message = {"type": move, "id": f"c{n}"} if move == "undo" else None
        message = message or {"type": "move", "id": f"c{n}", "move": move}
        answer = await ask(ws, {**message, "version": n - 1})
        assert answer["type"] == "accepted", answer
        played.append(move)
    before = live._entries[game.pk].engine.dump()
    await ws.disconnect()

    assert live_evict_idle(now=time.monotonic() + LATER) == 1
    assert not held(game)

    again: WebsocketCommunicator
    again, hello = await join(game.pk, user)
    assert hello["game"]["version"] == 4
    rebuilt = await db(lambda: live_game(game_id=game.pk).engine.dump())()
    assert rebuilt == before  # the take-back history too
    # A message sent again after the drop is still answered as the repeat it is.
    repeat = await ask(again, {"type": "move", "id": "c4", "move": "s", "version": 3})
    assert repeat["duplicate"] is True and repeat["version"] == 4
    answer = await ask(again, {"type": "undo", "id": "c5", "version": 4})
    assert answer["type"] == "accepted" and answer["version"] == 5
    await again.disconnect()
    row = await db(Game.objects.select_related("deal").get)(pk=game.pk)
    replayed = await db(lambda: replay_log(row, [*played, "undo"]).dump())()
    assert await db(lambda: engine_for(row).dump())() == replayed
