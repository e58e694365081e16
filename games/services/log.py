"""Appending one action to a game's log together with the game's new summary.

The one write an action costs. On PostgreSQL it is a single statement (an ``UPDATE`` of
the game guarded by the version it expects, feeding the ``INSERT`` of the action), so it
commits on its own, takes one round trip and needs no row lock held across Python code;
elsewhere (SQLite, the embedded default) the same two statements run in one transaction.
Either way the write is all or nothing, and it answers ``False`` (writing nothing) when
another writer got there first: the game is no longer at the expected version, or the
client message id is already in the log (the ``client_message_applied_once`` constraint),
or the game is no longer the player's it was checked for (a guest's games brought to the
account it signed in to, on another process: issue 37), so nothing a stale copy allowed is
ever written into another player's game.

A player's action may bring the server's own automatic actions with it (safe cards sent
home, or their take-back on an undo): they are ``more`` entries of the same write, so the
log never holds the player's move without what the server did after it.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import DateTimeField, F, Value
from django.db.models.functions import Coalesce

from games.models import Action, Game


@dataclass(frozen=True)
class Entry:
    """What one action writes: the log's new line and the game's summary after it."""

    seq: int
    move: str
    client_id: str
    by_system: bool
    score: int
    moves: int
    status: str
    at: datetime
    finished_at: datetime | None


def log_append(
    *,
    game_id: uuid.UUID,
    expected_version: int,
    player_id: int,
    entry: Entry,
    more: Sequence[Entry] = (),
) -> bool:
    """Write ``entry`` (and the ``more`` entries after it, numbered on) if the game is
    still at ``expected_version`` and still ``player_id``'s; ``False`` otherwise (nothing
    written). The game's summary becomes the last entry's; its dead-end mark is cleared: it
    belonged to the position before this action."""
    entries = [entry, *more]
    try:
        if connection.vendor == "postgresql":
            return _append_postgresql(game_id, expected_version, player_id, entries)
        return _append_portable(game_id, expected_version, player_id, entries)
    except IntegrityError:
        # The id (or, after a lost race, the seq) is already in the log: a writer in
        # another process applied it; the caller rebuilds from the log and finds out which.
        return False


_GAME = Game._meta.db_table
_ACTION = Action._meta.db_table
_SQL = f"""
WITH g AS (
    UPDATE {_GAME}
       SET version = %(seq)s, score = %(score)s, moves = %(moves)s, status = %(status)s,
           dead_end = false, first_action_at = COALESCE(first_action_at, %(at)s),
           finished_at = %(finished_at)s
     WHERE id = %(game)s AND version = %(expected)s AND player_id = %(player)s
 RETURNING id
)
INSERT INTO {_ACTION} (game_id, seq, move, client_id, by_system, score, created_at)
SELECT id, %(seq)s, %(move)s, %(client_id)s, %(by_system)s, %(score)s, %(at)s FROM g
"""
# The same for several lines at once (a move and the automatic moves after it), each
# column one array: one statement still, whatever the count.
_SQL_MANY = (
    _SQL.split("INSERT", 1)[0]
    + f"""
INSERT INTO {_ACTION} (game_id, seq, move, client_id, by_system, score, created_at)
SELECT g.id, a.seq, a.move, a.client_id, a.by_system, a.score, %(at)s
  FROM g, unnest(%(seqs)s::integer[], %(moves_)s::varchar[], %(client_ids)s::varchar[],
                 %(systems)s::boolean[], %(scores)s::integer[])
       AS a(seq, move, client_id, by_system, score)
"""
)


def _append_postgresql(
    game_id: uuid.UUID, expected: int, player_id: int, entries: list[Entry]
) -> bool:
    entry = entries[-1]  # the game's summary after them all
    params: dict[str, Any] = {
        "game": game_id,
        "expected": expected,
        "player": player_id,
        "seq": entry.seq,
        "score": entry.score,
        "moves": entry.moves,
        "status": entry.status,
        "at": entry.at,
        "finished_at": entry.finished_at,
        "move": entry.move,
        "client_id": entry.client_id,
        "by_system": entry.by_system,
    }
    sql = _SQL
    if len(entries) > 1:
        sql = _SQL_MANY
        params.update(
            seqs=[e.seq for e in entries],
            moves_=[e.move for e in entries],
            client_ids=[e.client_id for e in entries],
            systems=[e.by_system for e in entries],
            scores=[e.score for e in entries],
        )
    if connection.in_atomic_block:
        # Inside a caller's transaction (tests, a command): a savepoint, so a refused
        # insert leaves that transaction usable.
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.rowcount >= 1
    # Autocommit: the statement commits by itself, one round trip in all.
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount >= 1


def _append_portable(
    game_id: uuid.UUID, expected: int, player_id: int, entries: list[Entry]
) -> bool:
    entry = entries[-1]
    with transaction.atomic():
        updated = Game.objects.filter(pk=game_id, version=expected, player_id=player_id).update(
            version=entry.seq,
            score=entry.score,
            moves=entry.moves,
            status=entry.status,
            dead_end=False,
            first_action_at=Coalesce(
                F("first_action_at"), Value(entry.at, output_field=DateTimeField())
            ),
            finished_at=entry.finished_at,
        )
        if not updated:
            return False
        Action.objects.bulk_create(
            Action(
                game_id=game_id,
                seq=line.seq,
                move=line.move,
                client_id=line.client_id,
                by_system=line.by_system,
                score=line.score,
                created_at=entries[0].at,
            )
            for line in entries
        )
    return True
