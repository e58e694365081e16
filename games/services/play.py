"""Writes about games: starting them, and every action on one.

Every change to a game goes through :func:`_act`, which locks the game row,
lets the engine judge the action, appends it to the move log and bumps the
version in one transaction; watchers are told only after it commits.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from games import broadcast
from games.access import access_game
from games.daily import utc_today
from games.engine import (
    RESIGN,
    UNDO,
    EngineError,
    GameState,
    format_move,
    parse_move,
)
from games.engine.errors import InvalidMove
from games.engine.notation import EXPECTED as MOVE_EXPECTED
from games.errors import (
    BadRequest,
    DayClosed,
    Forbidden,
    GameOver,
    NotFound,
    Refused,
    SolverLocked,
    StaleVersion,
)
from games.models import Action, Deal, Game, User
from games.payloads import board_changes
from games.results import ActResult, HintResult
from games.services.deals import DAILY_VARIANT, deal_for_code, deal_open_daily, deal_random
from games.signals import announce_game_finished
from games.solver import hint, is_dead
from games.throttles import Rate, throttle_check, who


def game_start_daily(*, user: User, now: datetime | None = None) -> Game:
    """The player's ranked game of today's deal: started on first open, resumed after."""
    now = now or timezone.now()
    deal = deal_open_daily(day=utc_today(now))
    game = Game.objects.filter(player=user, deal=deal, mode=Game.Mode.RANKED).first()
    if game is not None:
        return game
    if deal.revealed_at is not None:
        raise DayClosed("today's deal has closed; a new one opens at 00:00 UTC")
    try:
        with transaction.atomic():
            return _new_game(user=user, deal=deal, mode=Game.Mode.RANKED)
    except IntegrityError:  # a second tab opened it at the same moment
        return Game.objects.get(player=user, deal=deal, mode=Game.Mode.RANKED)


def game_start_practice(
    *,
    user: User,
    code: str | None = None,
    variant: str | None = None,
    deal_id: int | None = None,
) -> Game:
    """A new practice game: of a deal code, of a daily deal the player has finished
    (or that has closed), or of a random deal of ``variant``."""
    if sum(x is not None for x in (code, variant, deal_id)) > 1:
        raise BadRequest("give one of a deal code, a variant (for a random deal) or a deal id")
    # Each start may queue a solver rating: a flood of them would starve the workers.
    throttle_check(
        name="practice",
        rate=Rate.parse(settings.FT_RATE_PRACTICE_STARTS),
        ident=who(user_id=user.pk),
        what="practice games started",
    )
    if code is not None:
        deal = deal_for_code(code=code)
    elif deal_id is not None:
        deal = Deal.objects.filter(pk=deal_id).first()
        if deal is None:
            raise NotFound(f"there is no deal {deal_id}")
    else:
        deal = deal_random(variant=variant or DAILY_VARIANT)
    if deal.is_daily and not deal.is_revealed and not _has_finished_ranked(user, deal):
        raise Forbidden("practise a daily deal after your ranked attempt or once the day closes")
    game = _new_game(user=user, deal=deal, mode=Game.Mode.PRACTICE)
    if not deal.is_rated and settings.FT_RATE_PRACTICE_ON_START and settings.FT_RATE_SECONDS > 0:
        deal_id = deal.pk
        transaction.on_commit(lambda: _enqueue_rating(deal_id), robust=True)
    return game


def _enqueue_rating(deal_id: int) -> None:
    from games.tasks import rate_deal  # the tasks call the services, not the reverse

    rate_deal.delay(deal_id)


def _has_finished_ranked(user: User, deal: Deal) -> bool:
    return (
        Game.objects.filter(player=user, deal=deal, mode=Game.Mode.RANKED)
        .exclude(status=Game.Status.ACTIVE)
        .exists()
    )


def _new_game(*, user: User, deal: Deal, mode: str) -> Game:
    engine = GameState.from_seed(deal.seed, deal.variant, undo_limit=Game.undo_limit_for(mode))
    return Game.objects.create(player=user, deal=deal, mode=mode, state=engine.dump())


#: The actions a player sends (websocket ``type``, API ``type``, the plain form's choice).
ACTION_KINDS = ("move", "undo", "resign")


def game_act(
    *,
    user: User,
    game_id: object,
    kind: str,
    move: str | None = None,
    client_id: str = "",
    version: int | None = None,
) -> ActResult:
    """One action of a player, whichever interface it came through: a ``move`` (in the
    notation), an ``undo`` or a ``resign``."""
    ids = {"user": user, "game_id": game_id, "client_id": client_id, "version": version}
    if kind == "move":
        return game_play(move=move or "", **ids)
    if kind == "undo":
        return game_undo(**ids)
    if kind == "resign":
        return game_resign(**ids)
    raise BadRequest(f"{kind!r} is not an action: one of {', '.join(ACTION_KINDS)}")


def game_play(
    *, user: User, game_id: str, move: str, client_id: str = "", version: int | None = None
) -> ActResult:
    """Play one move in the engine's notation."""
    if not isinstance(move, str) or move.strip().lower() in ("", UNDO, RESIGN):
        # undo and resign are actions of their own, never moves in the notation.
        raise Refused(InvalidMove(f"{move!r} is not a move: {MOVE_EXPECTED}"))
    return _act(game_id=game_id, user=user, action=move, client_id=client_id, version=version)


def game_undo(
    *, user: User, game_id: str, client_id: str = "", version: int | None = None
) -> ActResult:
    """Take back the last action (practice games only)."""
    return _act(game_id=game_id, user=user, action=UNDO, client_id=client_id, version=version)


def game_resign(
    *, user: User, game_id: str, client_id: str = "", version: int | None = None
) -> ActResult:
    """End the game; it counts as a loss."""
    return _act(game_id=game_id, user=user, action=RESIGN, client_id=client_id, version=version)


def game_resign_at_close(*, game_id: object) -> ActResult | None:
    """The server's own resign of a ranked game left unfinished when its day closes;
    ``None`` if the game finished meanwhile (closing again changes nothing).

    The action carries no client id: the server never speaks in the clients' namespace,
    so no message id a client chooses (``system:day-closed`` included) can make it look
    like a re-sent action. Forbidding a reserved prefix instead would leave the old ids in
    the log ambiguous and a new prefix to keep in sync everywhere; no id at all cannot
    collide. The log marks it ``by_system`` so verification can tell it from the player's.
    """
    try:
        return _act(game_id=game_id, user=None, action=RESIGN, system=True)
    except GameOver:
        return None


def _act(
    *,
    game_id: str,
    user: User | None,
    action: str,
    client_id: str = "",
    version: int | None = None,
    system: bool = False,
) -> ActResult:
    """Apply one action under the game's row lock; ``system`` is the server itself.

    The steps: lock the game; answer a re-sent message id with what it did; refuse an
    action the game cannot take now; let the engine judge it; record it; tell the
    watchers (and, for a finish, the listeners of ``game_finished``) after the commit.
    """
    client_id = _check_client_id(client_id)
    with transaction.atomic():
        game = access_game(user=user, game_id=game_id, purpose="play", lock=True, system=system)
        done = _already_done(game, client_id)
        if done is not None:
            return done
        now = _now_ms()
        _check_may_act(game, now=now, version=version, system=system)
        engine = GameState.load(game.state)
        before = engine.view()
        action = _judge(game, engine, action)
        _record(game, engine, action=action, client_id=client_id, system=system, now=now)
        result = _result(game, action, _changes(game, engine, before))
        _announce_after_commit(game, result)
    return result


def _already_done(game: Game, client_id: str) -> ActResult | None:
    """The answer to a re-sent message id: what it did then, applying nothing now."""
    if not client_id:
        return None
    done = game.actions.filter(client_id=client_id).first()
    if done is None:
        return None
    return _result(game, done.move, {}, version=done.seq, duplicate=True)


def _now_ms() -> datetime:
    """Now, in whole milliseconds: the boards keep finish times to the millisecond, and a
    result must carry the game's own time."""
    now = timezone.now()
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


def _check_may_act(game: Game, *, now: datetime, version: int | None, system: bool) -> None:
    """Refuse an action on a closed day, a finished game or a stale version."""
    if not system and game.mode == Game.Mode.RANKED and game.deal.has_closed(now):
        # By the clock, not by the reveal: the beat that reveals may run a minute
        # late, and the code and solution are public from the reveal on.
        raise DayClosed(
            f"the deal of {game.deal.day} has closed (at 00:00 UTC); no more moves"
            " count for its board"
        )
    if game.is_finished:
        raise GameOver(f"this game is over ({game.status})")
    if version is not None and version != game.version:
        raise StaleVersion(
            f"the game is at version {game.version}, not {version}; resync first",
            version=game.version,
        )


def _judge(game: Game, engine: GameState, action: str) -> str:
    """Apply ``action`` to ``engine`` (the engine judges moves and take-backs) and set
    the game's status; returns the action as the log writes it."""
    try:
        if action == RESIGN:
            game.status = Game.Status.RESIGNED
        elif action == UNDO:
            if game.mode == Game.Mode.RANKED:
                raise Forbidden("ranked games have no undo")
            engine.undo()
        else:
            engine.play(action)
            action = format_move(parse_move(action))
    except EngineError as err:
        raise Refused(err) from None
    if engine.is_won():
        game.status = Game.Status.WON
    elif engine.is_stuck():
        game.status = Game.Status.LOST
    return action


def _record(
    game: Game, engine: GameState, *, action: str, client_id: str, system: bool, now: datetime
) -> None:
    """Append the action to the log and save the game's new state and summary."""
    game.version += 1
    game.state = engine.dump()
    game.dead_end = not game.is_finished and _is_dead_end(game, engine)
    game.score, game.moves = engine.score, engine.moves
    game.first_action_at = game.first_action_at or now
    if game.is_finished:
        game.finished_at = now
    Action.objects.create(
        game=game,
        seq=game.version,
        move=action,
        client_id=client_id,
        by_system=system,
        score=game.score,
        created_at=now,
    )
    game.save()


def _changes(game: Game, engine: GameState, before: dict[str, Any]) -> dict[str, Any]:
    changes = board_changes(before, engine.view())
    # The new legal moves let the board highlight targets without knowing a rule.
    changes["legal_moves"] = [] if game.is_finished else engine.legal_moves()
    # True only when the solver proved that no win is left (stock spent, no redeal).
    changes["dead_end"] = game.dead_end
    return changes


def _announce_after_commit(game: Game, result: ActResult) -> None:
    """After the commit only, and robust: a broker or layer hiccup must not undo an
    accepted move; the verification sweep re-enqueues anything that was lost."""
    transaction.on_commit(lambda: broadcast.game_action(result), robust=True)
    if game.is_finished:
        finished_id = str(game.pk)
        # Games announces; leaderboards listens and enqueues the verification.
        transaction.on_commit(lambda: announce_game_finished(finished_id), robust=True)


def _is_dead_end(game: Game, engine: GameState) -> bool:
    """Whether no win is possible any more: decided exactly once the stock is spent and no
    redeal is left (``is_dead`` answers None before that, at once), within a small budget
    so a move never stalls; undecided counts as "no". Never while a card is face down: the
    verdict would tell the player something about a card they have not seen. Never on a
    daily deal still open: the notice is solver help (see ``Deal.solver_help_open``)."""
    if engine.face_down or not game.deal.solver_help_open:
        return False
    verdict = is_dead(
        engine,
        max_seconds=settings.FT_DEAD_END_MS / 1000,
        max_nodes=settings.FT_DEAD_END_NODES or None,
    )
    return verdict is True


@dataclass(frozen=True)
class HintJob:
    """A hint the player may have: the position to solve, and the game it belongs to."""

    game_id: str
    state: dict[str, Any]
    version: int


def game_hint(*, user: User, game_id: object) -> HintResult:
    """A hint for the player's practice game: the next move of a winning line the solver
    finds in about ``FT_HINT_SECONDS``, else the best heuristic move (``None`` when there
    is no move). Each hint given is counted on the game. (The websocket runs the same three
    steps with the search in the solver pool: ``games.solver_pool``.)
    """
    job = game_hint_begin(user=user, game_id=game_id)
    move = hint(GameState.load(job.state), max_seconds=settings.FT_HINT_SECONDS)
    return game_hint_finish(job=job, move=move)


def game_hint_begin(*, user: User, game_id: object) -> HintJob:
    """Check that ``user`` may have a hint now and take the position to solve. Ranked and
    finished games get no hints, nor a practice game of a daily deal still open."""
    game = access_game(user=user, game_id=game_id, purpose="play")
    if game.mode == Game.Mode.RANKED:
        raise Forbidden("ranked games have no hints")
    # A hint costs up to a second of solver time: counted per player, across sockets and API.
    throttle_check(
        name="hint",
        rate=Rate.parse(settings.FT_RATE_HINTS),
        ident=who(user_id=user.pk),
        what="hints",
    )
    if game.is_finished:
        raise GameOver(f"this game is over ({game.status})")
    if not game.deal.solver_help_open:
        raise SolverLocked(
            "no hints on a daily deal until its day closes (at 00:00 UTC): they would help"
            " the day's board"
        )
    return HintJob(game_id=str(game.pk), state=game.state, version=game.version)


def game_hint_finish(*, job: HintJob, move: str | None) -> HintResult:
    """Count a hint given (atomically: the search ran without the row lock)."""
    if move is not None:
        Game.objects.filter(pk=job.game_id).update(hints=F("hints") + 1)
    hints = Game.objects.filter(pk=job.game_id).values_list("hints", flat=True).first() or 0
    return HintResult(game_id=job.game_id, move=move, hints=hints, version=job.version)


def _check_client_id(client_id: object) -> str:
    if client_id is None:
        return ""
    if not isinstance(client_id, str) or len(client_id) > 64:
        raise BadRequest("a client message id is text of at most 64 characters")
    return client_id


def _result(
    game: Game,
    action: str,
    changes: dict[str, Any],
    *,
    version: int | None = None,
    duplicate: bool = False,
) -> ActResult:
    return ActResult(
        game_id=str(game.pk),
        version=game.version if version is None else version,
        action=action,
        score=game.score,
        moves=game.moves,
        status=game.status,
        changes=changes,
        duplicate=duplicate,
    )
