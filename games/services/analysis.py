"""Writes for the post-game analysis: asking for it, and running it (the task's body).

The analysis of a finished game that was not won (``games.solver.postmortem``) is solver
help, so it follows the rules of the rest of it: a practice deal's games at once, a daily
deal's only once its day has closed (even its own player waits: until then it would
study the day's deal). Whoever may replay the game may ask, signed in; one row per game
(``GameAnalysis``) keeps the result, so a second request only reads it.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.access import access_replay
from games.engine import EngineError, GameState
from games.errors import Conflict, NotAuthenticated, SolverLocked
from games.logs import game_log
from games.models import Game, GameAnalysis, User
from games.solver.postmortem import analyse
from games.throttles import throttle_check, who

logger = logging.getLogger(__name__)

#: How long a queued or running analysis may take before a new request starts it again (a
#: lost message, a killed worker): its own budget and this margin.
STALE_MARGIN = timedelta(minutes=2)


class NothingToAnalyse(Conflict):
    """A won game: there is no lost win to look for."""

    code = "game_won"


def analysis_request(*, user: User | AnonymousUser | None, game_id: object) -> GameAnalysis:
    """Ask for the analysis of a finished game ``user`` may replay; returns its row.

    A row that is done, or queued or running and not stale, is returned as it is (no
    new work, nothing counted). Otherwise the request counts against ``FT_RATE_ANALYSES``
    and the ``games.analyse_game`` task is queued after the commit (on the embedded
    defaults it runs in this request). Refusals: the replay's (not found, not allowed),
    ``not_authenticated``, ``day_open`` (a daily deal before its close), ``game_won``,
    ``rate_limited``.
    """
    if user is None or not user.is_authenticated:
        raise NotAuthenticated("sign in to ask for the analysis of a game")
    game = access_replay(user=user, game_id=game_id)
    if not game.deal.solver_help_open:
        raise SolverLocked(
            f"a game of {game.deal.competition_label} is analysed only once it closes"
            " (at 00:00 UTC): the analysis would be a solver for the open deal"
        )
    if game.status == Game.Status.WON:
        raise NothingToAnalyse("this game was won: there is no lost win to find")
    row = GameAnalysis.objects.filter(game=game).first()
    now = timezone.now()
    if row is not None and not _needs_run(row, now):
        return row
    throttle_check(
        name="analysis",
        rate=settings.FT_RATE_ANALYSES,
        ident=who(user_id=user.pk),
        what="analyses asked for",
    )
    row = _queue(game, now)
    game_pk = str(game.pk)
    transaction.on_commit(lambda: _enqueue(game_pk), robust=True)
    return row


def _needs_run(row: GameAnalysis, now: datetime) -> bool:
    """A failed analysis, or one queued or running for longer than it may take."""
    if row.status == GameAnalysis.Status.DONE:
        return False
    if row.status == GameAnalysis.Status.FAILED:
        return True
    since = row.started_at or row.requested_at
    budget = timedelta(seconds=settings.FT_ANALYSIS_SECONDS) + STALE_MARGIN
    return since is None or now - since > budget


def _queue(game: Game, now: datetime) -> GameAnalysis:
    """The game's row, (re)set to queued; a concurrent first request's row if it won."""
    fields = {
        "status": GameAnalysis.Status.QUEUED,
        "done": 0,
        "total": 0,
        "result": None,
        "reason": "",
        "requested_at": now,
        "started_at": None,
        "finished_at": None,
    }
    try:
        with transaction.atomic():
            row, _created = GameAnalysis.objects.update_or_create(game=game, defaults=fields)
    except IntegrityError:  # another request created it at the same moment
        row = GameAnalysis.objects.get(game=game)
    return row


def _enqueue(game_id: str) -> None:
    from games.tasks import analyse_game  # here: games.tasks imports the services

    analyse_game.delay(game_id)


def analysis_run(*, game_id: uuid.UUID | str) -> GameAnalysis | None:
    """Run a queued analysis (the task's body): replay the game's log from its deal, let
    the solver look for the last winnable position within ``FT_ANALYSIS_SECONDS`` (at most
    ``FT_ANALYSIS_POSITION_SECONDS`` a position), store the result. Progress goes to the
    row as it runs. ``None`` for a game with no analysis asked; a done one is returned as
    it is (a redelivered task does nothing)."""
    row = GameAnalysis.objects.select_related("game__deal").filter(game_id=game_id).first()
    if row is None or row.status == GameAnalysis.Status.DONE:
        return row
    rows = GameAnalysis.objects.filter(pk=row.pk)
    rows.update(status=GameAnalysis.Status.RUNNING, started_at=timezone.now(), done=0, total=0)
    game, deal = row.game, row.game.deal
    log = [entry.move for entry in game_log(game_id=game.pk)]

    def progress(done: int, total: int) -> None:
        rows.update(done=done, total=total)

    try:
        report = analyse(
            GameState.from_seed(deal.seed, deal.variant, undo_limit=0),
            log,
            position_seconds=settings.FT_ANALYSIS_POSITION_SECONDS,
            total_seconds=settings.FT_ANALYSIS_SECONDS,
            start_line=deal.solution.split() or None,
            progress=progress,
        )
    except EngineError:
        logger.warning("the log of game %s no longer replays: no analysis", game.pk)
        rows.update(
            status=GameAnalysis.Status.FAILED,
            reason="this game's log no longer replays",
            finished_at=timezone.now(),
        )
    else:
        result = report.to_dict()
        rows.update(
            status=GameAnalysis.Status.DONE,
            result=result,
            done=result["checked"],
            total=result["checked"],
            finished_at=timezone.now(),
        )
    row.refresh_from_db()
    return row
