"""The arena socket (``/ws/arenas/<id>/``, docs/protocol.md "The arena socket"): the live
table of an arena's page. It only listens: on connecting it sends the table
(``standings``), then the table again at each round's open, each settling and the end
(``games.services.arenas``). Each socket's viewer gets their own row after the top rows
when they are further down. A client may send ``ping``; anything else is refused
``wrong_socket`` (moves go over the round's game socket)."""

from __future__ import annotations

import json
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from games.arenas.messages import StandingsMessage
from games.arenas.selectors import arena_read, arena_standings_message, arena_viewer_row
from games.errors import ServiceError
from games.messages import PongMessage
from games.runtime.broadcast import arena_group
from games.socket.connect_threads import scope_user
from games.socket.protocol import ProtocolError, readable_id, refusal
from games.throttles import Pace

CLOSE_NOT_FOUND = 4404
CLOSE_FLOOD = 4008
CLOSE_TOO_BIG = 4009


def _open(scope: dict[str, Any], arena_id: str) -> tuple[int, int | None, StandingsMessage]:
    """The arena's id, the socket's viewer (``None``: nobody signed in) and the table."""
    arena = arena_read(arena_id=arena_id)
    user = scope_user(scope)
    viewer = user.pk if user.is_authenticated else None
    return arena.pk, viewer, with_viewer(arena_standings_message(arena=arena), arena.pk, viewer)


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
    if text is None:
        raise ProtocolError("bad_json", "messages are JSON text frames, not binary")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", 'a message is one JSON object, such as {"type": "ping"}')
    msg_id = readable_id(data.get("id"))
    if data.get("type") == "ping":
        return "ping", msg_id
    raise ProtocolError(
        "wrong_socket",
        "an arena socket only listens: moves go over your round's game socket",
        msg_id,
    )


class ArenaConsumer(AsyncWebsocketConsumer):
    """One socket of one arena's page: anyone may listen (the table is public)."""

    max_frame_bytes = 512
    flood_strikes = 10

    group: str | None = None
    arena_pk: int = 0
    viewer_id: int | None = None

    async def connect(self) -> None:
        self.pace = Pace(rate=settings.FT_RATE_SOCKET_PACE)
        await self.accept()
        try:
            self.arena_pk, self.viewer_id, hello = await database_sync_to_async(_open)(
                self.scope, self.scope["url_route"]["kwargs"]["arena_id"]
            )
        except ServiceError:
            await self.close(CLOSE_NOT_FOUND)
            return
        self.group = arena_group(self.arena_pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.send_json(hello)

    async def disconnect(self, code: int) -> None:
        group, self.group = self.group, None
        if group is not None:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.group is None:
            return
        size = len(text_data.encode()) if text_data is not None else len(bytes_data or b"")
        if size > self.max_frame_bytes:
            await self.close(CLOSE_TOO_BIG)
            return
        now = time.monotonic()
        if self.pace.early(now=now):
            if self.pace.strikes > self.flood_strikes:
                await self.close(CLOSE_FLOOD)
            return
        wait = self.pace.take(now=now)
        if wait > 0:
            reason = f"too fast: send it again in {wait:g} s"
            await self.send_json(refusal("rate_limited", reason, None, retry_after=wait))
            return
        try:
            _parse(text_data)
        except ProtocolError as err:
            await self.send_json(refusal(err.code, err.reason, err.id))
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

    async def send_json(self, message: Any) -> None:
        await self.send(text_data=json.dumps(message, separators=(",", ":")))
