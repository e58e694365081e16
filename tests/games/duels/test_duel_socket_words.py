"""The duel socket's refusals in the connection's language (the account's own, else the
browser's), their codes unchanged."""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator
from django.utils import translation

from ftsite.asgi import application
from games.models import User
from tests.games.duels.conftest import start_duel
from tests.support.sockets import ORIGIN, cookie_of, db, run_async

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("empty_channel_layer"),
]


def worded(language: str, text: str) -> str:
    with translation.override(language):
        translated = translation.gettext(text)
    assert translated != text  # the catalog has it: otherwise nothing here is tested
    return translated


async def answer_to(ws: WebsocketCommunicator, message: object) -> dict:
    await ws.send_to(text_data=json.dumps(message))
    for _ in range(10):
        answer = json.loads(await ws.receive_from())
        if answer["type"] not in ("presence", "duel"):
            return answer
    raise AssertionError("no answer")


@run_async
async def test_the_duel_socket_refuses_in_the_player_s_language(user, bob) -> None:
    await db(User.objects.filter(pk=user.pk).update)(language="nl")
    duel = await db(start_duel)(user, bob)
    headers = [*ORIGIN, (b"cookie", await db(cookie_of)(user)), (b"accept-language", b"it")]
    ws = WebsocketCommunicator(application, f"/ws/duels/{duel.pk}/", headers=headers)
    assert (await ws.connect())[0]
    unknown = await answer_to(ws, {"type": "steal", "id": "z"})
    assert unknown["code"] == "unknown_type" and unknown["id"] == "z"
    assert unknown["reason"] == worded("nl", "a duel socket takes ping and sync")
    wrong = await answer_to(ws, {"type": "move", "id": "m", "move": "s"})
    assert wrong["code"] == "wrong_socket"
    assert wrong["reason"] == worded(
        "nl",
        "a duel socket only watches: moves go over your own game's socket"
        " (/ws/games/<your game>/), and nobody acts for another player",
    )
    bad = await answer_to(ws, [1])  # JSON, but not an object
    assert bad["code"] == "bad_json"
    assert bad["reason"] == worded("nl", 'a message is one JSON object, such as {"type": "ping"}')
    await ws.disconnect()


@run_async
async def test_a_watcher_is_refused_in_the_browser_s_language(user, bob) -> None:
    duel = await db(start_duel)(user, bob)
    headers = [*ORIGIN, (b"accept-language", b"fi")]
    ws = WebsocketCommunicator(application, f"/ws/duels/{duel.pk}/", headers=headers)
    assert (await ws.connect())[0]
    unknown = await answer_to(ws, {"type": "steal"})
    assert unknown["code"] == "unknown_type"
    assert unknown["reason"] == worded("fi", "a duel socket takes ping and sync")
    await ws.disconnect()
