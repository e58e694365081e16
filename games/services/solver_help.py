"""The solver's help to a player: hints, and the notice that no win is left.

Both cost solver time (up to a second for a hint, ``FT_DEAD_END_MS`` for a dead end), so
neither searches on the move path nor in the calling thread: the search runs in the solver
pool (``games.runtime.solver_pool``) and these services check, count, wait and record.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections, transaction
from django.db.models import F

from ftsite.group_send import server_loop
from games.access import access_game
from games.errors import Forbidden, GameOver, SolverLocked
from games.models import Game, User
from games.outcomes import DeadEndCheck, HintOutcome
from games.runtime import broadcast
from games.runtime.live import engine_for, live_mark_dead_end
from games.runtime.solver_pool import dead_end_queue, hint_in_pool
from games.throttles import throttle_check, who

logger = logging.getLogger(__name__)


def game_dead_end_record(*, check: DeadEndCheck, dead: bool | None) -> bool:
    """Record the solver's verdict on a position: only a proof that no win is left
    (``dead`` true) marks the game, and only if it is still at that position; the game's
    sockets are told. Returns whether it was marked."""
    if dead is not True:
        return False
    marked = Game.objects.filter(
        pk=check.game_id, version=check.version, status=Game.Status.ACTIVE
    ).update(dead_end=True)
    if marked:
        live_mark_dead_end(game_id=check.game_id, version=check.version)
        transaction.on_commit(lambda: broadcast.game_dead_end(check), robust=True)
    return bool(marked)


def game_dead_end_check(*, check: DeadEndCheck) -> None:
    """Have the solver pool decide whether ``check``'s position is lost, after the action
    was answered. A proof is recorded (and broadcast) from the server's event loop when the
    action came through one (a socket, a request under ASGI), so the broadcast leaves from
    the loop its sockets listen on; else (a worker, a plain WSGI request) from the pool's
    thread."""
    loop = server_loop()

    def then(check: DeadEndCheck, verdict: bool | None) -> None:
        if verdict is not True:
            return
        if loop is None or loop.is_closed():
            _record(check)
        else:
            record = sync_to_async(_record)(check)
            asyncio.run_coroutine_threadsafe(record, loop).add_done_callback(_log_failure)

    dead_end_queue().submit(check, then)


def _record(check: DeadEndCheck) -> None:
    try:
        game_dead_end_record(check=check, dead=True)
    finally:
        close_old_connections()  # not a request's thread: nothing closes it else


def _log_failure(done: concurrent.futures.Future[None]) -> None:
    if not done.cancelled() and done.exception() is not None:
        logger.error("recording a dead end failed", exc_info=done.exception())


@dataclass(frozen=True)
class HintJob:
    """A hint the player may have: the position to solve, and the game it belongs to."""

    game_id: str
    state: dict[str, Any]
    version: int


def game_hint(*, user: User, game_id: object) -> HintOutcome:
    """A hint for the player's practice game: the next move of a winning line the solver
    finds in about ``FT_HINT_SECONDS``, else the best heuristic move (``None`` when there
    is no move). Each hint given is counted on the game. The one hint service of the API
    and the socket (which runs it on a thread of its own: it waits for the pool).
    """
    job = game_hint_begin(user=user, game_id=game_id)
    # In the solver pool: a second of solving in this thread would hold the interpreter's
    # lock against every socket and action thread of the process.
    move = hint_in_pool(job.state, settings.FT_HINT_SECONDS)
    return game_hint_finish(job=job, move=move)


def game_hint_begin(*, user: User, game_id: object) -> HintJob:
    """Check that ``user`` may have a hint now and take the position to solve. Ranked and
    finished games get no hints, nor a practice game of a daily deal still open."""
    game = access_game(user=user, game_id=game_id, purpose="play")
    if game.is_strict:
        raise Forbidden(f"{game.mode} games have no hints")
    # A hint costs up to a second of solver time: counted per player, across sockets and API.
    throttle_check(
        name="hint",
        rate=settings.FT_RATE_HINTS,
        ident=who(user_id=user.pk),
        what="hints",
    )
    if game.is_finished:
        raise GameOver(f"this game is over ({game.status})")
    if not game.deal.solver_help_open:
        raise SolverLocked(
            f"no hints on {game.deal.competition_label} until it closes (at 00:00 UTC):"
            " they would help its board"
        )
    return HintJob(game_id=str(game.pk), state=engine_for(game).dump(), version=game.version)


def game_hint_finish(*, job: HintJob, move: str | None) -> HintOutcome:
    """Count a hint given (atomically: the search ran without the row lock)."""
    if move is not None:
        Game.objects.filter(pk=job.game_id).update(hints=F("hints") + 1)
    hints = Game.objects.filter(pk=job.game_id).values_list("hints", flat=True).first() or 0
    return HintOutcome(game_id=job.game_id, move=move, hints=hints, version=job.version)
