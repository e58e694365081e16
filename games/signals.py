"""What the games app announces; other apps listen (``leaderboards`` builds on ``games``,
never the reverse).

``game_finished`` is sent once a finishing action (a win, a dead end, a resign, the
close-of-day resign) has committed, with ``game_id`` (text). Receivers must be quick and
must not raise: they run on the thread that serves moves. The verification sweep catches
anything a receiver missed.
"""

from __future__ import annotations

import logging

from django.dispatch import Signal

logger = logging.getLogger(__name__)

game_finished = Signal()


def announce_game_finished(game_id: str) -> None:
    """Send ``game_finished``; a failing receiver is logged, and the others still run."""
    for receiver, outcome in game_finished.send_robust(sender=None, game_id=game_id):
        if isinstance(outcome, Exception):
            logger.error(
                "a game_finished receiver (%r) failed for %s", receiver, game_id, exc_info=outcome
            )


#: Sent inside the transaction that deletes an account, before its rows go, with
#: ``user_id``: a receiver gathers what it must undo outside the database (a Redis board)
#: and does it on commit. A failing receiver fails the deletion (``send``, not robust).
account_deleting = Signal()

#: Sent while a person's data is gathered for download, with ``user_id``: each receiver
#: returns a dict of sections (its own app's data) that join the export.
account_exporting = Signal()
