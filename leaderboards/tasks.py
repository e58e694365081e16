"""Thin Celery entry points over the leaderboards services.

Verification and ranking keep no task results: the verdict and the rank stamp live on the
``Result`` row, and a result backend entry per finished game (kept a day) would cost a Redis
write per task and, at a few hundred games a second, millions of keys nobody reads. The
worker's log still shows each task's return value.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from leaderboards import dayfiles, services
from leaderboards.compaction import logs_compact
from leaderboards.fairplay.sequential import result_step_evidence
from leaderboards.fairplay.services import result_analyse_foresight
from leaderboards.rating.duels import duel_rate, duel_rate_of_game, duels_needing_rating
from leaderboards.rating.services import ratings_apply


@shared_task(
    name="leaderboards.verify_game", acks_late=True, reject_on_worker_lost=True, ignore_result=True
)
def verify_game(game_id: str) -> str | None:
    result = services.result_verify(game_id=game_id)
    return None if result is None else result.status


@shared_task(
    name="leaderboards.rank_result", acks_late=True, reject_on_worker_lost=True, ignore_result=True
)
def rank_result(result_id: int) -> bool:
    return services.result_rank(result_id=result_id)


@shared_task(
    name="leaderboards.analyse_foresight",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    # The analysis keeps to FT_FORESIGHT_SECONDS by itself; the limit is only a backstop.
    time_limit=settings.FT_FORESIGHT_SECONDS + 120,
    soft_time_limit=settings.FT_FORESIGHT_SECONDS + 60,
)
def analyse_foresight(result_id: int) -> str | None:
    result = result_analyse_foresight(result_id=result_id)
    return None if result is None else result.review or "not held"


@shared_task(
    name="leaderboards.step_evidence",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    # A win's weighing is bounded by node counts (seconds of one core); a backstop only.
    time_limit=600,
    soft_time_limit=540,
)
def step_evidence(result_id: int) -> float | None:
    evidence = result_step_evidence(result_id=result_id)
    return None if evidence is None else evidence.wealth


@shared_task(name="leaderboards.sweep")
def sweep() -> dict[str, int]:
    """Re-enqueue what a lost message or a crash left undone (runs every minute)."""
    games, results = services.results_needing_work()
    for game_id in games:
        verify_game.delay(game_id)
    for result_id in results:
        rank_result.delay(result_id)
    # Day files of deals closed lately, built ahead of the requests (their own queue).
    deals = dayfiles.day_files_due()
    for deal_id in deals:
        build_day_file.delay(deal_id)
    duels = duels_needing_rating()
    for duel_id in duels:
        rate_duel.delay(duel_id)
    return {
        "games": len(games),
        "results": len(results),
        "day_files": len(deals),
        "duels": len(duels),
    }


@shared_task(name="leaderboards.rate_duel", ignore_result=True)
def rate_duel(duel_id: str) -> bool:
    """Rate a decided duel once both its results are verified (docs/ratings.md)."""
    return duel_rate(duel_id=duel_id)


@shared_task(name="leaderboards.rate_duel_of_game", ignore_result=True)
def rate_duel_of_game(game_id: str) -> bool:
    """A duel's game was verified: rate its duel if that was the last verdict it waited for."""
    return duel_rate_of_game(game_id=game_id)


@shared_task(name="leaderboards.build_day_file", ignore_result=True)
def build_day_file(deal_id: int) -> bool:
    """A closed deal's day file, built into the cache (see leaderboards.dayfiles)."""
    return dayfiles.day_file_build(deal_id=deal_id)


@shared_task(name="leaderboards.rate_deals", ignore_result=True)
def rate_deals() -> int:
    """Rate the closed deals whose results are final, in deal order (every minute from
    beat; idempotent: a deal is rated once, and a stale one replayed; docs/ratings.md)."""
    return ratings_apply()


#: Games packed a run: about 30 s at the measured 72 games/s (docs/benchmarks.md), inside
#: the task time limit; every ten minutes that is 288,000 games a day, past any day's need.
COMPACT_PER_RUN = 2_000


@shared_task(name="leaderboards.compact_logs", ignore_result=True)
def compact_logs(limit: int = COMPACT_PER_RUN) -> int:
    """Pack the due finished games' move logs (every ten minutes from beat; each game in a
    transaction of its own, so a run stopped anywhere is taken up by the next)."""
    return logs_compact(limit=limit).games
