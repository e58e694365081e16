"""The Celery app keeps a worker's database connection between tasks, as Django does
between requests (the integration tier's real workers and ``benchmarks/verify.py`` show
the effect; here, the wiring)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from celery import signals

from ftsite import celery as celery_app


def task(*, eager: bool) -> SimpleNamespace:
    return SimpleNamespace(request=SimpleNamespace(is_eager=eager))


@pytest.fixture
def closes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    monkeypatch.setattr("django.db.close_old_connections", lambda: calls.append("closed"))
    return calls


def test_celery_reuses_connections_instead_of_closing_them_around_every_task() -> None:
    # Celery's Django fixup closes every connection around every task unless this is set.
    assert celery_app.app.conf.get("CELERY_DB_REUSE_MAX") >= 1000


@pytest.mark.parametrize("signal", [signals.task_prerun, signals.task_postrun])
def test_a_worker_task_drops_only_broken_or_old_connections(closes: list[str], signal) -> None:
    signal.send(sender=None, task=task(eager=False), task_id="t", args=(), kwargs={})
    assert closes == ["closed"]  # close_old_connections: closes only broken or aged ones


def test_an_eager_task_leaves_its_callers_connection_alone(closes: list[str]) -> None:
    # An eager task runs inside the caller's request or transaction.
    signals.task_prerun.send(sender=None, task=task(eager=True), task_id="t", args=(), kwargs={})
    signals.task_postrun.send(sender=None, task=task(eager=True), task_id="t", args=(), kwargs={})
    assert closes == []


@pytest.mark.parametrize(
    "name",
    [
        "games.open_upcoming_deals",
        "games.open_weekly_deals",
        "games.certify_upcoming",
        "games.rate_deal",
        "games.rate_practice_deals",
    ],
)
def test_solver_work_never_runs_on_the_verifications_queue(name: str) -> None:
    # Certifying a deal's seed may take minutes of solver time; a verification must not
    # wait behind it (issue 11: queues kept apart).
    assert celery_app.app.amqp.router.route({}, name)["queue"].name == "solver"
