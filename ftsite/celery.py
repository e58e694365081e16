"""Celery application; configured from Django settings prefixed with ``CELERY_``."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ftsite.settings")

app = Celery("ftsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
