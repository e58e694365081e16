"""Celery application; configured from Django settings prefixed with ``CELERY_``."""

from __future__ import annotations

import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ftsite.settings")

app = Celery("ftsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.task_prerun.connect
@signals.task_postrun.connect
def _close_old_connections(*, task=None, **_: object) -> None:
    """Treat each task like a web request: drop a database connection that is broken or
    older than ``CONN_MAX_AGE``, keep a healthy one (with the pool, ``CONN_MAX_AGE`` is 0:
    the connection goes back to the process's pool after each task, ``ftsite.dbpool``).

    Celery's own Django fixup closes every connection around every task unless
    ``CELERY_DB_REUSE_MAX`` is set (it is, in settings); opening a PostgreSQL connection
    costs several milliseconds, more than verifying a game. Eager tasks run inside the
    caller's request or transaction, whose connection is not ours to close.
    """
    if task is not None and getattr(task.request, "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()
