"""The connects a connect thread takes together (``connect_threads.on_connect_thread_batched``)
read what each would have read alone: the same user and the same game row for a player, a
watcher, nobody signed in and no such game, in the order asked; one socket's failure is its
own, and a dropped connection is the batch's. The same checks run on PostgreSQL, where the
rows are read in one round trip (``tests/integration/test_connect_batch.py``)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.conf import settings
from django.db import OperationalError
from django.test import Client
from django.utils.functional import LazyObject

from ftsite.sessions import SessionStore
from games import selectors
from games.models import User
from games.socket import consumers
from games.socket.connect_threads import (
    ConnectAuthMiddleware,
    scope_user_and_game,
    scopes_users_and_games,
)

from ..conftest import practice_game

pytestmark = pytest.mark.django_db


def scope_of(person: User | None) -> dict[str, Any]:
    """A socket's scope as the session middleware and ConnectAuthMiddleware leave it (the
    session store unread, the user read on first use); ``None``: nobody signed in."""
    key = None
    if person is not None:
        client = Client()
        client.force_login(person)
        key = client.cookies[settings.SESSION_COOKIE_NAME].value
    session = LazyObject()
    session._wrapped = SessionStore(key)
    scope: dict[str, Any] = {"session": session}
    ConnectAuthMiddleware(None).populate_scope(scope)
    return scope


def _fields(obj: Any) -> dict[str, Any]:
    # Each scope here is a sign-in of its own, which moves last_login.
    fields = obj._meta.concrete_fields
    return {f.attname: getattr(obj, f.attname) for f in fields if f.attname != "last_login"}


def batch_reads_as_each_alone(user: User, bob: User) -> list[tuple[Any, Any]]:
    """Read a batch of five connects (two players, a watcher, nobody, no such game) and
    check each against its own read; returns the batch's reads."""
    mine, bobs = practice_game(user), practice_game(bob)
    asked = [
        (user, mine.pk),
        (bob, bobs.pk),
        (bob, mine.pk),  # a watcher
        (None, bobs.pk),  # nobody signed in
        (user, uuid.uuid4()),  # no such game
    ]
    together = scopes_users_and_games([(scope_of(person), pk) for person, pk in asked])
    for (person, pk), (found, game) in zip(asked, together, strict=True):
        alone_user, alone_game = scope_user_and_game(scope_of(person), pk)
        assert found.is_authenticated == alone_user.is_authenticated
        if person is not None:
            assert found.pk == person.pk and _fields(found) == _fields(alone_user)
        if alone_game is None:
            assert game is None
        else:
            assert _fields(game) == _fields(alone_game)
            assert _fields(game.deal) == _fields(alone_game.deal)
            assert _fields(game.player) == _fields(alone_game.player)
            assert found is not game.player and not hasattr(game, "session_data")
    return together


def test_a_batch_reads_what_each_connect_reads_alone(user: User, bob: User) -> None:
    batch_reads_as_each_alone(user, bob)


def test_one_sockets_failure_is_its_own(
    user: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine, bobs = practice_game(user), practice_game(bob)
    read = selectors.game_state_read

    def fails_for_bob(*, user: Any, game: Any) -> Any:
        if game is not None and game.pk == bobs.pk:
            raise KeyError("a bug reading this one game")
        return read(user=user, game=game)

    monkeypatch.setattr(selectors, "game_state_read", fails_for_bob)
    opened = consumers._open_many(
        [(scope_of(user), mine.pk), (scope_of(bob), bobs.pk), (scope_of(user), uuid.uuid4())]
    )
    first, second, third = opened
    assert isinstance(first, consumers.Opened) and first.game is not None
    assert first.game["role"] == "player" and first.user.pk == user.pk
    assert isinstance(second, KeyError)
    assert isinstance(third, consumers.Opened) and third.refusal is not None  # 4404


def test_a_dropped_connection_fails_the_batch_to_be_read_again(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    def dropped(*, user: Any, game: Any) -> Any:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(selectors, "game_state_read", dropped)
    with pytest.raises(OperationalError):
        consumers._open_many([(scope_of(user), practice_game(user).pk)])
