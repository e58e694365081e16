"""The pages' server configuration (ftsite/gunicorn.py), read in a new process as gunicorn
reads it at start: its defaults, each worker's pool as large as its threads, and a bad
value refused by name."""

from __future__ import annotations

import subprocess
import sys

from tests.support.fresh_settings import BASE_ENV, ROOT

READ = (
    "import os, ftsite.gunicorn as g;"
    " print(g.workers, g.threads, g.worker_class, g.keepalive, os.environ['DJANGO_DB_POOL_MAX'])"
)


def read(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", READ], cwd=ROOT, env={**BASE_ENV, **env},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_it_runs_four_workers_of_two_threads_each_with_a_pool_of_two() -> None:
    done = read()
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["4", "2", "gthread", "75", "2"]


def test_an_operator_s_pool_ceiling_is_kept() -> None:
    done = read(FT_PAGES_THREADS="3", DJANGO_DB_POOL_MAX="5")
    assert done.stdout.split()[1:] == ["3", "gthread", "75", "5"]


def test_it_refuses_a_worker_count_it_cannot_read() -> None:
    done = read(FT_PAGES_WORKERS="many")
    assert done.returncode != 0
    assert "ImproperlyConfigured: FT_PAGES_WORKERS='many' is not an integer" in done.stderr
