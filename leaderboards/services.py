"""Writes: verifying finished games and ranking verified daily and weekly results.

Both steps are idempotent: verifying a result twice changes nothing, and a
result is added to its board once (``ranked_at``), so a redelivered task or
the periodic sweep can always run them again safely.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.engine.audit import (
    Claim,
    Logged,
    Rejected,
    Stamped,
    close_violation,
    duration_ms,
    replay_claim,
)
from games.logs import compact_log
from games.models import Action, Deal, Game
from leaderboards.boards import (
    board_for,
    board_key,
    ranked_results,
    redis_boards,
    remove_redis_boards_except,
)
from leaderboards.fairplay.services import fairplay_screen
from leaderboards.models import Result
from leaderboards.placement import OFF_BOARD, board_place, skip_commit_flush
from leaderboards.placement import result_rank as result_rank  # the verdict's next step

SWEEP_AGE = timedelta(minutes=1)


def result_verify(*, game_id: object) -> Result | None:
    """Replay a finished game's log and mark its result verified or rejected.

    Returns ``None`` for a game that has not finished. A result that is
    already decided is returned as it is. One transaction, one write: the
    game's row lock keeps two deliveries of the same task from both deciding,
    and the unique game of a result catches the one that waited for the lock.
    """
    try:
        game_id = uuid.UUID(str(game_id))
    except ValueError:
        return None  # not a game id: nothing to verify
    try:
        with transaction.atomic():
            skip_commit_flush()
            locked = _lock_game(game_id)
            if locked is None or not locked[0].is_finished:
                return None
            game, result_id = locked
            result = None if result_id is None else Result.objects.get(pk=result_id)
            if result is not None and result.status != Result.Status.PENDING:
                return result
            rows = _logged_rows(game)
            status, reason = _check(game, rows)
            if result is None:
                result = _new_result(game, rows, status=status, reason=reason)
            else:  # a pending row left by an older version or by hand: decide it now
                result.status, result.reason, result.verified_at = status, reason, timezone.now()
                result.duration_ms, result.finished_at = _timing(game, rows)
                result.save(
                    update_fields=["status", "reason", "verified_at", "duration_ms", "finished_at"]
                )
            if result.status == Result.Status.VERIFIED and result.ranked:
                _screen_and_rank(result, game, [(m, a) for _, m, _, a, by in rows if not by])
            if game.mode == Game.Mode.DUEL:  # the duel's rating waits for this verdict
                key = str(game.pk)
                transaction.on_commit(lambda: _enqueue_duel_rating(key), robust=True)
    except IntegrityError:
        # Another delivery decided while this one waited for the lock: the join above read
        # the tables as they were before the wait, so its result only showed at the insert.
        return Result.objects.get(game_id=game_id)
    return result


def _screen_and_rank(result: Result, game: Game, log: list[tuple]) -> None:
    """The fair-play screen, in the verdict's transaction; then, after the commit, the
    board (unless held), for a win the foresight analysis on its own queue, and for every
    game a step of the player's sequential test (the same queue)."""
    held = fairplay_screen(result=result, game=game, log=log)
    if not held:
        transaction.on_commit(lambda: board_place(result))
    if result.won and settings.FT_FORESIGHT_SECONDS > 0:
        result_id = result.pk
        transaction.on_commit(lambda: _enqueue_foresight(result_id), robust=True)
    if settings.FT_EVIDENCE:  # every ranked game, won or lost, steps the sequential test
        step_id = result.pk
        transaction.on_commit(lambda: _enqueue_evidence(step_id), robust=True)


def _enqueue_duel_rating(game_id: str) -> None:
    from leaderboards.tasks import rate_duel_of_game

    rate_duel_of_game.delay(game_id)


def _enqueue_foresight(result_id: int) -> None:
    from leaderboards.tasks import analyse_foresight  # here: the tasks import the services

    analyse_foresight.delay(result_id)


def _enqueue_evidence(result_id: int) -> None:
    from leaderboards.tasks import step_evidence

    step_evidence.delay(result_id)


def _lock_game(game_id: uuid.UUID) -> tuple[Game, int | None] | None:
    """The game, locked, with the few fields of its deal a verification needs, and the id
    of a result already recorded for it; ``None`` if there is no such game.

    One statement written out by hand: verification runs hundreds of times a second per
    worker, and the ORM spent more time composing this join with its row lock (about
    0.6 ms) than the database spent answering it (``benchmarks/verify.py``).
    ``Game.objects.raw`` still converts the game's own columns as the ORM would.
    """
    connection = transaction.get_connection()
    features = connection.features
    lock = (
        " FOR UPDATE OF g"
        if features.has_select_for_update_of
        else " FOR UPDATE"
        if features.has_select_for_update
        else ""  # SQLite: one writer at a time anyway
    )
    sql = (
        "SELECT g.*, d.seed_hex AS deal_seed_hex, d.variant AS deal_variant,"
        " d.day AS deal_day, d.kind AS deal_kind, d.closes_at AS deal_closes_at,"
        " d.opens_at AS deal_opens_at,"
        " r.id AS result_pk"
        f" FROM {Game._meta.db_table} g JOIN {Deal._meta.db_table} d ON d.id = g.deal_id"
        f" LEFT JOIN {Result._meta.db_table} r ON r.game_id = g.id"
        f" WHERE g.id = %s{lock}"
    )
    param = Game._meta.pk.get_db_prep_value(game_id, connection)
    # Any: the raw row carries the joined columns (deal_*, result_pk) as attributes the
    # Game model does not declare.
    game: Any = next(iter(Game.objects.raw(sql, [param])), None)
    if game is None:
        return None
    game.deal = Deal(
        id=game.deal_id,
        seed_hex=game.deal_seed_hex,
        variant=game.deal_variant,
        day=Deal._meta.get_field("day").to_python(game.deal_day),  # a string from SQLite
        kind=game.deal_kind,
        closes_at=_to_datetime(game.deal_closes_at, connection),
        # The fair-play screen's "deleted while the deal was open" (leaderboards.fairplay).
        opens_at=_to_datetime(game.deal_opens_at, connection),
    )
    return game, game.result_pk


def _to_datetime(value: object, connection) -> datetime | None:
    """A datetime column read by a raw statement: aware from PostgreSQL; from SQLite text
    or a naive datetime in UTC (how Django stores it there), which the backend's own
    converter makes aware."""
    if value is None or (isinstance(value, datetime) and value.tzinfo is not None):
        return value
    return connection.ops.convert_datetimefield_value(value, None, connection)


def _check(game: Game, rows: list[tuple]) -> tuple[str, str]:
    """The verdict on a game's claim, from its log ``rows``: (status, reason)."""
    late = _played_after_close(game, rows)
    if late is not None:
        return Result.Status.REJECTED, late
    log = [Logged(seq, move, score, by) for seq, move, score, _, by in rows]
    claim = Claim(
        seed=game.deal.seed,
        variant=game.deal.variant,
        undo_limit=game.undo_limit,
        status=game.status,
        score=game.score,
        moves=game.moves,
        auto_home=game.auto_home,
    )
    try:
        replay_claim(claim, log)
    except Rejected as rejected:
        return Result.Status.REJECTED, rejected.reason
    return Result.Status.VERIFIED, ""


def _played_after_close(game: Game, rows: list[tuple]) -> str | None:
    """Why a ranked competition game's log breaks its deal's close, or ``None``: a player
    action stamped at or after the close, or an action marked as the server's that is not
    its close-of-day resign (:func:`games.engine.audit.close_violation`). The play service
    refuses late actions; this catches any that got into the log some other way."""
    deal = game.deal
    if deal.closes_at is None:
        return None
    duel = game.mode == Game.Mode.DUEL
    # An arena round's game: its deal closes at the round's close, and the server resigns
    # what is unfinished then, stamped with the close itself, like a day's close.
    timed = duel or game.mode == Game.Mode.ARENA
    if not timed and (game.mode != Game.Mode.RANKED or not deal.is_competition):
        return None
    # A duel's game: its deal closes at the flag; the server's resign of a player who left
    # is stamped when it happens, before it (games.services.duels).
    return close_violation(
        (Stamped(seq, move, at, by_system) for seq, move, _, at, by_system in rows),
        closes_at=deal.closes_at,
        auto_home=game.auto_home,
        early_resign=duel,
    )


def _logged_rows(game: Game) -> list[tuple]:
    """The game's log in order as ``(seq, move, score, created_at, by_system)`` tuples,
    straight from the rows (hand-written for the reason given in :func:`_lock_game`:
    half the time of the ORM's values_list); one read serves the replay, the close check
    and the fair-play screen."""
    connection = transaction.get_connection()
    table = Action._meta.db_table
    game_pk = Game._meta.pk.get_db_prep_value(game.pk, connection)
    # A ranked game needs every stamp (the close check, the pace); any other only its first
    # and last (the result's time): parsing a few hundred timestamps is most of the cost
    # of the read. by_system is read for every game: it costs nothing to parse.
    ranked = game.mode in (Game.Mode.RANKED, Game.Mode.DUEL, Game.Mode.ARENA)
    if ranked:
        stamp, params = "created_at", [game_pk]
    else:
        stamp = (
            f"CASE WHEN seq = 1 OR seq = (SELECT MAX(seq) FROM {table} WHERE game_id = %s)"
            " THEN created_at END"
        )
        params = [game_pk, game_pk]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT seq, move, score, {stamp}, by_system"
            f" FROM {table} WHERE game_id = %s ORDER BY seq",
            params,
        )
        rows = cursor.fetchall()
    if not rows:  # packed by compact_logs (games.logs: the rows first, then the blob)
        return [
            (e.seq, e.move, e.score, e.created_at, e.by_system)
            for e in compact_log(game_id=game.pk)
        ]
    if connection.vendor != "postgresql":  # SQLite: text or naive datetimes, 0/1 booleans
        rows = [(s, m, c, _to_datetime(a, connection), bool(b)) for s, m, c, a, b in rows]
    return rows


def _timing(game: Game, rows: list[tuple]) -> tuple[int, datetime]:
    """A result's time (ms) and finish, from the log's own server stamps: the first action
    to the finishing one. The game row's ``first_action_at`` and ``finished_at`` are a
    summary for the pages, and a summary can be wrong; the log is what was verified."""
    if not rows:  # nothing logged (rejected: the log ends too early): no time to speak of
        return 0, game.finished_at or timezone.now()
    return duration_ms(rows[0][3], rows[-1][3]), rows[-1][3]


def _new_result(game: Game, rows: list[tuple], *, status: str, reason: str) -> Result:
    """The result row; its time and finish come from the log's own stamps (first action
    to the finishing one), never from the game's summary, which is only a cache."""
    deal = game.deal
    time_ms, finished = _timing(game, rows)
    # By id: the game carries only the few deal fields _lock_game read, and a result handed
    # back to a caller should load its deal and game whole if it is ever asked for them.
    return Result.objects.create(
        game_id=game.pk,
        player_id=game.player_id,
        deal_id=deal.pk,
        day=deal.day,
        variant=deal.variant,
        ranked=game.mode == Game.Mode.RANKED and deal.is_competition,
        weekly=deal.is_weekly,
        status=status,
        reason=reason,
        verified_at=timezone.now(),
        outcome=game.status,
        won=game.status == Game.Status.WON,
        score=game.score,
        moves=game.moves,
        duration_ms=time_ms,
        finished_at=finished,
    )


def results_needing_work(*, now=None) -> tuple[list[str], list[int]]:
    """What the sweep re-enqueues: finished games without a decided result and
    verified ranked results not yet on their board, older than a minute."""
    cutoff = (now or timezone.now()) - SWEEP_AGE
    games = (
        Game.objects.filter(finished_at__lt=cutoff)
        .exclude(result__status__in=[Result.Status.VERIFIED, Result.Status.REJECTED])
        .values_list("id", flat=True)
    )
    unranked = (
        Result.objects.filter(
            status=Result.Status.VERIFIED,
            ranked=True,
            ranked_at__isnull=True,
            verified_at__lt=cutoff,
        )
        .exclude(review__in=OFF_BOARD)
        .values_list("id", flat=True)
    )
    return [str(g) for g in games[:1000]], list(unranked[:1000])


def boards_rebuild(*, progress: Callable[[int, int], None] | None = None, batch: int = 2000) -> int:
    """Rebuild every daily and weekly board from the database (the source of truth).

    Each board is swapped in whole; Redis boards of days without any verified
    result left are removed. ``progress(done, total)`` is called every
    ``batch`` results and at the end.
    """
    verified = Result.objects.filter(ranked=True, status=Result.Status.VERIFIED)
    days = (
        verified.values_list("day", "variant", "weekly")
        .distinct()
        .order_by("day", "variant", "weekly")
    )
    total = verified.count()
    done = 0

    def each() -> None:
        nonlocal done
        done += 1
        if progress is not None and (done % batch == 0 or done == total):
            progress(done, total)

    keep = set()
    for day, variant, weekly in days:
        assert day is not None, "a ranked result has its day"
        board_for(day, variant, weekly).replace(
            ranked_results(day, variant, weekly).iterator(chunk_size=batch), each
        )
        keep.add(board_key(day, variant, weekly))
    if redis_boards():
        remove_redis_boards_except(keep)
    return done
