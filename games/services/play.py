"""Writes about games: every action on one (starting them: :mod:`.starts`).

Every change to a game goes through :func:`_act`: the game's live engine judges the
action, and one write guarded by the version appends it to the log (no row lock: a writer
that lost the race rebuilds from the log and judges again). What follows an accepted
action, :func:`game_act_follow_up`, runs only after that write commits.
"""

from __future__ import annotations

import logging
import math
import uuid
from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import Any, NamedTuple

from django.db import transaction
from django.utils import timezone

from games.access import check_game_access
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
from games.engine.safe import automatic_on_top, play_safe_home, undo_with_automatic
from games.errors import (
    BadRequest,
    DayClosed,
    DuelNotStarted,
    Forbidden,
    GameOver,
    Refused,
    RoundNotStarted,
    ServiceError,
    StaleVersion,
    TimeUp,
)
from games.input_guard import text_problem
from games.models import Game, User
from games.outcomes import ActOutcome, DeadEndCheck, DuelCounts, Origin
from games.payloads import board_changes
from games.runtime import broadcast
from games.runtime.live import LiveGame, live_forget, live_game
from games.services.log import Entry, log_append
from games.services.solver_help import game_dead_end_check
from games.signals import announce_game_finished
from games.solver import dead_end_decidable

logger = logging.getLogger(__name__)

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
    origin: Origin | None = None,
) -> ActOutcome:
    """One action of a player, whichever interface it came through: a ``move`` (in the
    notation), an ``undo`` or a ``resign``. ``origin``: the socket it came from (``None``
    for the API and the form); what follows the action is the same for all of them
    (:func:`game_act_follow_up`, after the commit)."""
    if kind == "move":
        if not isinstance(move, str) or move.strip().lower() in ("", UNDO, RESIGN):
            # undo and resign are actions of their own, never moves in the notation.
            text = move if isinstance(move, str) else repr(move)[:32]
            reason = f"{move!r} is not a move: {MOVE_EXPECTED}"
            raise Refused(InvalidMove(reason, "notation", text=text))
        action = move
    elif kind in (UNDO, RESIGN):
        action = kind
    else:
        raise BadRequest(f"{kind!r} is not an action: one of {', '.join(ACTION_KINDS)}")
    return _act(
        game_id=game_id,
        user=user,
        action=action,
        client_id=client_id,
        version=version,
        origin=origin,
    )


def game_resign_at_close(*, game_id: object) -> ActOutcome | None:
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


#: Tries of an action that lost a race to a writer in another process before the client
#: is told to resync (each retry rebuilds the game from its log).
_ATTEMPTS = 3


def _act(
    *,
    game_id: object,
    user: User | None,
    action: str,
    client_id: str = "",
    version: int | None = None,
    system: bool = False,
    origin: Origin | None = None,
) -> ActOutcome:
    """Apply one action; ``system`` is the server itself.

    The steps: take the game's live engine (``games.runtime.live``); answer a re-sent message id
    with what it did; refuse an action the game cannot take now; let the engine judge it;
    append it to the log with one write guarded by the version (``services.log``); after
    the commit, :func:`game_act_follow_up`.
    """
    client_id = _check_client_id(client_id)
    for _ in range(_ATTEMPTS):
        entry = live_game(game_id=game_id)
        with entry.lock:
            if entry.stale:  # another thread lost a race with it while this one waited
                continue
            try:
                result = _act_on(
                    entry,
                    user=user,
                    action=action,
                    client_id=client_id,
                    version=version,
                    system=system,
                )
            except ServiceError:
                if _behind_the_log(entry):
                    # Refused by a copy another process has moved past (a stale version,
                    # an id it applied, a move legal only in the newer position): judge
                    # it again on the game rebuilt from the log, never on an old copy.
                    _forget(entry)
                    continue
                raise
            if result is None:  # another process wrote first: rebuild from the log
                _forget(entry)
                continue
        if not result.duplicate:
            # Robust: a broker or layer hiccup must not undo an accepted move (the
            # verification sweep re-enqueues anything that was lost).
            transaction.on_commit(
                partial(game_act_follow_up, result=result, origin=origin), robust=True
            )
        return result
    raise StaleVersion(
        "the game kept changing while this action was applied; resync and try again",
        version=_row_version(entry.game.pk),
    )


def _act_on(
    entry: LiveGame,
    *,
    user: User | None,
    action: str,
    client_id: str,
    version: int | None,
    system: bool,
) -> ActOutcome | None:
    """One try of :func:`_act` under the entry's lock; ``None`` when the write lost."""
    game = entry.game
    if not system:
        check_game_access(user=user, game=game, purpose="play")
    if client_id and client_id in entry.client_ids:
        return _already_done(game, client_id)
    # The server's resign at the close (``system``) is stamped with the close itself: the
    # game ended by the clock then, and verification accepts a server's resign only at that
    # time (games.engine.audit.close_violation). The server's safe home moves share the
    # stamp of the player's move that brought them. A duel's server resign (the flag, or a
    # player gone past the grace period) is stamped when it happens, at the latest the flag.
    now = _now_ms()
    if system and game.deal.closes_at:
        duel = game.mode == Game.Mode.DUEL
        now = min(now, game.deal.closes_at) if duel else game.deal.closes_at
    _check_may_act(game, now=now, version=version, system=system)
    engine = entry.engine
    before = entry.view or engine.view()
    on_top = _automatic_on_top(game) if action == UNDO and game.auto_home else 0
    # The engine is changed from here on.
    status, steps = _judge(game, engine, action, automatic_undos=on_top)
    try:
        lines = [
            Entry(
                seq=game.version + i,
                move=step.move,
                client_id="" if step.automatic else client_id,
                by_system=system or step.automatic,
                score=step.score,
                moves=step.moves,
                status=status if i == len(steps) else Game.Status.ACTIVE,
                at=now,
                finished_at=now if status != Game.Status.ACTIVE else None,
            )
            for i, step in enumerate(steps, start=1)
        ]
        if not log_append(
            game_id=game.pk,
            expected_version=game.version,
            player_id=game.player_id,  # whom the access check admitted (a guest's, say)
            entry=lines[0],
            more=lines[1:],
        ):
            return None
    except BaseException:
        _forget(entry)  # the engine is ahead of the log: never reuse it
        raise
    _summarise(game, lines[-1])
    if client_id:
        entry.client_ids.add(client_id)
    entry.view = engine.view()  # the next action's "before"
    return _result(
        game,
        next(step.move for step in steps if not step.automatic),
        _changes(game, engine, before, entry.view),
        automatic=tuple(step.move for step in steps if step.automatic),
        dead_end_check=_dead_end_check(game, engine),
        progress=DuelCounts(home=engine.home, stock=len(engine.stock))
        if game.mode == Game.Mode.DUEL
        else None,
    )


def _behind_the_log(entry: LiveGame) -> bool:
    """Whether the database has moved past the entry's copy of the game: a newer version,
    or another owner (a guest's games brought to the account it signed in to). Refusals
    are rare: the one read this costs is spent only then."""
    row = Game.objects.filter(pk=entry.game.pk).values_list("version", "player_id").first()
    return row != (entry.game.version, entry.game.player_id)


def _row_version(pk: uuid.UUID) -> int | None:
    """The game's version as the database has it now (``None`` if it is gone)."""
    return Game.objects.filter(pk=pk).values_list("version", flat=True).first()


def _forget(entry: LiveGame) -> None:
    entry.stale = True
    live_forget(game_id=entry.game.pk)


def _summarise(game: Game, line: Entry) -> None:
    """Bring the entry's copy of the row to what the write made of it."""
    game.version = line.seq
    game.score, game.moves, game.status = line.score, line.moves, line.status
    game.dead_end = False
    game.first_action_at = game.first_action_at or line.at
    game.finished_at = line.finished_at


def _already_done(game: Game, client_id: str) -> ActOutcome:
    """The answer to a re-sent message id: what it did then (with the automatic moves the
    server played after it), applying nothing now."""
    done = game.actions.filter(client_id=client_id).first()
    assert done is not None  # the id was read from the log
    automatic: list[str] = []
    if game.auto_home and done.move != UNDO:  # an undo's automatic ones come before it
        for move, by_system in game.actions.filter(seq__gt=done.seq).values_list(
            "move", "by_system"
        ):
            if not by_system or move == RESIGN:
                break
            automatic.append(move)
    return _result(
        game,
        done.move,
        {},
        version=done.seq + len(automatic),
        duplicate=True,
        automatic=tuple(automatic),
    )


def _automatic_on_top(game: Game) -> int:
    """How many automatic moves a player's undo takes back before their own move (the
    log's flags, read up to the entry's version: undos are rare, the read is one)."""
    log = game.actions.filter(seq__lte=game.version).order_by("seq")
    return automatic_on_top(log.values_list("move", "by_system"), undo_limit=game.undo_limit)


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
            f"{game.deal.competition_label} has closed (at 00:00 UTC); no more moves"
            " count for its board"
        )
    if not system and game.mode == Game.Mode.DUEL:
        _check_duel_clock(game, now=now)
    if not system and game.mode == Game.Mode.ARENA:
        _check_round_clock(game, now=now)
    if game.is_finished:
        raise GameOver(f"this game is over ({game.status})")
    if version is not None and version != game.version:
        raise StaleVersion(
            f"the game is at version {game.version}, not {version}; resync first",
            version=game.version,
        )


def _check_duel_clock(game: Game, *, now: datetime) -> None:
    """A duel's game is played between the duel's start (its deal's ``opens_at``, the
    same instant for both players) and its flag (the deal's ``closes_at``), by the
    server's clock: ``duel_not_started`` before, ``time_up`` from the flag on."""
    deal = game.deal
    if deal.opens_at is not None and now < deal.opens_at:
        wait = max(1, math.ceil((deal.opens_at - now).total_seconds()))
        raise DuelNotStarted(f"the duel starts in {wait} s", retry_after=wait)
    if deal.closes_at is not None and now >= deal.closes_at:
        raise TimeUp("the duel's time is up: no more moves count")


def _check_round_clock(game: Game, *, now: datetime) -> None:
    """An arena round's game is played between the round's open (its deal's ``opens_at``,
    one instant for every entrant) and its close (``closes_at``), by the server's clock:
    ``round_not_started`` before, ``time_up`` from the close on."""
    deal = game.deal
    if deal.opens_at is not None and now < deal.opens_at:
        wait = max(1, math.ceil((deal.opens_at - now).total_seconds()))
        raise RoundNotStarted(f"the round starts in {wait} s", retry_after=wait)
    if deal.closes_at is not None and now >= deal.closes_at:
        raise TimeUp("the round's time is up: no more moves count")


class _Step(NamedTuple):
    """One line an action writes: the player's action, or one of the server's automatic
    actions it brought (a safe card sent home; on an undo, the take-back of one)."""

    move: str
    automatic: bool
    score: int
    moves: int


def _judge(
    game: Game, engine: GameState, action: str, *, automatic_undos: int = 0
) -> tuple[str, list[_Step]]:
    """Apply ``action`` to ``engine`` (the engine judges moves and take-backs); returns
    the game's status after it and the lines the log writes: the action as the log writes
    it, and in a game with ``auto_home`` the safe home moves the server plays after a move
    (before an undo, the take-back of the ``automatic_undos`` moves above the player's own).
    A refused action leaves the engine as it was."""
    status = Game.Status.ACTIVE
    steps: list[_Step] = []
    try:
        if action == RESIGN:
            status = Game.Status.RESIGNED
            steps.append(_Step(action, False, engine.score, engine.moves))
        elif action == UNDO:
            if game.is_strict:
                raise Forbidden(f"{game.mode} games have no undo", rule="ranked_no_undo")
            for automatic in undo_with_automatic(engine, automatic_undos):
                steps.append(_Step(UNDO, automatic, engine.score, engine.moves))
        else:
            engine.play(action)
            steps.append(_Step(format_move(parse_move(action)), False, engine.score, engine.moves))
            if game.auto_home:
                for move in play_safe_home(engine):
                    steps.append(_Step(move, True, engine.score, engine.moves))
    except EngineError as err:
        raise Refused(err) from None
    if status == Game.Status.RESIGNED:
        return status, steps
    if engine.is_won():
        return Game.Status.WON, steps
    if engine.is_stuck():
        return Game.Status.LOST, steps
    return status, steps


def _changes(
    game: Game, engine: GameState, before: dict[str, Any], after: dict[str, Any]
) -> dict[str, Any]:
    changes = board_changes(before, after)
    # The new legal moves let the board highlight targets without knowing a rule.
    changes["legal_moves"] = [] if game.is_finished else engine.legal_moves()
    # Cheap: an empty stock and no face-down card come first (GameState.finishing_moves).
    changes["can_finish"] = not game.is_finished and bool(engine.finishing_moves())
    return changes


def game_act_follow_up(*, result: ActOutcome, origin: Origin | None = None) -> None:
    """What follows an accepted action, the same for every interface (run after its
    commit): the game's other sockets hear of it (not the socket it came from, which
    answered its sender; not at all when that socket knows of no other), a finish is
    announced (games announces ``game_finished``; leaderboards listens and enqueues the
    verification), and a position that may be a dead end goes to the solver pool, whose
    proof comes as its own ``dead_end`` message. Each step is on its own: a channel layer
    that fails must not keep a finish from being announced."""
    origin = origin or Origin()
    check = result.dead_end_check
    steps: list[Callable[[], None]] = []
    if origin.peers:
        steps.append(lambda: broadcast.game_action(result, origin=origin.channel))
    if result.status != Game.Status.ACTIVE:
        steps.append(lambda: announce_game_finished(result.game_id))
    if check is not None:
        steps.append(lambda: game_dead_end_check(check=check))
    if result.progress is not None and not result.duplicate:
        steps.append(lambda: _duel_acted(result))
    for step in steps:
        try:
            step()
        except Exception:
            logger.exception("what follows an action on game %s failed", result.game_id)


def _duel_acted(result: ActOutcome) -> None:
    """A duel's game: its counts to the duel's sockets (after the commit, like the rest)."""
    from games.services.duels import duel_game_acted  # duels builds on play

    duel_game_acted(result=result)


def _dead_end_check(game: Game, engine: GameState) -> DeadEndCheck | None:
    """The position to ask the solver about, when no win may be left: once the stock is
    spent and no redeal is left (before that the answer is "no" at once). Never while a
    card is face down: the verdict would tell the player something about a card they have
    not seen. Never on a daily deal still open: the notice is solver help (see
    ``Deal.solver_help_open``)."""
    if game.is_finished or engine.face_down or not game.deal.solver_help_open:
        return None
    if not dead_end_decidable(engine):
        return None
    state = engine.dump(history=False)  # the solver never takes back
    return DeadEndCheck(game_id=str(game.pk), version=game.version, state=state)


def _check_client_id(client_id: object) -> str:
    if client_id is None:
        return ""
    if not isinstance(client_id, str) or len(client_id) > 64:
        raise BadRequest("a client message id is text of at most 64 characters")
    problem = text_problem(client_id)
    if problem:  # PostgreSQL cannot store it: refused here, never a server error
        raise BadRequest(f"the client message id is refused: {problem}")
    return client_id


def _result(
    game: Game,
    action: str,
    changes: dict[str, Any],
    *,
    version: int | None = None,
    duplicate: bool = False,
    automatic: tuple[str, ...] = (),
    dead_end_check: DeadEndCheck | None = None,
    progress: DuelCounts | None = None,
) -> ActOutcome:
    return ActOutcome(
        automatic=automatic,
        game_id=str(game.pk),
        version=game.version if version is None else version,
        action=action,
        score=game.score,
        moves=game.moves,
        status=game.status,
        changes=changes,
        duplicate=duplicate,
        dead_end_check=dead_end_check,
        progress=progress,
    )
