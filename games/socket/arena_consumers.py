"""The arena socket (``/ws/arenas/<id>/``, docs/protocol.md "The arena socket"): the live
table of an arena's page. It only listens: on connecting it sends the table
(``standings``), then the table again at each round's open, each settling and the end
(``games.services.arenas``). Each socket's viewer gets their own row after the top rows
when they are further down. A client may send ``ping``; anything else is refused
``wrong_socket`` (moves go over the round's game socket), in the connection's language. A
league's arena is its members' only: anyone else is closed 4404, as its page is a 404."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.utils.translation import gettext as _

from games.access import access_arena
from games.arenas.messages import StandingsMessage
from games.arenas.selectors import arena_standings_message, arena_viewer_row
from games.messages import PongMessage
from games.runtime.broadcast import arena_group
from games.socket.connect_threads import scope_user
from games.socket.listening import (
    CLOSE_FLOOD,
    CLOSE_NOT_FOUND,
    CLOSE_TOO_BIG,
    ListeningConsumer,
    parse_object,
)
from games.socket.protocol import ProtocolError

__all__ = ["CLOSE_FLOOD", "CLOSE_NOT_FOUND", "CLOSE_TOO_BIG", "ArenaConsumer", "with_viewer"]


def _open(scope: dict[str, Any], arena_id: int) -> tuple[int | None, StandingsMessage]:
    """The socket's viewer (``None``: nobody signed in) and the table; ``NotFound`` for
    no arena, or a league's arena to anyone but its members."""
    user = scope_user(scope)
    arena = access_arena(user=user, arena_id=arena_id).arena
    viewer = user.pk if user.is_authenticated else None
    return viewer, with_viewer(arena_standings_message(arena=arena), arena.pk, viewer)


def with_viewer(
    message: StandingsMessage, arena_id: int, viewer_id: int | None
) -> StandingsMessage:
    """``message`` with the viewer's own row after the top rows when it is not among them
    (the page marks it by its entry)."""
    if viewer_id is None or len(message["rows"]) >= message["entrants"]:
        return message
    row = arena_viewer_row(arena_id=arena_id, viewer_id=viewer_id)
    if row is None or any(r["entry"] == row["entry"] for r in message["rows"]):
        return message
    return StandingsMessage(**{**message, "rows": [*message["rows"], row]})


def _parse(text: str | None) -> tuple[str, str | None]:
    data, msg_id = parse_object(text)
    if data.get("type") == "ping":
        return "ping", msg_id
    raise ProtocolError(
        "wrong_socket",
        _("an arena socket only listens: moves go over your round's game socket"),
        msg_id,
    )


class ArenaConsumer(ListeningConsumer):
    """One socket of one arena's page: anyone may listen to the site's arenas (the table
    is public), a league's members to their league's."""

    arena_pk: int = 0
    viewer_id: int | None = None

    async def connect(self) -> None:
        named = str(self.scope["url_route"]["kwargs"]["arena_id"])

        def group() -> str:  # ValueError for an id that is no number: closed 4404
            self.arena_pk = int(named)
            return arena_group(self.arena_pk)

        opened = await self.listen(group, lambda scope: _open(scope, self.arena_pk))
        if opened is not None:
            self.viewer_id, hello = opened
            await self.send_json(hello)

    async def disconnect(self, code: int) -> None:
        await self.leave_group()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not await self.heard(text_data, bytes_data):
            return
        try:
            self.parsed(_parse, text_data)
        except ProtocolError as err:
            await self.refuse(err.code, err.reason, err.id)  # worded by parsed()
            return
        await self.send_json(PongMessage(type="pong"))

    async def arena_event(self, event: dict[str, Any]) -> None:
        """A message of the arena's group (``games.runtime.broadcast.arena_event``)."""
        message = event["message"]
        if message.get("type") == "standings" and self.viewer_id is not None:
            message = await database_sync_to_async(with_viewer)(
                message, self.arena_pk, self.viewer_id
            )
        await self.send_json(message)
