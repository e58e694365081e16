"""Periodic Celery tasks: thin wrappers that call the deal services.

Both are idempotent (the services are), so beat may run them late, twice, or
after an outage without harm. The schedule is ``BEAT_SCHEDULE`` in ftsite/schedule.py.
Results are plain JSON values, as the result backend serialises JSON only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from games import services
from games.daily import utc_today
from games.errors import ServiceError
from games.models import Deal
from games.weekly import week_label, week_monday

logger = logging.getLogger(__name__)


@shared_task(name="games.open_upcoming_deals", time_limit=settings.FT_SOLVER_TASK_TIME_LIMIT)
def open_upcoming_deals() -> list[str]:
    """Make sure today's and tomorrow's (UTC) daily deals exist; returns their days.

    Tomorrow's is opened ahead so that 00:00 UTC never waits on a task run (certifying a
    deal runs the solver over its seed candidates, which may take minutes). A day whose
    candidates the solver could not win is logged and left for the next run.
    """
    today = utc_today(timezone.now())
    opened = []
    for day in (today, today + timedelta(days=1)):
        try:
            services.deal_open_daily(day=day)
        except services.DealNotCertified as err:
            logger.error("could not open the deal of %s: %s", day, err.reason)
            continue
        opened.append(day.isoformat())
    return opened


@shared_task(name="games.open_weekly_deals", time_limit=settings.FT_SOLVER_TASK_TIME_LIMIT)
def open_weekly_deals() -> list[str]:
    """Make sure this ISO week's and next week's challenges exist; returns their Mondays.

    Next week's is opened (certified) ahead, as the daily's tomorrow is, so Monday 00:00
    UTC never waits on the solver. A week the solver could not certify is logged and left
    for the next run.
    """
    this_week = week_monday(utc_today(timezone.now()))
    opened = []
    for monday in (this_week, this_week + timedelta(days=7)):
        try:
            services.deal_open_weekly(monday=monday)
        except services.DealNotCertified as err:
            logger.error("could not open the weekly deal of %s: %s", monday, err.reason)
            continue
        opened.append(monday.isoformat())
    return opened


# Solver batches ---------------------------------------------------------------------------
# The same loops run from Celery (progress through update_state) and from
# ``manage.py solve_deals`` (a progress bar); ``progress(done, total)`` is called after
# each item, and once with done=0 before the first.

Progress = Callable[[int, int], None]


def _no_progress(done: int, total: int) -> None:
    pass


def certify_days(
    *,
    days: int,
    first: date | None = None,
    seconds: float | None = None,
    progress: Progress = _no_progress,
) -> dict[str, Any]:
    """Open (certifying) the daily deals of ``days`` days from ``first`` (today)."""
    first = first or utc_today(timezone.now())
    result: dict[str, Any] = {"opened": [], "failed": []}
    progress(0, days)
    for offset in range(days):
        day = first + timedelta(days=offset)
        try:
            deal = services.deal_open_daily(day=day, seconds=seconds)
        except services.DealNotCertified as err:
            logger.error("could not open the deal of %s: %s", day, err.reason)
            result["failed"].append(day.isoformat())
        else:
            result["opened"].append(
                {"day": day.isoformat(), "candidate": deal.candidate, "difficulty": deal.difficulty}
            )
        progress(offset + 1, days)
    return result


def rate_practice(
    *, seconds: float | None = None, limit: int | None = None, progress: Progress = _no_progress
) -> dict[str, Any]:
    """Rate the practice deals not rated yet (oldest first), at most ``limit`` of them."""
    ids = list(
        Deal.objects.filter(kind=Deal.Kind.PRACTICE, difficulty__isnull=True)
        .order_by("pk")
        .values_list("pk", flat=True)[:limit]
    )
    rated: dict[str, Any] = {}
    progress(0, len(ids))
    for done, deal_id in enumerate(ids, start=1):
        deal = services.deal_rate(deal_id=deal_id, seconds=seconds)
        rated[str(deal_id)] = deal.difficulty
        progress(done, len(ids))
    return {"rated": rated}


def _task_progress(task: Any) -> Progress:
    def report(done: int, total: int) -> None:
        task.update_state(state="PROGRESS", meta={"done": done, "total": total})

    return report


@shared_task(
    bind=True, name="games.certify_upcoming", time_limit=settings.FT_SOLVER_TASK_TIME_LIMIT
)
def certify_upcoming(self: Any, days: int = 3, seconds: float | None = None) -> dict[str, Any]:
    """Open (certify) the next ``days`` days' deals ahead, today included; reports
    ``PROGRESS`` with ``{"done", "total"}``. Idempotent: open days are skipped at once."""
    return certify_days(days=days, seconds=seconds, progress=_task_progress(self))


@shared_task(
    bind=True, name="games.rate_practice_deals", time_limit=settings.FT_SOLVER_TASK_TIME_LIMIT
)
def rate_practice_deals(
    self: Any, seconds: float | None = None, limit: int | None = 100
) -> dict[str, Any]:
    """Rate unrated practice deals (a batch of ``limit``); reports ``PROGRESS``."""
    return rate_practice(seconds=seconds, limit=limit, progress=_task_progress(self))


@shared_task(name="games.rate_deal")
def rate_deal(deal_id: int) -> int | None:
    """Rate one deal's difficulty (enqueued when a practice game of an unrated deal starts);
    returns the rating. A deal rated meanwhile is left as it is."""
    try:
        return services.deal_rate(deal_id=deal_id).difficulty
    except ServiceError as err:
        logger.warning("could not rate deal %s: %s", deal_id, err.reason)
        return None


@shared_task(name="games.build_completions", time_limit=settings.FT_SOLVER_TASK_TIME_LIMIT)
def build_completions(deal_id: int) -> int | None:
    """Draw a deterministically certified deal's completions for the sequential fair-play
    test (enqueued when the deal is certified); returns how many stock counts have them."""
    drawn = services.deal_completions_build(deal_id=deal_id)
    return None if drawn is None else len(drawn.pool)


@shared_task(name="games.close_due_deals")
def close_due_deals() -> dict[str, int]:
    """Close every daily deal whose day is over and every weekly challenge whose week is
    over, that are not revealed yet.

    Returns how many deals were closed, by day (a week by its ISO week, ``2026-W49``). A
    day that fails is logged and left for the next run rather than blocking the other days.
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
    for day in (d for d in due_days if d is not None):  # a daily deal always has its day
        try:
            closed[day.isoformat()] = services.deal_close_daily(day=day, now=now)
        except ServiceError as err:
            logger.warning("could not close the deals of %s: %s", day, err.reason)
    # The weekly challenges too, keyed by their ISO week ("2026-W49").
    due_weeks = Deal.objects.filter(
        kind=Deal.Kind.WEEKLY, revealed_at__isnull=True, closes_at__lte=now
    ).values_list("day", flat=True)
    for monday in (m for m in due_weeks if m is not None):  # a weekly deal has its Monday
        try:
            closed[week_label(monday)] = services.deal_close_weekly(monday=monday, now=now)
        except ServiceError as err:
            logger.warning("could not close the weekly deal of %s: %s", monday, err.reason)
    return closed


@shared_task(name="games.fill_practice_pool", time_limit=settings.FT_SOLVER_TASK_TIME_LIMIT)
def fill_practice_pool(variant: str | None = None, count: int | None = None) -> list[dict]:
    """Top up the pool of proven-winnable practice deals (on the ``solver`` queue; hourly
    from beat): one ``variant`` by ``count``, else every variant towards ``FT_POOL_TARGET``.
    Returns what each fill did."""
    if variant is not None:
        fills = [services.practice_pool_fill(variant=variant, count=count or 5)]
    else:
        fills = services.practice_pool_top_up()
    return [vars(fill) for fill in fills]


@shared_task(name="games.duel_sweep")
def duel_sweep() -> int:
    """Tick every duel the clock has business with (docs/duels.md); every 15 s from beat."""
    return services.duel_sweep()


@shared_task(name="games.arena_sweep")
def arena_sweep() -> int:
    """Open, close and settle the arenas' rounds on time and keep the site's schedule
    ahead (docs/arenas.md); every 15 s from beat."""
    return services.arena_sweep()


@shared_task(name="games.fill_duel_reserve", time_limit=settings.FT_SOLVER_TASK_TIME_LIMIT)
def fill_duel_reserve(variant: str = "forty-thieves") -> int:
    """Top up the duels' reserve of fresh certified deals (``solver`` queue)."""
    return services.duel_reserve_fill(variant=variant)


@shared_task(name="games.purge_guests")
def purge_guests() -> int:
    """Delete guests idle for ``FT_GUEST_DAYS`` with their games; returns how many. Daily
    from beat; idempotent."""
    return services.guests_purge()


@shared_task(name="games.prune_sightings")
def prune_sightings() -> int:
    """Delete the fair-play sightings past their retention (``FT_SIGHTING_DAYS``); returns
    how many. Daily from beat; idempotent."""
    return services.sightings_prune()


@shared_task(
    name="games.analyse_game",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    # The analysis keeps to FT_ANALYSIS_SECONDS by itself; the limits are only a backstop.
    time_limit=settings.FT_ANALYSIS_SECONDS + 120,
    soft_time_limit=settings.FT_ANALYSIS_SECONDS + 60,
)
def analyse_game(game_id: str) -> str | None:
    """The post-game analysis a player asked for (on the ``analysis`` queue); progress and
    result are on the game's ``GameAnalysis`` row, which the replay page polls."""
    row = services.analysis_run(game_id=game_id)
    return None if row is None else row.status


@shared_task(name="games.password_reset_mail", ignore_result=True)
def password_reset_mail(email: str, domain: str, use_https: bool, language: str) -> None:
    """The password-reset mail, sent away from the request (see
    ``services.account_password_reset_mail``: the request's time must not tell whether
    the address has an account)."""
    services.account_password_reset_mail(
        email=email, domain=domain, use_https=use_https, language=language
    )
