"""Read a setting as a freshly started process would see it under a given environment:
``ftsite.settings`` reads the environment once, at import, so a test of its defaults runs
a new interpreter instead of patching a module already loaded."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The least a production-like process needs to start (DEBUG off demands the secrets).
BASE_ENV = {
    "DJANGO_SETTINGS_MODULE": "ftsite.settings",
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": "x" * 50,
    "FT_DAILY_SECRET": "y",
    "DJANGO_ALLOWED_HOSTS": "example.org",
    "PATH": "",
}


def setting_in_new_process(name: str, **env: str) -> str:
    """What ``print(settings.<name>)`` shows (``None`` when unset) in a new process
    with ``BASE_ENV`` and ``env``; a process that fails to start fails the test with its
    error."""
    code = (
        "import django; django.setup(); from django.conf import settings;"
        f" print(getattr(settings, {name!r}, None))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**BASE_ENV, **env}, capture_output=True,
        text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()
