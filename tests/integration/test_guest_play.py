"""Guest play on the real stack (daphne, PostgreSQL, Redis): a visitor with no account
starts a practice game through the page, plays it over the websocket, is refused ranked
play, signs up, and finds the same game under "My games"; a guest flood from one
address is refused with Retry-After."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
import requests
from websockets.asyncio.client import connect

from games.models import Game, User
from tests.support.waiting import clear_of_window_edge

from .conftest import post_form

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]

PASSWORD = "correct horse battery staple"
CODE = "FT1-N-0000007"


class Visitor:
    """A browser without an account: a cookie jar over the server's pages."""

    def __init__(self, server) -> None:  # noqa: ANN001
        self.server, self.http = server, requests.Session()
        self.http.headers.update({"Referer": server.http})

    def form(self, path: str, data: dict[str, str]) -> requests.Response:
        return post_form(self.http, self.server.http, path, data)

    def cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())


async def play_over_socket(server, game_id: str, cookie: str, count: int, tag: str) -> list[int]:  # noqa: ANN001
    """``count`` moves over the game's websocket (message ids ``<tag><n>``: a re-sent id
    would be answered as a duplicate); the versions the server accepted."""
    async with connect(
        f"{server.ws}/ws/games/{game_id}/",
        origin=server.http,
        additional_headers={"Cookie": cookie},
        open_timeout=10,
    ) as ws:
        hello = json.loads(await asyncio.wait_for(ws.recv(), timeout=15))
        while hello["type"] != "hello":
            hello = json.loads(await asyncio.wait_for(ws.recv(), timeout=15))
        assert hello["role"] == "player"
        version, legal, versions = hello["game"]["version"], hello["game"]["legal_moves"], []
        for n in range(count):
            others = [m for m in legal if m != "s"]
            move = others[0] if n % 2 and others else "s"
            await ws.send(
                json.dumps({"type": "move", "id": f"{tag}{n}", "move": move, "version": version})
            )
            while True:
                reply = json.loads(await asyncio.wait_for(ws.recv(), timeout=15))
                if reply["type"] == "accepted":
                    break
                assert reply["type"] != "refused", reply
            version = reply["version"]
            legal = reply["changes"].get("legal_moves", legal)
            versions.append(version)
        return versions


def test_a_guest_plays_over_the_socket_signs_up_and_keeps_the_game(servers) -> None:
    server = servers[0]
    visitor = Visitor(server)
    started = visitor.form("/practice/", {"action": "code", "code": CODE})
    assert started.status_code == 302, started.text[:300]
    game_id = re.fullmatch(r"/games/([0-9a-f-]{36})/", started.headers["Location"]).group(1)
    guest = Game.objects.get(pk=game_id).player
    assert guest.is_guest

    versions = asyncio.run(play_over_socket(server, game_id, visitor.cookie(), 6, "guest"))
    assert versions == [1, 2, 3, 4, 5, 6]

    # Ranked play is refused, with the way to sign up (the home page's button is a POST).
    token = visitor.http.cookies["csrftoken"]
    ranked = visitor.http.post(
        f"{server.http}/play/daily/",
        headers={"X-CSRFToken": token},
        allow_redirects=False,
        timeout=10,
    )
    assert ranked.status_code == 302 and ranked.headers["Location"].startswith("/accounts/signup/")
    assert not Game.objects.filter(player=guest, mode=Game.Mode.RANKED).exists()

    signed = visitor.form(
        "/accounts/signup/", {"username": "grace", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert signed.status_code == 302
    account = User.objects.get(username="grace")
    assert account.pk == guest.pk and not account.is_guest
    mine = visitor.http.get(f"{server.http}/games/", timeout=10)
    assert mine.status_code == 200 and game_id in mine.text
    # The game goes on under the account, on the same socket path.
    more = asyncio.run(play_over_socket(server, game_id, visitor.cookie(), 2, "account"))
    assert more == [7, 8]


def test_a_guest_flood_from_one_browser_is_refused_with_retry_after(servers) -> None:
    """The servers run with the default per-browser guest limit (FT_RATE_GUESTS_DEVICE,
    5/h; the per-address one is lifted for the suite, as sign-ups' are): a browser that
    keeps its device cookie and drops its session is refused the sixth guest."""
    server = servers[1]
    visitor = Visitor(server)
    visitor.http.get(f"{server.http}/", timeout=10)  # the device cookie
    clear_of_window_edge(3600, margin=30)  # six starts in one hour's window
    answers = []
    for _ in range(6):
        answers.append(visitor.form("/practice/", {"action": "code", "code": CODE}))
        visitor.http.cookies.pop("sessionid", None)  # a new session, the same browser
    assert [a.status_code for a in answers[:5]] == [302] * 5
    assert answers[5].status_code == 429 and int(answers[5].headers["Retry-After"]) > 0
    assert User.objects.filter(is_guest=True).count() == 5
