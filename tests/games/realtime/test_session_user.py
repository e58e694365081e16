"""A socket's user read with SQL compiled once (``ftsite.sessions``,
``games.realtime.session_user``) is the user Channels' own ``get_user`` reads, and nobody
once the session is signed out, expired or its password changed, or the account is
deactivated."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from channels.auth import get_user
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from ftsite.sessions import SESSION_ROW, SessionStore
from games.models import User
from games.realtime.session_user import session_user

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
