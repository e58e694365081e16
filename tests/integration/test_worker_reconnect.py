"""A Celery worker survives its broker going away (issue 37: with redis-py 8.2 a worker
died at a reconnect, ``Unrecoverable error: ResponseError ... unknown subcommand
'MAINT_NOTIFICATIONS'``, against Redis 7, and verification stopped until a person
restarted it). The lock pins the client (docs/install.md, "Why redis is held below 8.2");
this is the test that lifting the pin asks for.

A real ``celery worker`` (as the tier starts them: prefork, one child) runs against a
redis-server of this test's own on a free port (Debian's 7.0 here, the major version of
compose's ``redis:7-alpine``), never the machine's Redis. Everything of the worker's Redis
use goes there (its ``REDIS_URL``: broker, boards, cache); the games and results are in the
test database as usual. Two faults:

* every client connection dropped (``CLIENT KILL TYPE normal``): Redis keeps its data, so
  a verification queued at once, while the worker is still reconnecting, must be done;
* the redis-server killed with SIGKILL and started again, empty (as a crash of a Redis
  without persistence: compose's keeps only snapshots). What was queued before is gone
  with it, so the test queues new work after the restart: the worker must reconnect,
  declare its queue again (the queue's binding was lost too) and verify it.

After each the worker process must still be the same, alive one.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from ftsite.celery import app
from games import services
from games.models import Game, User
from leaderboards.models import Result
from leaderboards.tasks import verify_game
from load.fault_stack import OwnRedis
from tests.support.servers import free_port

from .conftest import Worker, clear_celery_and_boards, server_env, start_worker
from .test_worker import play_some_and_resign, verified_and_ranked, wait_for_result

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]

PASSWORD = "correct horse battery staple"


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    server = OwnRedis(port=free_port(), log=tmp_path / "redis.log")
    server.start()
    yield server
    server.kill()


@pytest.fixture
def worker_on_own_redis(
    django_db_setup: None, own_redis: OwnRedis, tmp_path: Path
) -> Iterator[Worker]:
    worker = start_worker(server_env() | {"REDIS_URL": own_redis.url}, tmp_path)
    try:
        yield worker
    finally:
        worker.kill()
        # The games' own commits queued their verifications on the tier's Redis, where no
        # worker of this test listens: cleared, as the tier's workers fixture does.
        clear_celery_and_boards()


def ranked_game(name: str) -> Game:
    """A finished ranked game of a new player (one daily attempt each)."""
    player = User.objects.create_user(username=name, password=PASSWORD)
    game = services.game_start_daily(user=player)
    play_some_and_resign(player, game)
    game.refresh_from_db()
    assert game.status == Game.Status.RESIGNED
    return game


def queue_on(server: OwnRedis, game: Game) -> None:
    """Queue ``game``'s verification on ``server``, as the finishing move's commit does."""
    with app.connection_for_write(server.url) as connection:
        verify_game.apply_async(args=[str(game.pk)], connection=connection, retry=True)


def assert_alive(worker: Worker, pid: int) -> None:
    assert worker.process.poll() is None, f"the worker exited:\n{worker.text()[-3000:]}"
    assert worker.process.pid == pid
    assert "Unrecoverable error" not in worker.text()


def wait_connected(server: OwnRedis, worker: Worker, timeout: float = 30) -> None:
    """Until the worker holds connections to ``server`` again (it logs when it does)."""
    deadline = time.monotonic() + timeout
    client = redis.Redis(port=server.port)
    while time.monotonic() < deadline:
        if worker.process.poll() is not None:
            raise AssertionError(f"the worker exited:\n{worker.text()[-3000:]}")
        if any(c.get("cmd") in {"brpop", "blpop"} for c in client.client_list()):
            return
        time.sleep(0.2)
    raise AssertionError(f"the worker never listened again:\n{worker.text()[-3000:]}")


def test_the_worker_verifies_what_was_queued_through_a_dropped_connection(
    own_redis: OwnRedis, worker_on_own_redis: Worker
) -> None:
    worker, pid = worker_on_own_redis, worker_on_own_redis.process.pid
    first = ranked_game("before")
    queue_on(own_redis, first)
    assert verified_and_ranked(wait_for_result(first, verified_and_ranked))

    second = ranked_game("dropped")
    dropped = redis.Redis(port=own_redis.port).client_kill_filter(_type="normal")
    assert dropped >= 1  # the worker's connections (the caller's own is skipped)
    queue_on(own_redis, second)  # at once: the worker may still be reconnecting
    assert verified_and_ranked(wait_for_result(second, verified_and_ranked))
    assert_alive(worker, pid)


def test_the_worker_reconnects_after_a_redis_restart_and_verifies_new_work(
    own_redis: OwnRedis, worker_on_own_redis: Worker
) -> None:
    worker, pid = worker_on_own_redis, worker_on_own_redis.process.pid
    first = ranked_game("before")
    queue_on(own_redis, first)
    wait_for_result(first, verified_and_ranked)

    own_redis.kill()  # kill -9: everything it held is gone
    worker.wait_for("Connection to broker lost", timeout=30)
    time.sleep(2)  # the worker retries against nothing for a while, as in an outage
    assert_alive(worker, pid)
    own_redis.start()  # the same port, empty
    wait_connected(own_redis, worker)

    after = ranked_game("after")
    queue_on(own_redis, after)
    result = wait_for_result(after, verified_and_ranked, timeout=60)
    assert result.status == Result.Status.VERIFIED
    assert_alive(worker, pid)
