"""Checking a finished game's claim from its move log: the one place these rules live.

Pure Python over the engine (no Django), so the site's verification
(``leaderboards.services.result_verify``) and anyone holding a published day file
(``python -m games.engine verify-day``) apply the same checks: given the deal, the
recorded actions and what the game claims (status, score, move count), either
everything replays and matches, or :class:`Rejected` says why. The log's own server
stamps decide the rest: the result's time (:func:`duration_ms`, first action to finish,
never a field of the game's summary) and whether anything was played after the deal's
close (:func:`close_violation`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import NamedTuple

from .errors import EngineError
from .game import RESIGN, UNDO, GameState
from .notation import format_move
from .safe import next_safe_home


class Rejected(Exception):
    """The log does not support the claim; ``reason`` says where and how."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Claim:
    seed: int
    variant: str
    undo_limit: int
    status: str
    score: int
    moves: int
    #: The game was started with "send safe cards home": the server's automatic moves.
    auto_home: bool = False


class Logged(NamedTuple):
    """One recorded action: a tuple, so a log of hundreds is built straight from rows."""

    seq: int
    move: str
    score: int | None  # None: not recorded (a published day file), so not compared
    #: The server's own action: its close-of-day resign (see :func:`close_violation`), or
    #: with the game's auto_home an automatic home move or its take-back (see
    #: :class:`_Automatic`).
    by_system: bool = False


def replay_claim(claim: Claim, log: Sequence[Logged]) -> GameState:
    """Replay ``log`` from the deal; return the final engine position or raise
    :class:`Rejected` naming the first thing that does not hold.

    Whether the game has ended is asked only where it matters: before an
    ``undo`` or ``resign`` entry, when the rules refuse a move, and at the end.
    A move after a win or a dead end is refused by the rules themselves (no
    move is legal there), so asking after every move would only cost time.
    """
    engine = GameState.from_seed(claim.seed, claim.variant, undo_limit=claim.undo_limit)
    replay = engine.replay
    resigned = False
    automatic = _Automatic(claim)
    for expected_seq, action in enumerate(log, start=1):
        move = action.move
        if action.seq != expected_seq:
            raise Rejected(
                f"the log skips or repeats: action {expected_seq} is numbered {action.seq}"
            )
        automatic.check(engine, action)
        if resigned or (move in (RESIGN, UNDO) and _ended(engine)):
            ended = "resigned" if resigned else _ended(engine)
            raise Rejected(f"{_where(action)} comes after the game ended ({ended})")
        if move == RESIGN:
            resigned = True
        else:
            try:
                replay((move,))  # an undo entry is the engine's own undo
            except EngineError as err:
                if _ended(engine):
                    raise Rejected(
                        f"{_where(action)} comes after the game ended ({_ended(engine)})"
                    ) from None
                raise Rejected(f"{_where(action)} is refused by the rules: {err.reason}") from None
        if action.score is not None and engine.score != action.score:
            raise Rejected(
                f"{_where(action)} records score {action.score}; the replay gives {engine.score}"
            )
    automatic.check_end()
    ended_by = "resigned" if resigned else _ended(engine)
    if ended_by is None:
        raise Rejected("the log ends while the game could still go on (truncated?)")
    for name, claimed, replayed in (
        ("status", claim.status, ended_by),
        ("score", claim.score, engine.score),
        ("move count", claim.moves, engine.moves),
    ):
        if claimed != replayed:
            raise Rejected(f"the game claims {name} {claimed}; the replay gives {replayed}")
    return engine


class _Automatic:
    """The rules of the server's automatic actions, checked entry by entry before the
    replay applies each (the server's close-of-day resign is :func:`close_violation`'s).

    * An automatic move needs a game started with the option, follows a move (the
      player's or another automatic one: never an undo, a resign or the deal itself) and is
      exactly the engine's next safe home move there (:func:`games.engine.safe.next_safe_home`).
    * An automatic undo takes back an automatic move, and is followed by another undo: the
      server takes back the automatic moves a player's move caused, then that move, when
      the player asks for an undo. A player's undo never takes back an automatic move.

    The stack of what is standing mirrors the engine's history (same limit), and is kept
    only for games with the option: without it any automatic entry is refused at once.
    """

    def __init__(self, claim: Claim) -> None:
        self.enabled = claim.auto_home
        self.standing: deque[bool] = deque(maxlen=claim.undo_limit or None)
        self.previous: Logged | None = None

    def check(self, engine: GameState, action: Logged) -> None:
        previous, self.previous = self.previous, action
        move, by_system = action.move, action.by_system
        if previous is not None and previous.by_system and previous.move == UNDO != move:
            raise Rejected(
                f"{_where(previous)} is an automatic undo not followed by the undo of"
                " the player's move"
            )
        if by_system and move == RESIGN:
            return
        if by_system and not self.enabled:
            raise Rejected(
                f"{_where(action)} is marked as the server's automatic move, but the game"
                " was not started with safe cards sent home"
            )
        if not self.enabled:
            return
        if move == UNDO:
            top = self.standing[-1] if self.standing else False
            if by_system and not top:
                raise Rejected(f"{_where(action)} is an automatic undo of a player's action")
            if not by_system and top:
                raise Rejected(
                    f"{_where(action)} is the player's undo of an automatic move (the server"
                    " takes those back itself)"
                )
            if self.standing:
                self.standing.pop()
            return
        if by_system:
            self._check_move(engine, action, previous)
        if move != RESIGN:
            self.standing.append(by_system)

    def _check_move(self, engine: GameState, action: Logged, previous: Logged | None) -> None:
        if previous is None or previous.move in (UNDO, RESIGN):
            after = "the deal" if previous is None else repr(previous.move)
            raise Rejected(
                f"{_where(action)} is an automatic move after {after}; the server plays them"
                " only after a move"
            )
        safe = next_safe_home(engine)
        if safe is None or format_move(safe) != action.move:
            expected = "none" if safe is None else repr(format_move(safe))
            raise Rejected(
                f"{_where(action)} is marked as the server's automatic move, but the next safe"
                f" home move there is {expected}"
            )

    def check_end(self) -> None:
        last = self.previous
        if last is not None and last.by_system and last.move == UNDO:
            raise Rejected(f"the log ends with an automatic undo ({_where(last)})")


def _ended(engine: GameState) -> str | None:
    if engine.is_won():
        return "won"
    if engine.is_stuck():
        return "lost"
    return None


def _where(action: Logged) -> str:
    return f"action {action.seq} ({action.move!r})"


class Stamped(NamedTuple):
    """One recorded action with the server's stamp and whether the server itself took it."""

    seq: int
    move: str
    at: datetime
    by_system: bool


_ONE_MS = timedelta(milliseconds=1)


def duration_ms(first: datetime, finish: datetime) -> int:
    """A result's time in whole milliseconds: from the first action's stamp to the
    finishing action's stamp (never negative).

    >>> from datetime import UTC
    >>> duration_ms(datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, 0, 1, 2, 345000, UTC))
    62345
    """
    return max(0, (finish - first) // _ONE_MS)


def close_violation(
    actions: Iterable[Stamped],
    *,
    closes_at: datetime,
    auto_home: bool = False,
    early_resign: bool = False,
) -> str | None:
    """Why a ranked game's log breaks the close of its deal, or ``None``.

    Two rules, both read from the log alone. A player's action stamped at or after the
    close cannot count (the code and the solution are public from then on). And the
    server acts in a ranked game only in two ways: the resign of a game left unfinished at
    the close, which it stamps with the close itself, and, in a game started with safe
    cards sent home (``auto_home``), the automatic moves right after a player's move,
    stamped with that move (before the close; :func:`replay_claim` checks that each is the
    engine's next safe home move). An action marked as the server's that is anything else,
    or stamped at any other time, is not the server's (nothing a client sends can ever be
    taken for one).

    ``early_resign``: a duel's game, where the server also resigns the game of a player who
    left past the grace period, stamped when it does, so at or before the close (the flag).
    """
    for seq, move, at, by_system in actions:
        if by_system and (move == RESIGN or not auto_home):
            if move != RESIGN:
                return (
                    f"action {seq} ({move!r}) is marked as the server's own, but the server"
                    " only ever writes the resign at the close"
                )
            if early_resign and at <= closes_at:
                continue
            if at != closes_at:
                return (
                    f"action {seq} ({move!r}) is marked as the server's close-of-day resign"
                    f" but stamped {_when(at)}, not at the close ({_when(closes_at)})"
                )
        elif at >= closes_at:
            return (
                f"action {seq} ({move!r}) was played at {_when(at)}, after the"
                f" deal closed at {closes_at:%Y-%m-%d %H:%M} UTC"
            )
    return None


def _when(at: datetime) -> str:
    text = f"{at:%Y-%m-%d %H:%M:%S}"
    if at.microsecond:
        text += f".{at.microsecond // 1000:03d}"
    return text + " UTC"
