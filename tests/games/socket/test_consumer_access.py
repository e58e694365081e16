"""Who may open a game's socket and what it may never be sent, through the real ASGI stack
(origin check, session auth): the player is greeted with the full state, other players and
anonymous watchers are closed with 4401, 4403 or 4404 unless they may watch, and no message
of a whole game shows a card before it is turned, nor a daily deal's code or seed before
the day closes. Async tests run under :func:`~tests.support.sockets.run_async`, without
pytest-asyncio.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from games import services
from games.models import Deal
from games.runtime.live import engine_for
from tests.support.games import game_resign
from tests.support.sockets import ask, close_code, db, join, open_socket, run_async

from ..conftest import practice_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("empty_channel_layer"),
]

CARD = re.compile(r'"([2-9TJQKA][SHDC])"')


async def receive_texts(ws: WebsocketCommunicator, count: int) -> list[str]:
    """Exactly ``count`` more messages, and then none (counted, not timed: CI may be slow)."""
    texts = [await ws.receive_from() for _ in range(count)]
    assert await ws.receive_nothing(timeout=0.05)
    return texts


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

    await db(game_resign)(user=bob, game_id=bobs.pk)
    ws, hello = await join(game.pk, bob)
    assert hello["role"] == "watcher" and hello["game"]["deal"]["code"] is None
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
    dump = await db(lambda: engine_for(game).dump())()
    stock: list[str] = dump["stock"]  # the server's order: stock[0] is turned first
    shown_at_start = Counter(
        card
        for cards, down in zip(dump["columns"], dump["down"], strict=True)
        for card in cards[down:]
    )
    player, hello = await join(game.pk, user)
    watcher, watcher_hello = await join(game.pk, bob)
    texts = [json.dumps(hello), json.dumps(watcher_hello)]

    async def send(message: dict[str, Any]) -> dict[str, Any]:
        """Send, and collect everything up to the answer (a dead-end notice, which the solver
        sends after an answer, may come first)."""
        await player.send_json_to(message)
        while True:
            text = await player.receive_from()
            texts.append(text)
            if (answer := json.loads(text))["type"] not in ("action", "dead_end"):
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
    # The group's copy of every action reaches the watcher (the player has its answers), with
    # any dead-end notices.
    watched = [await watcher.receive_from() for _ in range(version)]
    while not await watcher.receive_nothing(timeout=0.2):
        watched.append(await watcher.receive_from())
    assert sum(json.loads(t)["type"] == "action" for t in watched) == version
    texts += watched
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
    await db(game_resign)(user=bob, game_id=bobs.pk)
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
    # The player: 3 accepted, 2 refused, 1 state; the watcher: 3 actions and 1 state.
    texts += await receive_texts(player, 6) + await receive_texts(watcher, 4)
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


@pytest.fixture
def funnel_calls(monkeypatch) -> list[str]:
    """The purposes the access funnel's rules were asked for, in order (every way into
    the funnel, a game it reads or one read with a socket's session, ends in them)."""
    from games import access

    calls: list[str] = []
    real = access.check_game_access

    def counting(**kwargs: Any) -> Any:
        calls.append(kwargs["purpose"])
        return real(**kwargs)

    monkeypatch.setattr(access, "check_game_access", counting)
    return calls


@run_async
async def test_a_connect_asks_the_access_funnel_once(user, funnel_calls) -> None:
    game = await db(practice_game)(user)
    player, hello = await join(game.pk, user)
    assert hello["role"] == "player"
    assert funnel_calls == ["watch"]
    await player.disconnect()


def test_the_game_page_asks_the_access_funnel_once(client, user, funnel_calls) -> None:
    game = practice_game(user)
    client.force_login(user)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200 and response.context["may_play"] is True
    assert funnel_calls == ["watch"]
