"""What the games app announces; other apps listen (``leaderboards`` builds on ``games``,
never the reverse).

``game_finished`` is sent once a finishing action (a win, a dead end, a resign, the
close-of-day resign) has committed, with ``game_id`` (text). Receivers must be quick and
must not raise: they run on the thread that serves moves. The verification sweep catches
anything a receiver missed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

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

#: Sent once a duel is decided and committed, with ``duel_id`` (text): leaderboards
#: rates it once both games' results are verified (docs/duels.md). Robust, like
#: ``game_finished``; the rating's sweep catches a duel a receiver missed.
duel_finished = Signal()

#: Sent to read duel ratings (games never imports leaderboards), with ``user_ids``: each
#: receiver returns ``{user_id: shown rating}``; a player no receiver knows counts as
#: :data:`DUEL_RATING_NEW`.
duel_ratings_wanted = Signal()
DUEL_RATING_NEW = 1000


def announce_duel_finished(duel_id: str) -> None:
    """Send ``duel_finished``; a failing receiver is logged, the others still run."""
    for receiver, outcome in duel_finished.send_robust(sender=None, duel_id=duel_id):
        if isinstance(outcome, Exception):
            logger.error(
                "a duel_finished receiver (%r) failed for %s", receiver, duel_id, exc_info=outcome
            )


def duel_ratings(user_ids: list[int]) -> dict[int, int]:
    """The shown duel rating of each of ``user_ids`` (``DUEL_RATING_NEW`` when unknown)."""
    ratings = dict.fromkeys(user_ids, DUEL_RATING_NEW)
    for _receiver, answer in duel_ratings_wanted.send(sender=None, user_ids=user_ids):
        if isinstance(answer, dict):
            ratings.update({k: int(v) for k, v in answer.items() if k in ratings})
    return ratings


#: Sent to read the verdicts of arena games (games never imports leaderboards), with
#: ``game_ids`` (text): each receiver returns ``{game_id: "verified" | "rejected"}`` for
#: the games whose verification has decided (a result held for review is not decided
#: yet); a game no receiver names is still pending (docs/arenas.md).
arena_verdicts_wanted = Signal()


def arena_verdicts(game_ids: list[str]) -> dict[str, str]:
    """The decided verdicts among ``game_ids``: ``"verified"`` or ``"rejected"``."""
    verdicts: dict[str, str] = {}
    for _receiver, answer in arena_verdicts_wanted.send(sender=None, game_ids=game_ids):
        if isinstance(answer, dict):
            verdicts.update({str(k): v for k, v in answer.items() if v in ("verified", "rejected")})
    return verdicts


#: Sent to learn about a league's arena (games never imports leaderboards), with
#: ``league_id`` and ``user_ids``: a receiver that knows the league returns
#: ``{"name": <the league's name>, "members": <those of user_ids who are its members>}``;
#: no answer means no such league (deleted), whose arena nobody may enter or see
#: (docs/arenas.md, "A league's arenas").
arena_league_wanted = Signal()


@dataclass(frozen=True)
class ArenaLeague:
    """A league arena's league as games may know it: its id, name and which of the users
    asked about are its members."""

    league_id: int
    name: str
    members: frozenset[int]


def arena_league(league_id: int, user_ids: list[int]) -> ArenaLeague | None:
    """The league of a league's arena and which of ``user_ids`` belong to it; ``None``
    when no receiver knows the league."""
    for _receiver, answer in arena_league_wanted.send(
        sender=None, league_id=league_id, user_ids=user_ids
    ):
        if isinstance(answer, dict) and "name" in answer:
            members = frozenset(int(u) for u in answer.get("members", ()) if u in user_ids)
            return ArenaLeague(league_id=league_id, name=str(answer["name"]), members=members)
    return None
