"""Queues by urgency on the real broker: a thousand queued solver ratings (anyone starting
practice games queues them) wait on their own queue while a verification goes straight
through the urgent one."""

from __future__ import annotations

import time

import pytest

from games import services
from games.models import User
from games.tasks import rate_deal
from leaderboards.boards import redis_client
from leaderboards.models import Result
from tests.support.games import game_play, game_resign

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(120),
]


def queue_length(name: str) -> int:
    import redis
    from django.conf import settings

    return int(redis.Redis.from_url(settings.CELERY_BROKER_URL).llen(name))


def test_a_verification_is_not_queued_behind_a_thousand_ratings(workers, user: User) -> None:
    assert redis_client().ping()
    workers()  # the urgent queue's worker only, as compose.yaml's "worker"
    deal = services.deal_for_code(code="FT1-N-0000007")
    for _ in range(1000):
        rate_deal.delay(deal.pk)
    assert queue_length("solver") == 1000 and queue_length("celery") == 0
    game = services.game_start_daily(user=user)
    game_play(user=user, game_id=game.pk, move="s")
    game_resign(user=user, game_id=game.pk)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        result = Result.objects.filter(game=game, status="verified").first()
        if result is not None:
            break
        time.sleep(0.1)
    assert result is not None, "the verification waited"
    assert queue_length("solver") == 1000  # untouched: the solver has its own worker
