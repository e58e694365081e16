"""The live league board: like :class:`leaderboards.consumers.BoardConsumer`, a read-only
socket that says "this board changed", but only for the league's members.

Membership is checked once, at connect, through ``access_league``: anyone else is closed
with 4404 (as the league's pages answer 404, so a socket does not reveal that a league
exists). A member removed later keeps hearing bare nudges until they disconnect; nudges
carry no board data, and the rows they lead to are checked again on every fetch.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.utils import timezone

from games.daily import utc_today
from games.dates import parse_day
from games.errors import Forbidden, ServiceError
from leaderboards.consumers import CLOSE_NOT_FOUND, BoardConsumer
from leaderboards.leagues.access import access_league
from leaderboards.leagues.broadcast import league_group

CLOSE_FORBIDDEN = 4403  # as in games.socket.consumers and docs/protocol.md


@database_sync_to_async
def _admitted(user: Any, league_id: object) -> int:
    """0 when ``user`` may view the league, else the close code of the refusal."""
    try:
        access_league(user=user, league_id=league_id, purpose="view")
    except Forbidden:
        return CLOSE_FORBIDDEN
    except ServiceError:
        return CLOSE_NOT_FOUND
    return 0


class LeagueBoardConsumer(BoardConsumer):
    """One member watching one day's board of one league (pings as on the global board)."""

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        day = parse_day(kwargs["day"], today=utc_today(timezone.now()))
        user = self.scope.get("user")
        code = CLOSE_NOT_FOUND if day is None else await _admitted(user, kwargs["league_id"])
        if code or day is None:
            await self.accept()  # then close with a code: a refused handshake shows none
            await self.close(code)
            return
        # In the group before the page hears "open": a join in between is never missed.
        self.group = league_group(int(kwargs["league_id"]), day.isoformat())
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
