"""A benchmark's scratch PostgreSQL database and the site's settings on it.

Every benchmark that measures the database (``dayfile``, ``logs``, ``live_memory``,
``verify``) drops and makes a database of its own before it sets Django up: never the real
one nor the test tier's (refused by name), and ``BENCH_DATABASE_URL`` chooses another.

    DB_URL, DB_NAME = scratch_database("ft_bench_logs", FT_COMPACT_AFTER_HOURS="1")
    import django; django.setup()
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

import psycopg

#: Databases a benchmark may never drop.
PROTECTED = ("fortythieves", "test_fortythieves", "postgres")
#: The production settings a benchmark runs on (DEBUG off), with throwaway secrets.
SITE_ENV = {
    "DJANGO_SETTINGS_MODULE": "ftsite.settings",
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": "benchmark-only",
    "FT_DAILY_SECRET": "benchmark-only",
    "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
    "DJANGO_SECURE_COOKIES": "false",
}


def admin(url: str, sql: str) -> None:
    """Run ``sql`` on the server of ``url``, from its ``postgres`` database."""
    base = url.rsplit("/", 1)[0]
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def scratch_drop(url: str) -> None:
    admin(url, f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')


def scratch_database(
    default_name: str, *, redis_url: str | None = None, **env: str
) -> tuple[str, str]:
    """Drop and make the scratch database (``BENCH_DATABASE_URL``, else ``default_name`` on
    the local server), point this process's settings at it (Redis only when ``redis_url``
    is given; ``env`` on top) and return its URL and name. Call before ``django.setup()``."""
    url = os.environ.get("BENCH_DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/{default_name}")
    name = url.rsplit("/", 1)[1]
    if name in PROTECTED:
        sys.exit(f"refusing to use {name!r}: the benchmark drops its database")
    os.environ.update({**SITE_ENV, "DATABASE_URL": url, **env})
    if redis_url is None:
        os.environ.pop("REDIS_URL", None)
    else:
        os.environ["REDIS_URL"] = redis_url
    scratch_drop(url)
    admin(url, f'CREATE DATABASE "{name}"')
    return url, name


def run_header() -> str:
    """The line a benchmark prints first: the commit it measures, the processor, the cores."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
    ).stdout.strip()
    return f"commit {commit}, {platform.processor() or platform.machine()}, {os.cpu_count()} cores"
