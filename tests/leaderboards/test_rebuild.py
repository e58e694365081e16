"""``manage.py rebuild_boards``: Redis boards rebuilt from the database, with a progress bar."""

from __future__ import annotations

from datetime import date
from io import StringIO

import pytest
from django.core.management import call_command

from leaderboards.boards import board_for, ranked_results, redis_client

pytestmark = pytest.mark.django_db

# Days no other test uses: the Redis database may be shared with parallel runs.
DAYS = (date(2001, 2, 3), date(2001, 2, 4))


@pytest.fixture
def board_day() -> date:
    """The shared ``redis_boards`` fixture clears this day's board and its neighbours'."""
    return DAYS[0]


def test_without_redis_there_is_nothing_to_rebuild(settings) -> None:
    settings.REDIS_URL = None
    out = StringIO()
    call_command("rebuild_boards", stdout=out)
    assert "Nothing to rebuild" in out.getvalue() and "the database is the board" in out.getvalue()


def test_it_restores_lost_boards_with_a_progress_bar(redis_boards: None, make_result) -> None:
    for i in range(3):
        make_result(day=DAYS[0], score=500 + i, won=True)
    for i in range(2):
        make_result(day=DAYS[1], score=900 - i, outcome="won" if i == 0 else "lost")
    first = board_for(DAYS[0], "forty-thieves")
    second = board_for(DAYS[1], "forty-thieves")
    first.clear()
    second.clear()
    # A stale entry (say, of a result deleted since) must not survive the rebuild.
    first.redis.zadd(first.key, {"0000000000000000:999999999999999999": 1})
    assert second.size() == 0  # as after a Redis flush

    out = StringIO()
    call_command("rebuild_boards", "--batch", "2", stdout=out)

    text = out.getvalue()
    assert "\r[" in text and "] 2/5" in text and "] 4/5" in text
    assert "\r[" + "#" * 30 + "] 5/5\n" in text
    assert text.rstrip().endswith("s.") and "Rebuilt the daily boards: 5 results" in text
    for day, board in zip(DAYS, (first, second), strict=True):
        expected = list(ranked_results(day, "forty-thieves").values_list("id", flat=True))
        assert [e.result_id for e in board.page(0, 10)] == expected
        assert board.size() == len(expected)


def test_an_unreachable_redis_is_a_clear_error(settings, make_result) -> None:
    from django.core.management.base import CommandError

    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    redis_client.cache_clear()
    make_result(day=DAYS[0], score=100, won=True)
    try:
        with pytest.raises(CommandError, match="rebuilding the boards failed"):
            call_command("rebuild_boards", stdout=StringIO())
    finally:
        redis_client.cache_clear()
