"""The post-game analysis on the real stack: asking for it queues ``games.analyse_game`` on
the ``analysis`` queue through the real Redis broker; a ``celery worker`` on that queue
alone (as compose.yaml's ``worker-analysis``) runs it against the test database, writing
its progress and its result to the game's row, which is then only read."""

from __future__ import annotations

import time

import pytest

from games import services
from games.models import Game, GameAnalysis, User
from tests.support.games import LOST, game_play
from tests.support.waiting import wait_for

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]


def test_a_worker_on_the_analysis_queue_finds_the_losing_move(workers, user: User) -> None:
    worker = workers("analysis")
    game = services.game_start_practice(user=user, code=LOST["code"])
    for move in LOST["moves"].split():
        game_play(user=user, game_id=str(game.pk), move=move)
    game.refresh_from_db()
    assert game.status == Game.Status.LOST

    row = services.analysis_request(user=user, game_id=game.pk)  # committed: queued now
    assert row.status == GameAnalysis.Status.QUEUED

    def done() -> GameAnalysis | None:
        row = GameAnalysis.objects.get(game=game)
        return row if row.status == GameAnalysis.Status.DONE else None

    row = wait_for(done, timeout=90)
    assert row.result["verdict"] == "exact"
    assert row.result["losing"] == {"seq": LOST["losing_seq"], "move": LOST["losing_move"]}
    assert row.done == row.total == row.result["checked"]
    assert "games.analyse_game[" in worker.text()
    # Asked again: read from the row, nothing queued.
    assert services.analysis_request(user=user, game_id=game.pk).finished_at == row.finished_at
    time.sleep(1)
    runs = [line for line in worker.text().splitlines() if "games.analyse_game[" in line]
    assert sum("succeeded in" in line for line in runs) == 1
