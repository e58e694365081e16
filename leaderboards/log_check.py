"""Checking a finished game's claim by replaying its move log with the engine.

Pure Python over the engine (no Django): given the deal, the recorded
actions and what the game claims (status, score, move count),
either everything replays and matches, or :class:`Rejected` says why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from games.engine import RESIGN, UNDO, EngineError, GameState


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


class Logged(NamedTuple):
    """One recorded action: a tuple, so a log of hundreds is built straight from rows."""

    seq: int
    move: str
    score: int


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
    for expected_seq, action in enumerate(log, start=1):
        move = action.move
        if action.seq != expected_seq:
            raise Rejected(
                f"the log skips or repeats: action {expected_seq} is numbered {action.seq}"
            )
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
        if engine.score != action.score:
            raise Rejected(
                f"{_where(action)} records score {action.score}; the replay gives {engine.score}"
            )
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


def _ended(engine: GameState) -> str | None:
    if engine.is_won():
        return "won"
    if engine.is_stuck():
        return "lost"
    return None


def _where(action: Logged) -> str:
    return f"action {action.seq} ({action.move!r})"
