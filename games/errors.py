"""Errors the games services raise: a stable code, a readable reason, an HTTP status.

Interfaces (the websocket consumer, the JSON API, pages) turn these into
refusals; none of them is ever a server error.
"""

from __future__ import annotations

from games.engine import EngineError


class ServiceError(Exception):
    """A request the services refuse; ``code`` is stable, ``reason`` is for people."""

    code = "bad_request"
    status = 400

    def __init__(self, reason: str, **extra: object) -> None:
        super().__init__(reason)
        self.reason = reason
        self.extra = extra


class BadRequest(ServiceError):
    code, status = "bad_request", 400


class NotAuthenticated(ServiceError):
    code, status = "not_authenticated", 401


class Forbidden(ServiceError):
    code, status = "forbidden", 403


class NotFound(ServiceError):
    code, status = "not_found", 404


class Conflict(ServiceError):
    code, status = "conflict", 409


class GameOver(Conflict):
    code = "game_over"


class StaleVersion(Conflict):
    code = "stale_version"


class DayClosed(Conflict):
    code = "day_closed"


class TimeUp(Conflict):
    """A move in a duel's game from the flag on (the duel's clock, on the server)."""

    code = "time_up"


class DuelNotStarted(Conflict):
    """A move in a duel's game before the duel's start (both start at one instant)."""

    code = "duel_not_started"


class RoundNotStarted(Conflict):
    """A move in an arena round's game before the round opens (all open at one instant)."""

    code = "round_not_started"


class ArenaClosed(Conflict):
    """An arena entry past its close: after its last round opened, or after it ended."""

    code = "arena_closed"


class AlreadyEntered(Conflict):
    """An arena joined by a player who is in it already."""

    code = "already_entered"


class NotEntered(Conflict):
    """An arena left by a player who is not in it."""

    code = "not_entered"


class OwnChallenge(Conflict):
    """A duel challenge accepted by the player who made it."""

    code = "own_challenge"


class ChallengeTaken(Conflict):
    """A duel challenge someone else accepted first (a duel has two seats)."""

    code = "challenge_taken"


class ChallengeExpired(Conflict):
    """A duel challenge past its time (``FT_DUEL_CHALLENGE_MINUTES``), or withdrawn."""

    code, status = "challenge_expired", 410


class InDuel(Conflict):
    """A player already in a running duel asked to start another."""

    code = "in_duel"


class DayNotClosed(Conflict):
    """An archive game of a daily deal whose day has not closed yet (it is still ranked)."""

    code = "day_not_closed"


class NoDeal(NotFound):
    """No daily deal (or weekly challenge) was opened for the day (or week) asked for."""

    code = "no_deal"


class SolverLocked(Forbidden):
    """Solver help (hints, the dead-end notice, the solution) on a daily deal still open."""

    code = "day_open"


class Refused(ServiceError):
    """The engine refused the action; carries the engine's code and reason, and the rule
    that stands in the way with its parameters when the engine names one (a page words
    it in the player's language; see docs/protocol.md)."""

    status = 422

    def __init__(self, error: EngineError) -> None:
        named = {"rule": error.rule, "params": error.params} if error.rule else {}
        super().__init__(error.reason, **named)
        self.code = error.code
