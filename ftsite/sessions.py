"""Django's database sessions, read with SQL compiled once per process.

Every game socket reads its session (``channels.sessions.SessionMiddleware``, then the
user on a connect thread): in a reconnect storm (a deploy, a network blip: every player's
socket back at once) Django's ``Session.objects.get(...)`` built and compiled the same
query anew for each, about a fifth of a connect's database work (py-spy,
docs/benchmarks.md "Session 9"). This engine (``SESSION_ENGINE``) reads the same row, by
the same conditions (the key, not expired), with SQL compiled once
(``games.prepared.PreparedRow``); everything else is Django's ``db`` engine, pages
included. A session deleted (signed out) or expired is no row here either.

A game socket's connect reads its session's row in the same query as its game
(``games.socket.session_user.session_user_and_game``) and hands the row's data to
:meth:`SessionStore.load_read`: the same row, by the same conditions, one round trip.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.models import Session
from django.core.exceptions import SuspiciousOperation
from django.utils import timezone

from games.prepared import PreparedRow

# Values no session has, for compiling (games.prepared): a key longer than any, a date
# before any.
SESSION_ROW = PreparedRow(
    Session.objects.all(),
    session_key="\x00not-a-session-key",
    expire_date__gt=datetime(1970, 1, 2, 3, 4, 5, tzinfo=UTC),
)


class SessionStore(DatabaseSessionStore):
    """Django's database session store, its row read with SQL compiled once. Its hook
    (``_get_session_from_db``) and attributes (``_session_cache``, ``_session_key``) are
    Django's private ones, checked with the other library internals (ftsite.patches)."""

    def _get_session_from_db(self) -> Any:
        # As Django's: the session by its key, unless expired; a bad key (Django raises
        # SuspiciousOperation for some) is logged and reads as no session.
        if self.model is not Session:  # a subclass's own model: Django's query
            return super()._get_session_from_db()  # type: ignore[misc]
        try:
            found = SESSION_ROW.get(session_key=self.session_key, expire_date__gt=timezone.now())
        except SuspiciousOperation as error:
            logger = logging.getLogger(f"django.security.{error.__class__.__name__}")
            logger.warning(str(error))
            found = None
        if found is None:
            self._session_key = None
        return found

    def loaded(self) -> bool:
        """Whether this store has read its row already (or had none to read)."""
        return hasattr(self, "_session_cache")

    def load_read(self, session_data: str | None) -> None:
        """Take ``session_data``, this store's row read by another query by the same
        conditions (the key, not expired; ``None``: no such row), as its load: what
        :meth:`load` would have made of it, and no query of its own."""
        if session_data is None:
            self._session_key = None  # as Django's load does for a row that is gone
            self._session_cache: dict[str, Any] = {}
        else:
            self._session_cache = self.decode(session_data)
