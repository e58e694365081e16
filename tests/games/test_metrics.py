"""The game socket's and the solver pool's numbers for the operator (games.metrics): a move
moves the ack histogram, a refusal counts its code, sockets are counted in and out, and
the dead-end queue reports its use. Read from prometheus_client's registry, as a scrape
would (the values are the process's since it started: each test compares before/after)."""

from __future__ import annotations

import pytest
from prometheus_client import REGISTRY

from games.outcomes import DeadEndCheck
from games.runtime import solver_pool
from tests.support.sockets import ask, close_code, db, join, open_socket, run_async

from .conftest import practice_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("empty_channel_layer"),
]


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@run_async
async def test_a_move_moves_the_ack_histogram_and_a_refusal_counts_its_code(user) -> None:
    game = await db(practice_game)(user)
    moves_before = sample("ft_move_ack_seconds_count", kind="move")
    fast_before = sample("ft_move_ack_seconds_bucket", kind="move", le="5.0")
    stale_before = sample("ft_refusals_total", code="stale_version")
    ws, _ = await join(game.pk, user)
    assert (await ask(ws, {"type": "move", "id": "m1", "move": "s", "version": 0}))["version"] == 1
    refused = await ask(ws, {"type": "move", "id": "m2", "move": "s", "version": 0})
    assert refused["code"] == "stale_version"
    await ws.disconnect()
    # Both were answered: both are acks (the refusal too), each within the top bucket.
    assert sample("ft_move_ack_seconds_count", kind="move") == moves_before + 2
    assert sample("ft_move_ack_seconds_bucket", kind="move", le="5.0") == fast_before + 2
    assert sample("ft_move_ack_seconds_sum", kind="move") > 0
    assert sample("ft_refusals_total", code="stale_version") == stale_before + 1


@run_async
async def test_it_counts_sockets_in_and_out(user) -> None:
    game = await db(practice_game)(user)
    connects, open_now = sample("ft_socket_connects_total"), sample("ft_sockets_open")
    hellos = sample("ft_socket_connect_seconds_count")
    first, _ = await join(game.pk, user)
    second, _ = await join(game.pk, user)
    assert sample("ft_socket_connects_total") == connects + 2
    assert sample("ft_sockets_open") == open_now + 2
    assert sample("ft_socket_connect_seconds_count") == hellos + 2
    closed = sample("ft_socket_disconnects_total", code="1000")
    await first.disconnect(code=1000)
    await second.disconnect(code=1000)
    assert sample("ft_sockets_open") == open_now
    assert sample("ft_socket_disconnects_total", code="1000") == closed + 2


@run_async
async def test_a_refused_socket_is_never_counted_open(bob) -> None:
    open_now = sample("ft_sockets_open")
    unknown = await open_socket("00000000-0000-0000-0000-000000000000", bob)
    assert await close_code(unknown) == 4404
    await unknown.disconnect(code=4404)
    assert sample("ft_sockets_open") == open_now


def test_the_dead_end_queue_reports_running_waiting_and_skipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started: list[DeadEndCheck] = []
    monkeypatch.setattr(solver_pool.DeadEndQueue, "_start", lambda self, c, then: started.append(c))
    queue = solver_pool.DeadEndQueue(running=1, waiting=1)
    skipped = sample("ft_solver_pool_skipped_total")

    def check(game: str) -> DeadEndCheck:
        return DeadEndCheck(game_id=game, version=1, state={})

    assert queue.submit(check("a"), lambda c, v: None)
    assert sample("ft_solver_pool_jobs", kind="dead_end") == 1
    assert queue.submit(check("b"), lambda c, v: None)
    assert sample("ft_solver_pool_waiting") == 1
    assert not queue.submit(check("c"), lambda c, v: None)
    assert sample("ft_solver_pool_skipped_total") == skipped + 1
    assert [c.game_id for c in started] == ["a"]


def test_the_solver_core_gauge_names_the_core_that_runs() -> None:
    from games.solver import core

    assert sample("ft_solver_core", backend=core.BACKEND) == 1
    other = core.PYTHON if core.BACKEND == core.COMPILED else core.COMPILED
    assert sample("ft_solver_core", backend=other) == 0
