"""Periodic Celery tasks: thin wrappers that call the deal services.

Both are idempotent (the services are), so beat may run them late, twice, or
after an outage without harm. The schedule is ``CELERY_BEAT_SCHEDULE`` in settings.
Results are plain JSON values, as the result backend serialises JSON only.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from games import services
from games.daily import utc_today
from games.errors import ServiceError
from games.models import Deal

logger = logging.getLogger(__name__)


@shared_task(name="games.open_upcoming_deals")
def open_upcoming_deals() -> list[str]:
    """Make sure today's and tomorrow's (UTC) daily deals exist; returns their days.

    Tomorrow's is opened ahead so that 00:00 UTC never waits on a task run.
    """
    today = utc_today(timezone.now())
    opened = []
    for day in (today, today + timedelta(days=1)):
        deal = services.deal_open_daily(day=day)
        opened.append(deal.day.isoformat())
    return opened


@shared_task(name="games.close_due_deals")
def close_due_deals() -> dict[str, int]:
    """Close every daily deal whose day is over and that is not revealed yet.

    Returns how many deals were closed, by day. A day that fails is logged and
    left for the next run rather than blocking the other days.
    """
    now = timezone.now()
    # A read of the due days; deciding and writing stays in the service.
    due_days = (
        Deal.objects.filter(kind=Deal.Kind.DAILY, revealed_at__isnull=True, closes_at__lte=now)
        .order_by("day")
        .values_list("day", flat=True)
        .distinct()
    )
    closed: dict[str, int] = {}
    for day in due_days:
        try:
            closed[day.isoformat()] = services.deal_close_daily(day=day, now=now)
        except ServiceError as err:
            logger.warning("could not close the deals of %s: %s", day, err.reason)
    return closed
