"""The websocket play interface, through the real ASGI stack (origin check, session auth).

pytest-asyncio is not a dependency: each async test is run by :func:`asgiref.sync.async_to_sync`
(see :func:`run_async`), whose thread-sensitive sync calls share the test's database connection.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from ftsite.asgi import application
from games import services
from games.consumers import ClientMessage, GameConsumer, ProtocolError, parse_client_message
from games.models import Action, Deal, Game, User
from tests.support.sockets import ORIGIN, cookie_of, run_async

pytestmark = pytest.mark.django_db(transaction=True)

PRACTICE_CODE = "FT1-N-0000007"
CARD = re.compile(r'"([2-9TJQKA][SHDC])"')

db = database_sync_to_async


@pytest.fixture(autouse=True)
def _empty_channel_layer() -> Iterator[None]:
    yield
    async_to_sync(get_channel_layer().flush)()


async def open_socket(game_id: object, user: User | None = None) -> WebsocketCommunicator:
    """A socket to the game (signed in as ``user``), handshake done."""
    headers = list(ORIGIN)
    if user is not None:
        headers.append((b"cookie", await db(cookie_of)(user)))
    ws = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    connected, _ = await ws.connect()
    assert connected  # refusals too are accepted first, then closed with a code
    return ws


async def join(game_id: object, user: User | None = None) -> tuple[WebsocketCommunicator, dict]:
    """A socket that was admitted, with its hello."""
    ws = await open_socket(game_id, user)
    hello = await receive(ws)
    assert hello["type"] == "hello", hello
    return ws, hello


async def receive(ws: WebsocketCommunicator) -> dict[str, Any]:
    message = json.loads(await ws.receive_from())
    # A server_error is a bug in the consumer, never an answer a test expects by accident.
    assert message.get("code") != "server_error", message
    return message


async def ask(ws: WebsocketCommunicator, message: dict[str, Any] | str) -> dict[str, Any]:
    text = message if isinstance(message, str) else json.dumps(message)
    await ws.send_to(text_data=text)
    return await receive(ws)


async def close_code(ws: WebsocketCommunicator) -> int:
    output = await ws.receive_output()
    assert output["type"] == "websocket.close", output
    return output["code"]


async def move(ws: WebsocketCommunicator, id: str, move: str, **more: Any) -> dict[str, Any]:
    """Play a move; the player's socket gets its accepted and then the group's action."""
    answer = await ask(ws, {"type": "move", "id": id, "move": move, **more})
    if answer["type"] == "accepted" and not answer["duplicate"]:
        echo = await receive(ws)
        assert echo["type"] == "action" and echo["version"] == answer["version"], echo
    return answer


async def receive_texts(ws: WebsocketCommunicator, count: int) -> list[str]:
    """Exactly ``count`` more messages, and then none (counted, not timed: CI may be slow)."""
    texts = [await ws.receive_from() for _ in range(count)]
    assert await ws.receive_nothing(timeout=0.05)
    return texts


def practice_game(user: User) -> Game:
    return services.game_start_practice(user=user, code=PRACTICE_CODE)


# Parsing, without a socket ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code", "field", "id"),
    [
        ("{", "bad_json", None, None),
        ("[1, 2]", "bad_json", None, None),
        ('"ping"', "bad_json", None, None),
        ("[" * 5000, "bad_json", None, None),
        ('{"id": "c1"}', "missing_field", "type", "c1"),
        ('{"type": 3}', "bad_field", "type", None),
        ('{"type": "shuffle", "id": "c1"}', "unknown_type", "shuffle", "c1"),
        ('{"type": "move", "move": "s"}', "missing_field", "id", None),
        ('{"type": "move", "id": 7, "move": "s"}', "bad_field", "id", None),
        ('{"type": "undo", "id": ""}', "bad_field", "id", None),
        ('{"type": "undo", "id": "' + "x" * 65 + '"}', "bad_field", "id", None),
        ('{"type": "move", "id": "c1"}', "missing_field", "move", "c1"),
        ('{"type": "move", "id": "c1", "move": ["s"]}', "bad_field", "move", "c1"),
        ('{"type": "move", "id": "c1", "move": "s", "version": "3"}', "bad_field", "version", "c1"),
        ('{"type": "undo", "id": "c1", "version": true}', "bad_field", "version", "c1"),
        ('{"type": "resign", "id": "c1", "version": -1}', "bad_field", "version", "c1"),
        ('{"type": "sync"}', "missing_field", "version", None),
        ('{"type": "sync", "version": 1.5}', "bad_field", "version", None),
    ],
)
def test_a_bad_message_is_refused_with_a_code_that_names_the_field(
    text: str, code: str, field: str | None, id: str | None
) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(text)
    assert (caught.value.code, caught.value.id) == (code, id)
    if field is not None:
        assert field in caught.value.reason


def test_well_formed_messages_parse() -> None:
    assert parse_client_message('{"type": "ping"}') == ClientMessage(type="ping")
    assert parse_client_message('{"type": "sync", "version": 0}').version == 0
    assert parse_client_message('{"type": "resign", "id": "c9"}') == ClientMessage(
        type="resign", id="c9"
    )
    undo = parse_client_message('{"type": "undo", "id": "c1", "version": null}')
    assert undo == ClientMessage(type="undo", id="c1")


# Connecting ------------------------------------------------------------------------------


@run_async
async def test_the_player_is_greeted_with_the_role_and_the_full_state(user) -> None:
    game = await db(practice_game)(user)
    ws, hello = await join(game.pk, user)
    assert hello["role"] == "player"
    assert hello["game"]["id"] == str(game.pk) and hello["game"]["version"] == 0
    assert hello["game"]["board"]["stock"] == 64 and "s" in hello["game"]["legal_moves"]
    assert await ask(ws, {"type": "ping"}) == {"type": "pong"}
    await ws.disconnect()


@run_async
async def test_it_refuses_another_users_game_with_4403(user, bob, now) -> None:
    game = await db(services.game_start_daily)(user=user, now=now)
    ws = await open_socket(game.pk, bob)
    assert await close_code(ws) == 4403
    await ws.disconnect()


@run_async
async def test_it_closes_4401_for_an_anonymous_watcher_of_a_daily_game(user, now) -> None:
    game = await db(services.game_start_daily)(user=user, now=now)
    ws = await open_socket(game.pk)
    assert await close_code(ws) == 4401
    await ws.disconnect()


@pytest.mark.parametrize("game_id", ["not-a-uuid", "0b6f8a4e-4c51-4d55-9f0e-2d7a35f9a111"])
@run_async
async def test_it_closes_4404_when_there_is_no_such_game(user, game_id) -> None:
    ws = await open_socket(game_id, user)
    assert await close_code(ws) == 4404
    await ws.disconnect()


@run_async
async def test_an_anonymous_watcher_of_a_practice_game_is_allowed(user) -> None:
    game = await db(practice_game)(user)
    ws, hello = await join(game.pk)
    assert hello["role"] == "watcher" and hello["game"]["player"] == "ada"
    await ws.disconnect()


@run_async
async def test_a_daily_game_is_watched_only_by_players_who_have_finished_their_own(
    user, bob, now
) -> None:
    game = await db(services.game_start_daily)(user=user, now=now)
    bobs = await db(services.game_start_daily)(user=bob, now=now)
    refused = await open_socket(game.pk, bob)
    assert await close_code(refused) == 4403
    await refused.disconnect()

    await db(services.game_resign)(user=bob, game_id=bobs.pk)
    ws, hello = await join(game.pk, bob)
    assert hello["role"] == "watcher" and hello["game"]["deal"]["code"] is None
    await ws.disconnect()


# Playing and watching --------------------------------------------------------------------


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
    # The player's socket, like its other tabs, also gets the group's copy, after the answer.
    action = await receive(player)
    expected = {k: accepted[k] for k in accepted if k not in ("id", "duplicate")}
    assert action == {**expected, "type": "action"}

    assert await receive(watcher) == action
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
    assert (await ask(player, {"type": "move", "id": "c2", "move": "t1-x"}))["code"] == (
        "invalid_move"
    )
    # Not a move at all (the service says bad_request): the protocol says invalid_move.
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
    assert (await receive(player))["type"] == "action"
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


# Bad input and abuse ---------------------------------------------------------------------


@run_async
async def test_it_answers_malformed_json_with_a_refusal_and_keeps_the_socket(user) -> None:
    game = await db(practice_game)(user)
    ws, _ = await join(game.pk, user)
    for text in ("{", "[]", "null", '{"type": "move", "id": "c1", "move": 5}'):
        refused = await ask(ws, text)
        assert refused["type"] == "refused" and refused["code"] in ("bad_json", "bad_field")
    await ws.send_to(bytes_data=b'{"type": "ping"}')
    refused = await receive(ws)
    assert (refused["code"], refused["id"]) == ("bad_json", None)
    unknown = await ask(ws, {"type": "teleport", "id": "c7"})
    assert (unknown["code"], unknown["id"]) == ("unknown_type", "c7")
    assert await ask(ws, {"type": "ping"}) == {"type": "pong"}
    await ws.disconnect()


@run_async
async def test_it_closes_a_flood_with_1008(user, monkeypatch) -> None:
    monkeypatch.setattr(GameConsumer, "rate_limit", 5)
    game = await db(practice_game)(user)
    ws, _ = await join(game.pk, user)
    for _ in range(5):
        assert await ask(ws, {"type": "ping"}) == {"type": "pong"}
    await ws.send_json_to({"type": "ping"})
    assert await close_code(ws) == 1008
    await ws.disconnect()


@run_async
async def test_the_rate_limit_is_a_sliding_window(user, monkeypatch) -> None:
    monkeypatch.setattr(GameConsumer, "rate_limit", 3)
    monkeypatch.setattr(GameConsumer, "rate_window", 0.2)
    game = await db(practice_game)(user)
    ws, _ = await join(game.pk, user)
    for _ in range(3):
        assert await ask(ws, {"type": "ping"}) == {"type": "pong"}
    await ws.receive_nothing(timeout=0.25)  # let the window slide past them
    for _ in range(3):
        assert await ask(ws, {"type": "ping"}) == {"type": "pong"}
    await ws.disconnect()


@run_async
async def test_it_closes_an_oversized_message_with_1009(user) -> None:
    game = await db(practice_game)(user)
    ws, _ = await join(game.pk, user)
    # 4096 bytes exactly is allowed; multi-byte characters count as bytes.
    fits = '{"type": "ping", "pad": "' + "x" * (4096 - 27) + '"}'
    assert len(fits.encode()) == 4096
    assert await ask(ws, fits) == {"type": "pong"}
    await ws.send_to(text_data='{"type": "ping", "pad": "' + "é" * 2040 + '"}')
    assert await close_code(ws) == 1009
    await ws.disconnect()


@run_async
async def test_an_unexpected_error_is_logged_and_refused_without_killing_the_socket(
    user, monkeypatch, caplog
) -> None:
    def broken(**kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(services, "game_play", broken)
    game = await db(practice_game)(user)
    ws, _ = await join(game.pk, user)
    await ws.send_json_to({"type": "move", "id": "c1", "move": "s"})
    refused = json.loads(await ws.receive_from())
    assert (refused["type"], refused["code"], refused["id"]) == ("refused", "server_error", "c1")
    assert "a bug" in caplog.text
    assert await ask(ws, {"type": "ping"}) == {"type": "pong"}
    await ws.disconnect()


# What never crosses the socket -----------------------------------------------------------


def shown_cards(text: str) -> Counter[str]:
    return Counter(CARD.findall(text))


def stock_counts(value: Any) -> Iterator[Any]:
    """Every value under a "stock" key, anywhere in a message."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "stock":
                yield item
            yield from stock_counts(item)
    elif isinstance(value, list):
        for item in value:
            yield from stock_counts(item)


def choose(legal: list[str], step: int) -> str:
    """Foundation moves first, then mostly draws, some column moves: a long, varied game."""
    to_foundation = [m for m in legal if "-f" in m]
    if to_foundation:
        return to_foundation[0]
    others = [m for m in legal if m != "s"]
    if "s" in legal and (step % 3 or not others):
        return "s"
    return others[step % len(others)] if others else "s"


@run_async
async def test_no_message_of_a_whole_game_contains_a_card_before_it_is_turned(user, bob) -> None:
    game = await db(practice_game)(user)
    stock: list[str] = game.state["stock"]  # the server's order: stock[0] is turned first
    shown_at_start = Counter(
        card
        for cards, down in zip(game.state["columns"], game.state["down"], strict=True)
        for card in cards[down:]
    )
    player, hello = await join(game.pk, user)
    watcher, watcher_hello = await join(game.pk, bob)
    texts = [json.dumps(hello), json.dumps(watcher_hello)]

    async def send(message: dict[str, Any]) -> dict[str, Any]:
        """Send, and collect everything up to the answer (group copies may come first)."""
        await player.send_json_to(message)
        while True:
            text = await player.receive_from()
            texts.append(text)
            if (answer := json.loads(text))["type"] != "action":
                return answer

    legal, version, step = hello["game"]["legal_moves"], 0, 0
    while legal and step < 250:
        step += 1
        answer = await send({"type": "move", "id": f"m{step}", "move": choose(legal, step)})
        if step % 17 == 0:  # take a draw or a move back now and then: cards go back to stock
            answer = await send({"type": "undo", "id": f"u{step}"})
        assert answer["type"] == "accepted", answer
        legal, version = answer["changes"]["legal_moves"], answer["version"]
        if step % 40 == 0:
            assert (await send({"type": "sync", "version": 0}))["type"] == "state"
    # The group's copy of every action reaches the player's socket and the watcher's.
    texts += await receive_texts(player, version - sum('"type":"action"' in t for t in texts))
    texts += await receive_texts(watcher, version)
    # The whole stock was turned (64 cards) and the game went on past it.
    assert version > 64 and min(s for t in texts for s in stock_counts(json.loads(t))) == 0

    turned = 0
    for text in texts:
        # A message may turn cards itself: its own stock count says how many are out.
        counts = list(stock_counts(json.loads(text)))
        assert all(isinstance(c, int) for c in counts), text
        turned = max([turned, *(len(stock) - c for c in counts)])
        may_show = shown_at_start + Counter(stock[:turned])
        for card, n in shown_cards(text).items():
            assert n <= may_show[card], f"{card} shown before it was turned: {text}"
    await player.disconnect()
    await watcher.disconnect()


@run_async
async def test_no_daily_code_or_seed_is_sent_before_the_day_closes(user, bob, now) -> None:
    game = await db(services.game_start_daily)(user=user, now=now)
    bobs = await db(services.game_start_daily)(user=bob, now=now)
    await db(services.game_resign)(user=bob, game_id=bobs.pk)
    deal = await Deal.objects.aget(pk=game.deal_id)
    secrets = [deal.code, deal.seed_hex, deal.salt, str(deal.seed)]

    player, hello = await join(game.pk, user)
    watcher, watcher_hello = await join(game.pk, bob)
    texts = [json.dumps(hello), json.dumps(watcher_hello)]
    for step, text in enumerate(["s", "s", "t1-x", "s"], start=1):
        await player.send_json_to({"type": "move", "id": f"c{step}", "move": text})
    await player.send_json_to({"type": "sync", "version": 0})
    await player.send_json_to({"type": "undo", "id": "u1"})
    await watcher.send_json_to({"type": "sync", "version": 0})
    # The player: 3 accepted, their 3 action copies, 2 refused, 1 state; the watcher: 3 actions
    # and 1 state.
    texts += await receive_texts(player, 9) + await receive_texts(watcher, 4)
    for text in texts:
        for secret in secrets:
            assert secret not in text
    await player.disconnect()
    await watcher.disconnect()

    # Once the day has closed the code is public: the same search does find it.
    await db(services.deal_close_daily)(day=now.date(), now=now + timedelta(days=1))
    ws, hello = await join(game.pk, bob)
    assert hello["game"]["deal"]["code"] == deal.code and deal.salt in json.dumps(hello)
    await ws.disconnect()
