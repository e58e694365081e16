"""Verification by a real Celery worker: the finishing move's commit enqueues ``verify_game``
through the real Redis broker, a ``celery worker`` process (prefork, one child) sharing the
test database replays the log, and a verified ranked result lands on the Redis board.

Nothing in the application is patched: the kill test makes the worker block mid-verification
by holding the game's row lock from this process, which ``result_verify`` takes first.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import services
from games.engine import GameState
from games.models import Action, Deal, Game, User
from games.runtime.live import engine_for
from leaderboards.boards import board_for, redis_client
from leaderboards.models import Result
from leaderboards.tasks import sweep, verify_game
from tests.support.games import game_play, game_resign

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(120),
]

WON_GAMES = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "won_games.json").read_text()
)["games"]


def wait_for_result(game: Game, done: Callable[[Result], bool], timeout: float = 30) -> Result:
    """Poll the database (as a player's page would) until the game's result is ``done``."""
    deadline = time.monotonic() + timeout
    result = None
    while time.monotonic() < deadline:
        result = Result.objects.filter(game=game).first()
        if result is not None and done(result):
            return result
        time.sleep(0.1)
    raise AssertionError(f"no result for {game.pk} reached the state in {timeout} s: {result!r}")


def verified_and_ranked(result: Result) -> bool:
    return result.status == Result.Status.VERIFIED and result.ranked_at is not None


def decided(result: Result) -> bool:
    return result.status != Result.Status.PENDING


def play_some_and_resign(user: User, game: Game, count: int = 6) -> None:
    """A few legal moves (moves before draws, so the log has some variety), then resign."""
    legal = engine_for(game).legal_moves()
    for _ in range(count):
        others = [m for m in legal if m != "s"]
        move = others[0] if others else legal[0]
        legal = game_play(user=user, game_id=str(game.pk), move=move).changes["legal_moves"]
    game_resign(user=user, game_id=str(game.pk))


def verifications_done(worker: Any) -> int:
    """How many ``verify_game`` tasks the worker has logged as succeeded."""
    return sum(
        "leaderboards.verify_game[" in line and "succeeded in" in line
        for line in worker.text().splitlines()
    )


def ranked_daily_game(user: User) -> Game:
    game = services.game_start_daily(user=user)
    play_some_and_resign(user, game)
    game.refresh_from_db()
    assert game.status == Game.Status.RESIGNED
    return game


def test_a_finished_game_is_verified_by_a_real_worker_and_ranked(workers, user, bob) -> None:
    worker = workers()
    ranked = ranked_daily_game(user)  # the resign's commit enqueued verify_game

    result = wait_for_result(ranked, verified_and_ranked)
    assert result.ranked and result.outcome == Result.Outcome.RESIGNED and not result.won
    assert (result.score, result.moves) == (ranked.score, ranked.moves)
    assert result.verified_at <= result.ranked_at
    board = board_for(result.day, result.variant)
    assert type(board).__name__ == "RedisBoard"  # the test's REDIS_URL, as the worker's
    assert board.rank(result) == 1
    assert board.size() == 1

    # A real win of a practice deal: verified (its 300-odd actions replayed), never ranked.
    won = WON_GAMES[0]
    practice = services.game_start_practice(user=bob, code=won["code"])
    for move in won["moves"].split():
        game_play(user=bob, game_id=str(practice.pk), move=move)
    practice.refresh_from_db()
    assert practice.status == Game.Status.WON

    result = wait_for_result(practice, decided)
    assert result.status == Result.Status.VERIFIED, result.reason
    assert result.won and result.score == won["score"] and result.moves == won["move_count"]
    assert not result.ranked and result.ranked_at is None
    assert board.size() == 1  # only the ranked game is on the day's board
    assert worker.text().count("Task leaderboards.verify_game[") >= 2


def forge(user: User, deal: Deal, log: list[tuple[str, int]], **claim: Any) -> Game:
    """A finished ranked game written straight to the database, as a tampered row would be,
    with the enqueue the finishing move's commit makes."""
    with transaction.atomic():
        game = Game.objects.create(
            player=user,
            deal=deal,
            mode=Game.Mode.RANKED,
            version=len(log),
            first_action_at=timezone.now() - timedelta(minutes=3),
            finished_at=timezone.now(),
            **claim,
        )
        Action.objects.bulk_create(
            Action(game=game, seq=seq, move=move, score=score)
            for seq, (move, score) in enumerate(log, start=1)
        )
        transaction.on_commit(lambda: verify_game.delay(str(game.pk)))
    return game


def test_a_forged_log_is_rejected_by_the_worker_and_never_ranked(workers, user, bob) -> None:
    workers()
    honest = ranked_daily_game(user)
    deal = honest.deal
    # bob claims a perfect win, but his log's second move breaks the rules.
    engine = GameState.from_seed(deal.seed, deal.variant, undo_limit=0)
    # Some days' deals offer nothing but the stock as a first move (CI met one).
    first = next((m for m in engine.legal_moves() if m != "s"), "s")
    engine.play(first)
    illegal = next(
        f"t{a}-t{b}"
        for a in range(1, 11)
        for b in range(1, 11)
        if a != b and f"t{a}-t{b}" not in engine.legal_moves()
    )
    forged = forge(
        bob,
        deal,
        [(first, engine.score), (illegal, engine.score)],
        status=Game.Status.WON,
        score=1360,
        moves=2,
    )

    rejected = wait_for_result(forged, decided)
    assert rejected.status == Result.Status.REJECTED
    assert "refused by the rules" in rejected.reason and f"{illegal!r}" in rejected.reason
    assert rejected.verified_at is not None and rejected.ranked_at is None

    honest_result = wait_for_result(honest, verified_and_ranked)
    board = board_for(deal.day, deal.variant)
    assert board.rank(rejected) is None
    assert [entry.result_id for entry in board.page(0, 10)] == [honest_result.pk]


def game_row_locked(game: Game) -> psycopg.Connection:
    """Hold the game's row lock in an open transaction on a connection of our own."""
    db = settings.DATABASES["default"]
    conn = psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        user=db["USER"],
        dbname=db["NAME"],
        autocommit=False,
    )
    conn.execute("SELECT id FROM games_game WHERE id = %s FOR UPDATE", [game.pk])
    return conn


def wait_until_blocked_by(lock: psycopg.Connection, timeout: float = 30, count: int = 1) -> None:
    """Until ``count`` other backends wait for the lock ``lock`` holds (workers mid-task).

    A second waiter for a row waits behind the first (on its tuple lock), not on the holder
    itself, so what is counted is the holder's blocked tree."""
    holder = lock.info.backend_pid
    with psycopg.connect(
        host=lock.info.host, port=lock.info.port, user=lock.info.user, dbname=lock.info.dbname,
        autocommit=True,
    ) as probe:  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            waiting = probe.execute(
                "WITH RECURSIVE blocked(pid) AS ("
                " SELECT pid FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))"
                " UNION SELECT a.pid FROM pg_stat_activity a JOIN blocked b"
                " ON b.pid = ANY(pg_blocking_pids(a.pid)))"
                " SELECT count(*) FROM blocked",
                [holder],
            ).fetchone()
            if waiting and waiting[0] >= count:
                return
            time.sleep(0.05)
    raise AssertionError("the workers never reached the game's row lock")


def test_two_deliveries_at_once_decide_and_rank_once(workers, user) -> None:
    # Two messages for one game (a redelivery racing the original, or the sweep's copy), taken
    # by two workers at the same moment: both wait on the game's row lock; the second to get
    # it read the tables before the first committed, meets the first's result at its insert,
    # and answers with that verdict.
    game = ranked_daily_game(user)  # no worker yet: its message waits in the queue...
    verify_game.delay(str(game.pk))  # ...beside a second one
    lock = game_row_locked(game)
    try:
        first, second = workers(), workers()
        wait_until_blocked_by(lock, count=2)
    finally:
        lock.rollback()
        lock.close()

    result = wait_for_result(game, verified_and_ranked)
    deadline = time.monotonic() + 30
    while verifications_done(first) + verifications_done(second) < 2:
        assert time.monotonic() < deadline, first.text()[-2000:] + second.text()[-2000:]
        time.sleep(0.1)
    assert "raised unexpected" not in first.text() + second.text()
    assert Result.objects.filter(game=game).count() == 1
    board = board_for(result.day, result.variant)
    assert board.size() == 1 and board.rank(result) == 1


def test_killing_the_worker_mid_verification_leaves_the_result_verified_exactly_once(
    workers, user
) -> None:
    # A short visibility timeout, so a message whose worker died comes back in seconds. The
    # settings require it to be at least twice the time limit, and make the soft limit the
    # time limit minus 5 s: 8 s gives a 3 s soft limit, clear of the kill below (at 5 s it
    # would be 1 s; a soft limit that fired first would fail the task, and acks_late would
    # then ack the message, leaving only the sweep to recover it).
    limits = {"CELERY_TASK_TIME_LIMIT": "8", "CELERY_VISIBILITY_TIMEOUT": "16"}
    visibility = int(limits["CELERY_VISIBILITY_TIMEOUT"])
    game = ranked_daily_game(user)  # no worker yet: the message waits in the queue
    lock = game_row_locked(game)
    try:
        first = workers(**limits)
        wait_until_blocked_by(lock)  # inside result_verify, blocked on SELECT ... FOR UPDATE
        picked_up = time.time()
        first.wait_for("Task leaderboards.verify_game[", timeout=5)  # "... received"
        task_id = first.text().split("Task leaderboards.verify_game[")[1].split("]")[0]
        first.kill()  # SIGKILL, main process and child: nobody acks, rejects or requeues
    finally:
        lock.rollback()
        lock.close()
    assert not Result.objects.filter(game=game).exists()  # nothing of the task committed

    # The message is neither queued nor acknowledged: kombu's Redis transport holds it in the
    # "unacked" hash (delivery time in "unacked_index"). A worker's periodic restore sweep (the
    # first one runs as it starts consuming) puts it back on the queue once it is older than
    # the visibility timeout; reject_on_worker_lost plays no part, as no parent survived.
    broker = redis_client()
    assert broker.llen("celery") == 0
    assert any(task_id in raw.decode() for raw in broker.hvals("unacked"))
    time.sleep(max(0.0, picked_up + visibility + 0.5 - time.time()))
    second = workers(**limits)

    result = wait_for_result(game, verified_and_ranked)
    assert f"leaderboards.verify_game[{task_id}]" in second.text()  # the same message, again
    assert Result.objects.filter(game=game).count() == 1
    board = board_for(result.day, result.variant)
    assert board.size() == 1 and board.rank(result) == 1

    # Delivered once more (as a second restore or the sweep might): nothing changes.
    verify_game.delay(str(game.pk))  # no task result is kept: the worker's log tells
    deadline = time.monotonic() + 30
    while verifications_done(second) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert verifications_done(second) == 2, second.text()[-3000:]
    again = Result.objects.get(game=game)
    assert (again.status, again.verified_at, again.ranked_at) == (
        Result.Status.VERIFIED,
        result.verified_at,
        result.ranked_at,
    )
    assert broker.zcard(board.key) == 1  # type: ignore[attr-defined]


def test_the_sweep_re_enqueues_a_verification_whose_message_was_lost(workers, user) -> None:
    from ftsite.celery import app

    game = ranked_daily_game(user)  # no worker: the message waits in the queue...
    assert redis_client().llen("celery") == 1
    app.control.purge()  # ...and is lost
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.now() - timedelta(minutes=2))

    # here; it enqueues to Redis (no closed deal: no day file to build)
    assert sweep.apply().get() == {"games": 1, "results": 0, "day_files": 0, "duels": 0}
    assert redis_client().llen("celery") == 1
    workers()
    result = wait_for_result(game, verified_and_ranked)
    assert board_for(result.day, result.variant).rank(result) == 1
