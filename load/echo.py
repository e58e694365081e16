"""The baseline: a websocket consumer that does nothing but send each frame back.

It runs on the same ``daphne`` process, the same Channels stack and the same channel layer
as the game sockets, so the difference between the two is what a move itself costs.
"""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer


class EchoConsumer(AsyncWebsocketConsumer):
    """Echoes every frame, text or binary, unchanged."""

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is not None:
            await self.send(text_data=text_data)
        elif bytes_data is not None:
            await self.send(bytes_data=bytes_data)
