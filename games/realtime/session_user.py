"""A game socket's user, from its session: Channels' ``get_user`` with the user's row
read by SQL compiled once.

Every game socket reads its user on a connect thread (``connect_threads``): in a
reconnect storm Django built and compiled ``User.objects.get(pk=...)`` anew for each, a
tenth of a connect's database work (py-spy, docs/benchmarks.md "Session 9"). The checks
are Channels' (``channels.auth.get_user``), unchanged: the backend the session names must
still be configured, the user must still be allowed to sign in (``is_active``), and the
session's hash of the password must match, else the session is flushed and the socket is
anonymous. A session signed out is gone from the table (``ftsite.sessions`` reads none):
the next connect is anonymous, as before.

One check is Django's rather than Channels': a hash made with a key in
``SECRET_KEY_FALLBACKS`` still matches. During a secret rotation (docs/operations.md) every
session's hash was made with the old key; Channels flushes such a session, so a socket's
reconnect would sign the player out of the pages too. Django's page-side ``get_user``
accepts it and re-hashes the session under a new session key; a socket cannot set that
cookie, so it accepts the hash and leaves the re-hashing to the player's next page.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, load_backend
from django.contrib.auth.backends import ModelBackend
from django.utils.crypto import constant_time_compare

from games.models import User
from games.prepared import RowByPk

# A key no user has (users' keys count up from 1), for compiling (games.prepared).
USER_ROW = RowByPk(User.objects.all(), sentinel=-(2**62))


def session_user(session: Any) -> User | None:
    """The signed-in user of ``session`` (a session store), or ``None`` (anonymous)."""
    try:
        user_id = User._meta.pk.to_python(session[SESSION_KEY])
        backend_path = session[BACKEND_SESSION_KEY]
    except KeyError:
        return None
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return None
    user = _backend_user(load_backend(backend_path), user_id)
    if user is None:
        return None
    session_hash = session.get(HASH_SESSION_KEY)
    if not (session_hash and _hash_matches(user, session_hash)):
        session.flush()  # the password changed since: signed out, as Django does
        return None
    return user


def _hash_matches(user: User, session_hash: str) -> bool:
    """The session's password hash, under the current secret key or a fallback one."""
    if constant_time_compare(session_hash, user.get_session_auth_hash()):
        return True
    return any(
        constant_time_compare(session_hash, fallback)
        for fallback in user.get_session_auth_fallback_hash()
    )


def _backend_user(backend: Any, user_id: Any) -> User | None:
    """``backend.get_user(user_id)``; for Django's ``ModelBackend`` (not overridden), its
    read compiled once and its own ``user_can_authenticate``."""
    if type(backend).get_user is not ModelBackend.get_user:
        found = backend.get_user(user_id)
        return found if isinstance(found, User) else None
    user = USER_ROW.get(user_id)
    return user if user is not None and backend.user_can_authenticate(user) else None
