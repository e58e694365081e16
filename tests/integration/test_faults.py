"""The fault suite (``load/faults.py``, issue 11) in its quick version: 30 players for
15 s per fault against the real stack (two daphne processes, PostgreSQL, the suite's own
redis-server, a Celery worker for the ranked fault), each fault while they play:

* kill -9 one of the two daphne processes;
* kill -9 the redis-server and restart it;
* pg_terminate_backend every connection to the database, three times;
* kill -9 the Celery worker while ranked games finish, then the sweep.

For each, every ``accepted`` a client saw must be its row of the move log (0 lost), no
action may be in the log twice (0 doubled), and every finished ranked game must have
exactly one result, verified. The suite runs once, as a command (it kills processes and
cuts database connections, so it runs on a database of its own, never the test
database), and each fault is judged by its own test. The full version (100 players, 60 s
each) is a command in docs/reliability.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from load.faults import FAULT_NAMES

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]

ROOT = Path(__file__).resolve().parents[2]
# A server bug the suite found (docs/reliability.md, "Findings"): a process that served a
# game before another process played on keeps its live entry at the old version, and
# refuses every action carrying the right version as stale_version (a re-sent one too,
# instead of answering it as a duplicate). Judged on its own below, until it is fixed.
STALE_ENTRY = "(stale live entry, games.runtime.live)"


def faults_database_url() -> str:
    """A database of the suite's own on the tier's server, named after the test database
    (the DB fault terminates every connection to it)."""
    db = settings.DATABASES["default"]
    host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    return f"postgres://{db['USER']}@{host}:{port}/{db['NAME']}_faults_it"


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("faults")
    out = folder / "faults.json"
    command = [
        sys.executable, "-m", "load.faults", "--quick", "--database-url", faults_database_url(),
        "--logs", str(folder / "logs"), "--json", str(out),
    ]  # fmt: skip
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=280)
    if not out.exists():
        pytest.fail(f"the fault suite wrote no report:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}")
    found = {r["fault"]: {**r, "output": run.stdout} for r in json.loads(out.read_text())}
    assert sorted(found) == sorted(FAULT_NAMES), run.stdout
    return found


@pytest.mark.parametrize("fault", FAULT_NAMES)
def test_no_acknowledged_action_is_lost_or_applied_twice(
    reports: dict[str, dict[str, Any]], fault: str
) -> None:
    report = reports[fault]
    failures = [f for f in report["failures"] if STALE_ENTRY not in f]
    assert failures == [], report["output"]
    assert (report["lost"], report["doubled"], report["unacked_rows"]) == (0, 0, 0), report
    assert report["players"] == 30, report
    # Every player played on, and every action acknowledged is exactly the log.
    assert report["acked"] > 30 and report["acked"] == report["rows"], report


def test_the_killed_process_s_players_moved_to_the_other(
    reports: dict[str, dict[str, Any]],
) -> None:
    report = reports["kill-asgi"]
    assert report["players_on_victim"] == 15, report
    assert report["reconnected_players"] >= 15, report
    assert report["recover_s"] is not None and report["recover_s"] < 15, report


def test_the_database_cuts_happened_and_play_went_on(reports: dict[str, dict[str, Any]]) -> None:
    report = reports["db-cut"]
    assert report["connections_cut"] > 0, report
    assert report["recover_s"] is not None and report["recover_s"] < 15, report


def test_play_resumed_after_redis_came_back(reports: dict[str, dict[str, Any]]) -> None:
    report = reports["redis"]
    assert any("restarted" in event for event in report["events"]), report
    assert report["recover_s"] is not None and report["recover_s"] < 15, report


def test_every_finished_ranked_game_is_verified_exactly_once(
    reports: dict[str, dict[str, Any]],
) -> None:
    report = reports["celery"]
    ranked = report["ranked"]
    assert ranked["finished"] == 30 and ranked["active"] == 0, report
    assert ranked["results"] == ranked["verified"] == 30, report
    assert ranked["problems"] == 0, report


def test_every_process_answers_a_re_sent_action_as_a_duplicate(
    reports: dict[str, dict[str, Any]],
) -> None:
    stale = [f for r in reports.values() for f in r["failures"] if STALE_ENTRY in f]
    assert stale == []
