"""The live daily board: a read-only socket that says "this day's board changed".

Thin on purpose: it joins the day's group and forwards :func:`leaderboards.broadcast.
board_changed` events; the page then re-fetches its rows over HTTP, so the socket never
carries board data and needs no database access. Boards are public: anyone may connect.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import timezone

from games import dates
from games.daily import utc_today
from games.messages import PongMessage
from games.services import DAILY_VARIANT
from games.weekly import week_label
from leaderboards.broadcast import board_group

# As in docs/protocol.md: 4404 for something that does not exist (here, a board).
CLOSE_NOT_FOUND = 4404
MAX_FRAME_BYTES = 256  # the only message a client may send is a ping


class BoardConsumer(AsyncJsonWebsocketConsumer):
    """One viewer of one day's board."""

    group: str | None = None

    async def connect(self) -> None:
        text = self.scope["url_route"]["kwargs"]["day"]
        day = dates.parse_day(text, today=utc_today(timezone.now()))
        if day is None:
            # Accept, then close with a code: a refused handshake shows browsers no code.
            await self.accept()
            await self.close(CLOSE_NOT_FOUND)
            return
        # In the group before the page hears "open": a change in between is never missed.
        self.group = board_group(day.isoformat(), DAILY_VARIANT)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Nothing to act on: answer a ping (keep-alive through proxies), ignore the rest
        # without decoding it, so no input can make this socket fail.
        if (
            text_data is not None
            and len(text_data) <= MAX_FRAME_BYTES
            and text_data.replace(" ", "") == '{"type":"ping"}'
        ):
            await self.send_json(PongMessage(type="pong"))

    async def board_changed(self, event: dict[str, Any]) -> None:
        """From the group: ``{"type": "board", "result_id": ...}``."""
        await self.send_json(event["message"])


class WeeklyBoardConsumer(BoardConsumer):
    """One viewer of one week's board of the weekly challenge (``2026-W49``)."""

    async def connect(self) -> None:
        text = self.scope["url_route"]["kwargs"]["week"]
        monday = dates.parse_week(text, today=utc_today(timezone.now()))
        if monday is None or week_label(monday) != text:
            await self.accept()  # then close with a code, as above
            await self.close(CLOSE_NOT_FOUND)
            return
        self.group = board_group(monday.isoformat(), "", weekly=True)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
