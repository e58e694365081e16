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

**One query a connect.** A socket's connect read three rows, each a round trip and a
statement's Python work: the session, its user, then the game with its deal and player
(``games.access.GAME_ROW``). :func:`session_user_and_game` reads the game's row with the
session's row beside it (a subquery by the session engine's own conditions: the key, not
expired), and when the session's user is the game's player (a player reconnecting, almost
every socket of a storm) takes the user from that row: the same table, the same key, read
in the same statement. Another user (a watcher) is read as before. Nothing is kept between
connects: a session signed out or expired, a password changed, an account deactivated, a
game changed, all read as they are at this connect.
"""

from __future__ import annotations

import copy
import uuid
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, load_backend
from django.contrib.auth.backends import ModelBackend
from django.contrib.sessions.models import Session
from django.db.models import Subquery
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from ftsite.sessions import SessionStore
from games.access import GAME_ROWS
from games.models import Game, User
from games.prepared import PreparedRow, RowByPk

# A key no user has (users' keys count up from 1), for compiling (games.prepared).
USER_ROW = RowByPk(User.objects.all(), sentinel=-(2**62))

# Values no game or session has, for compiling (games.prepared).
_NO_KEY = "\x00not-a-session-key"
_NO_DATE = datetime(1970, 1, 2, 3, 4, 5, tzinfo=UTC)
_NO_GAME = uuid.UUID("00000000-0000-4000-8000-00000000beef")
_SESSION_DATA = Subquery(
    Session.objects.filter(session_key=_NO_KEY, expire_date__gt=_NO_DATE).values("session_data")[:1]
)
# The game as the funnel reads it (GAME_ROWS), its session's data beside it.
SESSION_GAME_ROW = PreparedRow(
    GAME_ROWS.annotate(session_data=_SESSION_DATA),
    param_fields={
        "session_key": Session._meta.get_field("session_key"),
        "expire_date__gt": Session._meta.get_field("expire_date"),
    },
    pk=_NO_GAME,
    session_key=_NO_KEY,
    expire_date__gt=_NO_DATE,
)


def session_user_and_game(session: SessionStore, game_pk: uuid.UUID) -> tuple[User | None, Game]:
    """The game ``game_pk`` as the funnel reads it, and the signed-in user of ``session``
    (a store that has not read its row yet: ``SessionStore.loaded``), in one query (see the
    module); ``None`` for the user when nobody is signed in. ``LookupError`` when there is
    no such game: the session is then left unread (the caller reads it the usual way)."""
    (found,) = sessions_users_and_games([(session, game_pk)])
    if isinstance(found, LookupError):
        raise found
    return found


def sessions_users_and_games(
    pairs: list[tuple[SessionStore, uuid.UUID]],
) -> list[tuple[User | None, Game] | LookupError]:
    """:func:`session_user_and_game` for each (session, game key) of ``pairs``, in order,
    their rows read in one round trip (``PreparedRow.get_many``: the connects of a storm
    that a connect thread takes together); a ``LookupError`` in a pair's place when there is
    no such game."""
    now = timezone.now()
    games = SESSION_GAME_ROW.get_many(
        [
            {"pk": game_pk, "session_key": session.session_key, "expire_date__gt": now}
            for session, game_pk in pairs
        ]
    )
    found: list[tuple[User | None, Game] | LookupError] = []
    for (session, game_pk), game in zip(pairs, games, strict=True):
        if game is None:
            found.append(LookupError(game_pk))
            continue
        # Off the game at once: the row may be held by this process (games.runtime.live).
        session.load_read(game.__dict__.pop("session_data"))
        found.append((session_user(session, known=game.player), game))
    return found


def session_user(session: Any, known: User | None = None) -> User | None:
    """The signed-in user of ``session`` (a session store), or ``None`` (anonymous); a
    copy of ``known`` (a user row read just now) when it is that user."""
    try:
        user_id = User._meta.pk.to_python(session[SESSION_KEY])
        backend_path = session[BACKEND_SESSION_KEY]
    except KeyError:
        return None
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return None
    user = _backend_user(load_backend(backend_path), user_id, known)
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


def _backend_user(backend: Any, user_id: Any, known: User | None = None) -> User | None:
    """``backend.get_user(user_id)``; for Django's ``ModelBackend`` (not overridden), its
    read compiled once (or ``known``, that row read just now) and its own
    ``user_can_authenticate``."""
    if type(backend).get_user is not ModelBackend.get_user:
        found = backend.get_user(user_id)
        return found if isinstance(found, User) else None
    if known is not None and known.pk == user_id:
        # A copy: the socket's user must not be the game's player object, which this
        # process may hold with the game (games.runtime.live).
        user: User | None = copy.copy(known)
    else:
        user = USER_ROW.get(user_id)
    return user if user is not None and backend.user_can_authenticate(user) else None


def guest_still_signed_in(user_id: int) -> bool:
    """Whether the guest ``user_id`` a socket opened as is a guest still: not signed up
    since (its row turned into an account) nor signed in to an account (its games brought
    there and its row deleted, ``games.services.guests``). A socket keeps the user it read
    at its connect, and the sign-up or sign-in may have happened on another process, so a
    guest's socket asks before each message (one read by key; guests are few)."""
    return User.objects.filter(pk=user_id, is_guest=True).exists()
