"""The refusals of league actions: each a :class:`games.errors.ServiceError` with a stable
code (docs/protocol.md, "Leagues") and a reason naming what was wrong and what is expected.
"""

from __future__ import annotations

from games.errors import BadRequest, Conflict, NotFound


class LeagueNameInvalid(BadRequest):
    code = "league_name"


class TooManyLeagues(Conflict):
    code = "too_many_leagues"


class LeagueFull(Conflict):
    code = "league_full"


class InviteInvalid(NotFound):
    """An invite token that opens no league: mistyped, or rotated since."""

    code = "invite_invalid"


class OwnerCannotLeave(Conflict):
    code = "owner_cannot_leave"


class ArenaBounds(BadRequest):
    """A league's arena outside the documented bounds (its start, length, rounds or
    variant)."""

    code = "arena_bounds"


class TooManyArenas(Conflict):
    code = "too_many_arenas"
