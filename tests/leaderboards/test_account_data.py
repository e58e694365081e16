"""A deleted account's results leave every board; a data download includes the results
(leaderboards.accounts, listening to games.signals)."""

from __future__ import annotations

from datetime import date

import pytest

from games import services
from games.models import Deal, Game
from leaderboards.boards import board_for
from leaderboards.models import Result

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"


def test_it_takes_a_deleted_accounts_results_off_the_board(
    board_kind: str, user, bob, make_result, board_day: date, django_capture_on_commit_callbacks
) -> None:
    mine = make_result(user, won=True, score=500)
    theirs = make_result(bob, score=100)
    board = board_for(board_day, mine.variant)
    for result in (mine, theirs):
        board.add(result)
    assert board.rank(mine) == 1 and board.size() == 2
    with django_capture_on_commit_callbacks(execute=True):
        services.account_delete(user=user, password=PASSWORD)
    assert not Result.objects.filter(pk=mine.pk).exists()
    assert board.size() == 1 and board.rank(theirs) == 1
    assert [e.result_id for e in board.page(0, 10)] == [theirs.pk]
    assert Deal.objects.filter(pk=mine.deal_id).exists()
    assert Game.objects.filter(pk=theirs.game_id).exists()


def test_it_adds_the_results_to_the_data_download(user, make_result) -> None:
    result = make_result(user, won=True, score=321)
    data = services.account_export(user=user)
    assert [(r["game"], r["score"], r["outcome"]) for r in data["results"]] == [
        (str(result.game_id), 321, "won")
    ]
    assert data["games"][0]["deal_code"] is None  # a daily deal's code stays secret
