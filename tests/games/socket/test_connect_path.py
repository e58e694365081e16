"""The cheap connect of a game socket (issue 22) keeps every rule of the slow one: the user
is read from the session on every connect (a signed-out session is refused at once: no
shortcut outlives a logout), never on the event loop; a refused socket that joined the
group to read the state leaves it with nothing; a socket alone says no goodbye to the
group; sightings are written by the batch's own timer; and the serving process's
collector settings are those ``ftsite.serving`` documents, its library patches those of
``ftsite.patches``."""

from __future__ import annotations

import asyncio
import gc
import pprint
from typing import Any

import pytest
from autobahn.websocket import protocol
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.models import Session
from django.core.exceptions import SynchronousOnlyOperation

from ftsite import patches, serving
from ftsite.asgi import application
from games import services
from games.models import Sighting, User
from games.socket import consumers, sighting_batch
from games.socket.connect_threads import ConnectAuthMiddleware
from tests.support.sockets import (
    ORIGIN,
    ask,
    close_code,
    cookie_of,
    db,
    join,
    open_socket,
    receive,
    run_async,
)

from ..conftest import practice_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("empty_channel_layer"),
]


@run_async
async def test_it_refuses_a_reconnect_once_the_session_signed_out(user: User, now: Any) -> None:
    game = await db(services.game_start_daily)(user=user, now=now)  # not for anonymous eyes
    ws, hello = await join(game.pk, user)
    assert hello["role"] == "player"
    await ws.disconnect()
    # The same cookie after the session ended (a sign-out deletes it): read again, refused.
    cookie = await db(cookie_of)(user)
    await db(lambda: Session.objects.all().delete())()
    headers = [*ORIGIN, (b"cookie", cookie)]
    ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
    connected, _ = await ws.connect()
    assert connected and await close_code(ws) == consumers.CLOSE_NOT_SIGNED_IN


@run_async
async def test_it_never_reads_the_socket_user_on_the_event_loop() -> None:
    from django.contrib.sessions.backends.db import SessionStore

    scope: dict[str, Any] = {"session": SessionStore(session_key="not-a-session")}
    ConnectAuthMiddleware(inner=None).populate_scope(scope)
    # Read here (the loop) it fails outright: never an anonymous or a stale user instead.
    with pytest.raises(SynchronousOnlyOperation):
        _ = scope["user"].is_authenticated
    # Read on a thread it is the session's user: none here.
    assert await db(lambda: scope["user"].is_authenticated)() is False


@run_async
async def test_a_refused_socket_leaves_the_group_it_joined_and_is_sent_nothing(
    user: User, bob: User, now: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await db(services.game_start_daily)(user=user, now=now)
    player, _ = await join(game.pk, user)
    layer = get_channel_layer()
    calls: list[tuple[str, str]] = []
    for name in ("group_discard", "group_send"):
        real = getattr(layer, name)

        def spy(group: str, arg: Any, _real: Any = real, _name: str = name) -> Any:
            calls.append((_name, arg if _name == "group_discard" else arg["type"]))
            return _real(group, arg)

        monkeypatch.setattr(layer, name, spy)
    intruder = await open_socket(game.pk, bob)
    assert await close_code(intruder) == consumers.CLOSE_FORBIDDEN
    # Left before the close, and never announced: the player's socket heard nothing of it.
    assert [c[0] for c in calls] == ["group_discard"]
    answer = await ask(player, {"type": "move", "id": "m1", "move": "s", "version": 0})
    assert answer["type"] == "accepted"
    assert ("group_send", "game.action") not in calls  # the player still knows of no peer
    assert await intruder.receive_nothing(timeout=0.1)
    await player.disconnect()


@run_async
async def test_a_socket_alone_says_nothing_and_one_with_a_peer_does(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await db(practice_game)(user)
    layer = get_channel_layer()
    sent: list[str] = []
    real = layer.group_send

    async def spy(group: str, message: dict[str, Any]) -> None:
        sent.append(message["type"])
        await real(group, message)

    monkeypatch.setattr(layer, "group_send", spy)
    alone, _ = await join(game.pk, user)
    await alone.disconnect()
    assert sent == []  # alone in its game: neither a notice nor a goodbye
    first, _ = await join(game.pk, user)
    assert sent == []
    second, _ = await join(game.pk, user)
    assert sent == ["peer.joined"]  # the second found the first in the group
    # The notices (joined, then present) travel through the channel layer, not the socket.
    await asyncio.sleep(0.5)
    await second.disconnect()
    assert sent.count("peer.left") == 1
    # The first socket heard it: its next move goes to nobody but its sender.
    answer = await ask(first, {"type": "move", "id": "m1", "move": "s", "version": 0})
    assert answer["type"] == "accepted"
    await first.disconnect()


@run_async
async def test_a_newcomers_moves_before_it_hears_of_the_older_socket_still_reach_it(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The older socket was alone, so only the newcomer announces; its first move can come
    # before the older socket's "present" reaches it (another process, a slow Redis): that
    # move went to nobody else, and the older tab or watcher never saw it.
    game = await db(practice_game)(user)
    layer = get_channel_layer()
    real_send = layer.send

    async def slow_present(channel: str, message: dict[str, Any]) -> None:
        if message["type"] == "peer.present":
            await asyncio.sleep(0.3)
        await real_send(channel, message)

    monkeypatch.setattr(layer, "send", slow_present)
    older, _ = await join(game.pk, user)
    newcomer, _ = await join(game.pk, user)
    answer = await ask(newcomer, {"type": "move", "id": "m1", "move": "s", "version": 0})
    assert answer["type"] == "accepted" and answer["version"] == 1
    seen = await asyncio.wait_for(receive(older), timeout=3)
    assert (seen["type"], seen["version"]) == ("action", 1)
    assert seen["action"] == answer["action"]
    await older.disconnect()
    await newcomer.disconnect()


@run_async
async def test_a_queued_sighting_is_written_by_the_batch_timer(user: User) -> None:
    game = await db(practice_game)(user)
    headers = [*ORIGIN, (b"cookie", await db(cookie_of)(user)), (b"user-agent", b"UA")]
    ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
    ws.scope["client"] = ["203.0.113.7", 50000]
    connected, _ = await ws.connect()
    assert connected and (await receive(ws))["type"] == "hello"
    await asyncio.sleep(sighting_batch.FLUSH_SECONDS + 0.5)
    count = await db(lambda: Sighting.objects.filter(user=user).count())()
    assert count == 2  # network + browser, and the address (no device cookie)
    await ws.disconnect()


def test_the_serving_process_freezes_its_start_and_collects_less_often() -> None:
    serving.serving_tune()
    assert gc.get_threshold() == serving.GC_THRESHOLDS
    assert gc.get_freeze_count() > 0


def test_autobahns_connection_debug_line_is_formatted_only_when_logged() -> None:
    patches.apply_autobahn_lazy_debug()
    attrs = [("openHandshakeTimeout", 5, "WebSocketServerFactory")]
    lazy = protocol.pformat(attrs)
    assert isinstance(lazy, patches.LazyPformat)
    assert f"\n{lazy}" == "\n" + pprint.pformat(attrs)
    assert str(lazy) == pprint.pformat(attrs)
    timings = protocol.Timings()
    timings.track("x")
    assert type(str(timings)) is str and "'x'" in str(timings)


def test_autobahns_method_names_for_debug_lines_are_coloured_only_when_logged() -> None:
    from autobahn import util
    from autobahn.twisted import websocket

    patches.apply_autobahn_lazy_debug()
    method = protocol.Timings().track
    for module in (protocol, websocket):
        lazy = module.hltype(method)
        assert isinstance(lazy, patches.LazyHltype)
        assert str(lazy) == util.hltype(method)
        assert f"{lazy}" == util.hltype(method)


def test_redis_reads_its_own_version_once_not_per_connection() -> None:
    import redis
    from redis import utils
    from redis.driver_info import DriverInfo

    patches.apply_redis_version_once()
    assert utils.get_lib_version() == redis.__version__
    assert DriverInfo().lib_version == redis.__version__
    from importlib import metadata

    real = metadata.version
    try:
        metadata.version = None  # type: ignore[assignment]  # a parse now would fail
        assert DriverInfo().lib_version == redis.__version__
    finally:
        metadata.version = real
