"""On PostgreSQL the connects a connect thread takes together read their rows in one round
trip (``PreparedRow.get_many``: psycopg's pipeline), and each still reads what it would
have read alone (the checks of ``tests/games/socket/test_connect_batch.py``)."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.access import GAME_ROW
from games.models import User
from games.runtime import live
from tests.games.conftest import practice_game
from tests.games.socket.test_connect_batch import batch_reads_as_each_alone
from tests.support.games import game_play

pytestmark = [pytest.mark.integration, pytest.mark.django_db]


def test_a_batch_reads_what_each_connect_reads_alone_on_postgresql(user: User, bob: User) -> None:
    together = batch_reads_as_each_alone(user, bob)
    assert [game is None for _, game in together] == [False, False, False, False, True]


def test_the_rows_of_a_batch_are_one_round_trip(user: User, bob: User) -> None:
    games = [practice_game(user), practice_game(bob), practice_game(user)]
    keys = [{"pk": g.pk} for g in games] + [{"pk": uuid.uuid4()}]
    with CaptureQueriesContext(connection) as queries:
        rows = GAME_ROW.get_many(keys)
    assert len(queries) == 1 and queries[0]["sql"].startswith("4 times: SELECT")
    assert [row.pk if row else None for row in rows] == [g.pk for g in games] + [None]
    for game, row in zip(games, rows, strict=False):
        alone = GAME_ROW.get(game.pk)
        assert row is not None and alone is not None
        assert row.player.username == alone.player.username and row.deal_id == alone.deal_id


def test_the_logs_of_a_batch_are_one_round_trip(user: User, bob: User) -> None:
    played = []
    for person in (user, bob, user):
        game = services.game_start_practice(user=person)
        for n in range(3):
            game_play(user=person, game_id=game.pk, move="s", client_id=f"c{n}")
        played.append(game.pk)
    live.live_clear()
    rows = [GAME_ROW.get(pk) for pk in played]
    with CaptureQueriesContext(connection) as queries:
        live.live_hold_many([row for row in rows if row is not None])
    assert len(queries) == 1 and queries[0]["sql"].startswith("3 times: SELECT")
    for row in rows:
        assert row is not None
        with CaptureQueriesContext(connection) as queries:
            held = live.engine_for(row)
        assert len(queries) == 0 and held.moves == 3 and held.view()["stock"] == 61
