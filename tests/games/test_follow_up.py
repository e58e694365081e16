"""What follows an action is the same whichever way it came in: the socket, the API and the
plain form all reach ``game_act``, whose one follow-up (``game_act_follow_up``, after the
commit) tells the game's other sockets, announces a finish and has a possible dead end
decided. Only the socket names itself as the origin, so its own copy skips it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, User
from games.outcomes import ActOutcome, Origin
from games.services import play
from tests.support.sockets import ask, db, join, run_async

from .conftest import Api, practice_game, token_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("empty_channel_layer"),
]


@pytest.fixture
def follow_ups(monkeypatch) -> list[tuple[str, str, str]]:
    """Each step of every follow-up: (step, game id, origin channel), in order."""
    steps: list[tuple[str, str, str]] = []

    def action(result: ActOutcome, *, origin: str = "") -> None:
        steps.append(("action", result.game_id, origin))

    monkeypatch.setattr(play.broadcast, "game_action", action)
    monkeypatch.setattr(
        play, "announce_game_finished", lambda game_id: steps.append(("finished", game_id, ""))
    )
    return steps


def resign_by_form(user: User, game: Game) -> None:
    client = Client()
    client.force_login(user)
    response = client.post(reverse("game_act", args=[game.pk]), {"type": "resign", "version": 0})
    assert response.status_code == 302


def resign_by_api(user: User, game: Game) -> None:
    answer = Api(Client(), token_for(user)).post(f"/games/{game.pk}/resign", {"id": "r1"})
    assert answer.status_code == 200 and answer.json()["status"] == "resigned"


def test_the_form_and_the_api_are_followed_alike(user, follow_ups) -> None:
    by_form, by_api = practice_game(user), practice_game(user)
    resign_by_form(user, by_form)
    resign_by_api(user, by_api)
    assert follow_ups == [
        ("action", str(by_form.pk), ""),
        ("finished", str(by_form.pk), ""),
        ("action", str(by_api.pk), ""),
        ("finished", str(by_api.pk), ""),
    ]


@run_async
async def test_a_socket_is_followed_alike_and_named_as_the_origin(user, bob, follow_ups) -> None:
    game = await db(practice_game)(user)
    player, _ = await join(game.pk, user)
    watcher, _ = await join(game.pk, bob)
    answer = await ask(player, {"type": "resign", "id": "r1"})
    assert answer["status"] == "resigned"
    assert [(step, game_id) for step, game_id, _ in follow_ups] == [
        ("action", str(game.pk)),
        ("finished", str(game.pk)),
    ]
    origin = follow_ups[0][2]
    assert origin.startswith("specific.")  # the player socket's channel name
    await player.disconnect()
    await watcher.disconnect()


@run_async
async def test_a_socket_alone_on_its_game_sends_nothing_to_the_group(user, follow_ups) -> None:
    game = await db(practice_game)(user)
    player, _ = await join(game.pk, user)
    await ask(player, {"type": "resign", "id": "r1"})
    assert follow_ups == [("finished", str(game.pk), "")]
    await player.disconnect()


def test_a_failing_step_keeps_the_others(monkeypatch, user) -> None:
    finished: list[str] = []

    def broken(result: ActOutcome, *, origin: str = "") -> None:
        raise ConnectionError("the channel layer is down")

    monkeypatch.setattr(play.broadcast, "game_action", broken)
    monkeypatch.setattr(play, "announce_game_finished", finished.append)
    result = ActOutcome(game_id="g1", version=3, action="resign", score=0, moves=0, status="lost")
    play.game_act_follow_up(result=result, origin=Origin())
    assert finished == ["g1"]
