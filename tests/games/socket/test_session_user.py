"""A socket's user read with SQL compiled once (``ftsite.sessions``,
``games.socket.session_user``) is the user Channels' own ``get_user`` reads, and nobody
once the session is signed out, expired or its password changed, or the account is
deactivated; read in one query with its game (a socket's connect), the same user and the
same game as the separate reads, and nobody in the same cases."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from channels.auth import get_user
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.functional import LazyObject

from ftsite.sessions import SESSION_ROW, SessionStore
from games.access import GAME_ROW
from games.models import User
from games.socket.connect_threads import ConnectAuthMiddleware, scope_user, scope_user_and_game
from games.socket.session_user import session_user, session_user_and_game

from ..conftest import practice_game

pytestmark = pytest.mark.django_db


def _session_of(user: User) -> SessionStore:
    client = Client()
    client.force_login(user)
    return SessionStore(client.cookies[settings.SESSION_COOKIE_NAME].value)


def test_sessions_are_read_by_the_compiled_engine() -> None:
    assert settings.SESSION_ENGINE == "ftsite.sessions"


def test_it_reads_the_user_channels_reads(user: User, bob: User) -> None:
    for person in (user, bob, user):  # the third read runs the SQL compiled by the first
        session = _session_of(person)  # a login (last_login changes), then both read
        found = session_user(session)
        expected = get_user.func({"session": SessionStore(session.session_key)})
        assert found is not None and found.pk == expected.pk == person.pk
        assert {f.attname: getattr(found, f.attname) for f in User._meta.concrete_fields} == {
            f.attname: getattr(expected, f.attname) for f in User._meta.concrete_fields
        }


def test_a_signed_out_session_reads_as_nobody(user: User) -> None:
    session = _session_of(user)
    Session.objects.filter(session_key=session.session_key).delete()  # what a logout does
    assert session_user(session) is None
    assert session.session_key is None


def test_an_expired_session_reads_as_nobody(user: User) -> None:
    session = _session_of(user)
    Session.objects.filter(session_key=session.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    assert session_user(session) is None
    key = "\x00not-a-session-key"
    assert SESSION_ROW.get(session_key=key, expire_date__gt=timezone.now()) is None


def test_a_changed_password_signs_the_session_out(user: User) -> None:
    session = _session_of(user)
    key = session.session_key
    user.set_password("another-password-entirely")
    user.save()
    assert session_user(session) is None
    assert not Session.objects.filter(session_key=key).exists()  # flushed, as Channels does


def test_a_session_hashed_under_a_rotated_secret_still_reads_its_user(
    user: User, settings: Any
) -> None:
    settings.SECRET_KEY = "the-old-secret-key-before-a-rotation"
    session = _session_of(user)  # its password hash made with the old key
    settings.SECRET_KEY = "the-new-secret-key-after-the-rotation"
    settings.SECRET_KEY_FALLBACKS = ["the-old-secret-key-before-a-rotation"]
    found = session_user(SessionStore(session.session_key))
    assert found is not None and found.pk == user.pk
    assert Session.objects.filter(session_key=session.session_key).exists()  # not flushed


def test_a_session_hashed_under_a_retired_secret_signs_out(user: User, settings: Any) -> None:
    settings.SECRET_KEY = "the-old-secret-key-before-a-rotation"
    session = _session_of(user)
    settings.SECRET_KEY = "the-new-secret-key-after-the-rotation"
    settings.SECRET_KEY_FALLBACKS = []  # the rotation finished: the old key is retired
    assert session_user(SessionStore(session.session_key)) is None


def test_a_deactivated_account_reads_as_nobody(user: User) -> None:
    session = _session_of(user)
    User.objects.filter(pk=user.pk).update(is_active=False)
    assert session_user(session) is None


def test_a_session_naming_a_user_that_is_gone_reads_as_nobody(user: User) -> None:
    session = _session_of(user)
    session[SESSION_KEY] = str(user.pk + 1000)
    assert session_user(session) is None


# The game and the session's user in one query (session_user_and_game) --------------------


def _fields(obj: Any) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_one_query_reads_the_game_the_funnel_reads_and_the_user_channels_reads(
    user: User, bob: User
) -> None:
    games = [practice_game(user), practice_game(bob)]
    for game in games * 2:  # the second round runs the SQL compiled by the first
        session = _session_of(game.player)
        with CaptureQueriesContext(connection) as queries:
            found, read = session_user_and_game(session, game.pk)
        assert len(queries) == 1
        expected = get_user.func({"session": SessionStore(session.session_key)})
        assert found is not None and _fields(found) == _fields(expected)
        row = GAME_ROW.get(game.pk)
        assert row is not None
        assert _fields(read) == _fields(row) and _fields(read.deal) == _fields(row.deal)
        assert _fields(read.player) == _fields(row.player)
        # The user is its own object, and the session's data is not left on the game.
        assert found is not read.player and not hasattr(read, "session_data")
        assert session.loaded() and session[SESSION_KEY] == str(game.player.pk)


def test_a_watcher_is_read_as_themself_not_as_the_player(user: User, bob: User) -> None:
    game = practice_game(user)
    found, read = session_user_and_game(_session_of(bob), game.pk)
    assert found is not None and found.pk == bob.pk and read.player_id == user.pk


def test_with_no_session_the_game_is_read_for_nobody(user: User) -> None:
    game = practice_game(user)
    for session in (SessionStore(None), SessionStore("no-such-session-key-at-all")):
        found, read = session_user_and_game(session, game.pk)
        assert found is None and read.pk == game.pk and session.session_key is None


def test_the_joined_read_signs_out_what_the_separate_reads_sign_out(user: User) -> None:
    game = practice_game(user)
    session = _session_of(user)
    Session.objects.filter(session_key=session.session_key).delete()  # a logout
    assert session_user_and_game(session, game.pk)[0] is None
    session = _session_of(user)
    Session.objects.filter(session_key=session.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    assert session_user_and_game(session, game.pk)[0] is None
    session = _session_of(user)
    User.objects.filter(pk=user.pk).update(is_active=False)
    assert session_user_and_game(session, game.pk)[0] is None
    User.objects.filter(pk=user.pk).update(is_active=True)
    session = _session_of(user)
    key = session.session_key
    user.set_password("another-password-entirely")
    user.save()
    assert session_user_and_game(session, game.pk)[0] is None
    assert not Session.objects.filter(session_key=key).exists()  # flushed, as Channels does


def test_no_such_game_leaves_the_session_unread(user: User) -> None:
    session = _session_of(user)
    with pytest.raises(LookupError):
        session_user_and_game(session, uuid.uuid4())
    assert not session.loaded()
    found = session_user(session)  # read the usual way
    assert found is not None and found.pk == user.pk


def test_a_socket_scope_reads_its_user_and_game_in_one_query(user: User, bob: User) -> None:
    game = practice_game(user)
    for person, queries_expected in ((user, 1), (bob, 2)):  # a watcher's user: its own read
        scope = _scope_of(person)
        with CaptureQueriesContext(connection) as queries:
            found, read = scope_user_and_game(scope, game.pk)
        assert len(queries) == queries_expected
        assert found.pk == person.pk and scope_user(scope) is found and read.pk == game.pk
    scope = _scope_of(user)
    assert scope_user_and_game(scope, uuid.uuid4()) == (scope_user(scope), None)
    assert scope_user(scope).pk == user.pk


def _scope_of(person: User) -> dict[str, Any]:
    """A socket's scope as Channels' session middleware and ConnectAuthMiddleware leave it:
    the session store not read yet, the user to be read on first use."""
    session = LazyObject()
    session._wrapped = _session_of(person)
    scope: dict[str, Any] = {"session": session}
    ConnectAuthMiddleware(None).populate_scope(scope)
    return scope
