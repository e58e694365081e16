"""Checking a finished game's claim by replaying its move log with the engine.

Pure Python over the engine (no Django): given the deal, the recorded
actions and what the game claims (status, score, move count, final state),
either everything replays and matches, or :class:`Rejected` says why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import EngineError, Game

RESIGN = "resign"


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
    state: dict[str, Any] | None = None


@dataclass(frozen=True)
class Logged:
    seq: int
    move: str
    score: int


def replay_claim(claim: Claim, log: Sequence[Logged]) -> Game:
    """Replay ``log`` from the deal; return the final engine position or raise
    :class:`Rejected` naming the first thing that does not hold."""
    engine = Game.from_seed(claim.seed, claim.variant, undo_limit=claim.undo_limit)
    ended_by: str | None = None
    for expected_seq, action in enumerate(log, start=1):
        where = f"action {action.seq} ({action.move!r})"
        if action.seq != expected_seq:
            raise Rejected(
                f"the log skips or repeats: action {expected_seq} is numbered {action.seq}"
            )
        if ended_by is not None:
            raise Rejected(f"{where} comes after the game ended ({ended_by})")
        if action.move == RESIGN:
            ended_by = "resigned"
        else:
            try:
                engine.replay([action.move])  # an undo entry is the engine's own undo
            except EngineError as err:
                raise Rejected(f"{where} is refused by the rules: {err.reason}") from None
            if engine.is_won():
                ended_by = "won"
            elif engine.is_stuck():
                ended_by = "lost"
        if engine.score != action.score:
            raise Rejected(f"{where} records score {action.score}; the replay gives {engine.score}")
    if ended_by is None:
        raise Rejected("the log ends while the game could still go on (truncated?)")
    for name, claimed, replayed in (
        ("status", claim.status, ended_by),
        ("score", claim.score, engine.score),
        ("move count", claim.moves, engine.moves),
    ):
        if claimed != replayed:
            raise Rejected(f"the game claims {name} {claimed}; the replay gives {replayed}")
    if claim.state is not None and claim.state != engine.dump():
        raise Rejected("the recorded final position differs from the replay")
    return engine
