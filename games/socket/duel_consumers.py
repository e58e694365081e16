"""The duel socket (``/ws/duels/<id>/``, docs/protocol.md "The duel socket"): both
players' and any watcher's view of a duel's progress, in counts, never a card.

A player's moves go over their own game's socket as in any game; this socket carries the
duel: its state on connecting (``duel``), each seat's counts after each committed action
(``progress``), presence (``presence``: a player's duel sockets, which start and stop the
grace period) and the result (``duel_end``). It also keeps the clock honest on time: a
timer at the flag and at the end of an absent player's grace period asks the service
what is due (``duel_tick``; the beat's sweep does the same for duels no socket watches).
A client may send ``ping`` and ``sync``; anything else is refused ``wrong_socket``, the
reason in the connection's language (``games.socket.listening``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from games import services
from games.duels.messages import DuelMessage
from games.duels.selectors import duel_read, duel_view
from games.errors import ServiceError
from games.messages import PongMessage
from games.runtime.broadcast import duel_group
from games.socket.connect_threads import scope_user
from games.socket.listening import (
    CLOSE_FLOOD,
    CLOSE_NOT_FOUND,
    CLOSE_TOO_BIG,
    ListeningConsumer,
    parse_object,
)
from games.socket.protocol import ACTIONS, ProtocolError

logger = logging.getLogger(__name__)

__all__ = ["CLOSE_FLOOD", "CLOSE_NOT_FOUND", "CLOSE_TOO_BIG", "DuelConsumer"]


def _open(scope: dict[str, Any], duel_id: str) -> tuple[int | None, int | None, DuelMessage]:
    """The socket's user id, seat (``None``: a watcher) and the duel's state, the seat's
    presence counted first so the state shows it connected."""
    user = scope_user(scope)
    duel = duel_read(duel_id=duel_id)
    seat = None
    if user.is_authenticated:
        seat = services.duel_presence(duel_id=duel.pk, user_id=user.pk, delta=1)
    duel.refresh_from_db()
    return user.pk, seat, DuelMessage(type="duel", duel=duel_view(user=user, duel=duel))


def _state(scope: dict[str, Any], duel_id: str) -> DuelMessage:
    duel = services.duel_tick(duel_id=duel_id)
    return DuelMessage(type="duel", duel=duel_view(user=scope_user(scope), duel=duel))


def _left(duel_id: str, user_id: int) -> None:
    services.duel_presence(duel_id=duel_id, user_id=user_id, delta=-1)


def _parse(text: str | None) -> tuple[str, str | None]:
    """A duel socket's message: its type (``ping``, ``sync``, or a game action, which this
    socket refuses) and its id; :class:`ProtocolError` for anything else (worded in the
    active language)."""
    data, msg_id = parse_object(text)
    kind = data.get("type")
    if kind in ("ping", "sync") or kind in ACTIONS or kind == "hint":
        return str(kind), msg_id
    raise ProtocolError("unknown_type", _("a duel socket takes ping and sync"), msg_id)


def _sync_reason(err: ServiceError) -> str:
    """A refused ``sync`` in the active language, by its code."""
    if err.code == "not_found":
        return _("there is no such duel")
    return err.reason


class DuelConsumer(ListeningConsumer):
    """One socket of one duel: a player's (its presence counts) or a watcher's."""

    user_id: int | None = None
    seat: int | None = None

    async def connect(self) -> None:
        self.duel_id: str = self.scope["url_route"]["kwargs"]["duel_id"]
        self.timers: list[asyncio.TimerHandle] = []

        def group() -> str:  # ValueError for an id that is no UUID: closed 4404
            self.duel_id = str(uuid.UUID(self.duel_id))
            return duel_group(self.duel_id)

        opened = await self.listen(group, lambda scope: _open(scope, self.duel_id))
        if opened is None:
            return
        self.user_id, self.seat, hello = opened
        await self.send_json(hello)
        self.plan(hello)

    def plan(self, hello: DuelMessage) -> None:
        """A timer at the flag (a second after it, so the clocks agree it has passed)."""
        ends = hello["duel"]["ends_at"]
        if hello["duel"]["state"] in ("running", "finished") and ends:
            self.tick_at(datetime.fromisoformat(ends))

    def tick_at(self, at: datetime) -> None:
        delay = max(0.0, (at - timezone.now()).total_seconds()) + 1.0
        loop = asyncio.get_running_loop()
        self.timers.append(loop.call_later(delay, lambda: asyncio.ensure_future(self.tick())))

    async def tick(self) -> None:
        try:
            await database_sync_to_async(services.duel_tick)(duel_id=self.duel_id)
        except Exception:
            logger.exception("the tick of duel %s failed", self.duel_id)

    async def disconnect(self, code: int) -> None:
        for timer in self.timers:
            timer.cancel()
        await self.leave_group()
        if self.seat is not None and self.user_id is not None:
            with contextlib.suppress(Exception):
                await database_sync_to_async(_left)(self.duel_id, self.user_id)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not await self.heard(text_data, bytes_data):
            return
        try:
            kind, msg_id = self.parsed(_parse, text_data)
        except ProtocolError as err:
            await self.refuse(err.code, err.reason, err.id)  # worded by parsed()
            return
        if kind == "ping":
            if self.seat is not None and self.user_id is not None:
                with contextlib.suppress(Exception):  # a missed heartbeat costs little
                    await database_sync_to_async(services.duel_heartbeat)(
                        duel_id=self.duel_id, user_id=self.user_id
                    )
            await self.send_json(PongMessage(type="pong"))
        elif kind == "sync":
            try:
                state = await database_sync_to_async(_state)(self.scope, self.duel_id)
            except ServiceError as err:
                await self.refuse(err.code, partial(_sync_reason, err), msg_id)
                return
            await self.send_json(state)
        else:
            await self.refuse("wrong_socket", _wrong_socket, msg_id)

    async def duel_event(self, event: dict[str, Any]) -> None:
        """A message of the duel's group (``games.runtime.broadcast.duel_event``)."""
        message = event["message"]
        if message.get("type") == "presence" and not message.get("connected"):
            # An absent player: a tick when the grace period is over.
            grace = settings.FT_DUEL_GRACE_SECONDS
            self.tick_at(timezone.now() + timedelta(seconds=grace))
        with contextlib.suppress(Exception):
            await self.send_json(message)


def _wrong_socket() -> str:
    return _(
        "a duel socket only watches: moves go over your own game's socket"
        " (/ws/games/<your game>/), and nobody acts for another player"
    )
