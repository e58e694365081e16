"""A guest's socket after the guest signed up or signed in (issue 37: a guest's socket on
the other process still wrote into the account the guest had signed in to, the guest row
gone). The socket keeps the user it read at its connect; its next message is refused
``session_changed`` and the socket closed 4409 (the page reconnects with the browser's
session). Underneath, the log's write is guarded by the game's player, so a process whose
copy of the game still names the guest writes nothing into the account's game."""

from __future__ import annotations

import pytest

from games import services
from games.errors import Forbidden
from games.models import Action, Game, User
from games.runtime.live import live_game
from games.services import guest_create
from games.socket.consumers import CLOSE_SESSION_CHANGED
from tests.support.games import game_play
from tests.support.sockets import ask, close_code, db, join, run_async

from ..conftest import PRACTICE_CODE

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("empty_channel_layer"),
]

PASSWORD = "correct horse battery staple"


def guest_with_a_game() -> tuple[User, Game]:
    guest = guest_create(address="198.51.100.7", device=None)
    return guest, services.game_start_practice(user=guest, code=PRACTICE_CODE)


def merged_elsewhere(guest: User, into: User, monkeypatch: pytest.MonkeyPatch) -> None:
    """The guest signs in to ``into`` on another process: this process's copies of its
    games are not dropped (only the merging process drops its own)."""
    monkeypatch.setattr("games.services.guests.live_forget", lambda game_id: None)
    services.guest_merge(guest_id=guest.pk, into=into)


def test_a_copy_still_naming_the_guest_writes_nothing_into_the_account_s_game(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    guest, game = guest_with_a_game()
    game_play(user=guest, game_id=game.pk, move="s")
    assert live_game(game_id=game.pk).game.player_id == guest.pk  # held, as the guest's
    merged_elsewhere(guest, user, monkeypatch)
    with pytest.raises(Forbidden):
        game_play(user=guest, game_id=game.pk, move="s")
    assert list(Action.objects.filter(game=game).values_list("seq", flat=True)) == [1]
    assert Game.objects.get(pk=game.pk).player_id == user.pk
    # The account plays on from where the guest left it.
    assert game_play(user=user, game_id=game.pk, move="s").version == 2


@run_async
async def test_a_guest_s_socket_is_refused_once_the_guest_signed_in_elsewhere(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    guest, game = await db(guest_with_a_game)()
    ws, hello = await join(game.pk, guest)
    assert hello["role"] == "player"
    assert (await ask(ws, {"type": "move", "id": "m1", "move": "s"}))["type"] == "accepted"
    await db(merged_elsewhere)(guest, user, monkeypatch)
    refused = await ask(ws, {"type": "move", "id": "m2", "move": "s"})
    assert refused["type"] == "refused" and refused["code"] == "session_changed"
    assert refused["id"] == "m2"
    assert await close_code(ws) == CLOSE_SESSION_CHANGED
    assert await db(lambda: Action.objects.filter(game=game).count())() == 1


@run_async
async def test_a_guest_s_socket_is_refused_once_the_guest_signed_up(user: User) -> None:
    guest, game = await db(guest_with_a_game)()
    ws, _ = await join(game.pk, guest)
    await db(services.guest_convert)(
        user=guest, username="grace", display_name="", password=PASSWORD
    )
    refused = await ask(ws, {"type": "sync", "id": "s1", "version": 0})
    assert refused["code"] == "session_changed"
    assert await close_code(ws) == CLOSE_SESSION_CHANGED


@run_async
async def test_a_guest_s_socket_plays_while_the_guest_is_a_guest() -> None:
    guest, game = await db(guest_with_a_game)()
    ws, _ = await join(game.pk, guest)
    for n in range(3):
        answer = await ask(ws, {"type": "move", "id": f"m{n}", "move": "s"})
        assert answer["type"] == "accepted", answer
    await ws.disconnect()
