"""What the listen-only sockets of the duel and arena pages share (``DuelConsumer``,
``ArenaConsumer``): the connect (accept, join the group, read the socket's first message
on a thread, 4404 when there is nothing to listen to), the frame's size, the pace, and
the connection's language, in which every refusal's reason is worded (the codes stay
English: clients act on them; docs/protocol.md).

The language is the account's own choice for a signed-in player, else the site's
language cookie, else the browser's Accept-Language, else the site's default: what a page
of the same visitor would be in (games.accounts.language).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, TypeVar

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation.trans_real import parse_accept_lang_header

from ftsite.patches import apply_channels_direct_dispatch
from games.errors import ServiceError
from games.socket.connect_threads import scope_user
from games.socket.protocol import ProtocolError, readable_id, refusal
from games.throttles import Pace

CLOSE_NOT_FOUND = 4404
CLOSE_FLOOD = 4008
CLOSE_TOO_BIG = 4009

T = TypeVar("T")


def scope_language(scope: dict[str, Any]) -> str:
    """The connection's language (see the module's doc); read on a thread, as the user
    may not be read yet."""
    user = scope_user(scope)
    kept = getattr(user, "language", "") if user.is_authenticated else ""
    if kept in dict(settings.LANGUAGES):
        return str(kept)
    headers = dict(scope.get("headers") or [])
    cookies = scope.get("cookies")
    if cookies is None:
        cookies = parse_cookie(headers.get(b"cookie", b"").decode("latin-1"))
    asked = [cookies.get(settings.LANGUAGE_COOKIE_NAME) or ""]
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    asked += [code for code, _q in parse_accept_lang_header(accept) if code != "*"]
    for code in asked:
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return str(settings.LANGUAGE_CODE)


def parse_object(text: str | None) -> tuple[dict[str, Any], str | None]:
    """A listening socket's message as one JSON object and its id; ``bad_json`` (worded
    in the active language) for a binary frame or anything else."""
    if text is None:
        raise ProtocolError("bad_json", _("messages are JSON text frames, not binary"))
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", _('a message is one JSON object, such as {"type": "ping"}'))
    return data, readable_id(data.get("id"))


class ListeningConsumer(AsyncWebsocketConsumer):
    """A socket a page listens to: :meth:`listen` connects it, :meth:`heard` takes a
    frame (size, pace), :meth:`refuse` answers in the connection's language."""

    max_frame_bytes = 512
    flood_strikes = 10

    group: str | None = None
    language: str = settings.LANGUAGE_CODE

    async def listen(
        self, group: Callable[[], str], opened: Callable[[dict[str, Any]], T]
    ) -> T | None:
        """Accept, join ``group()`` (first, so nothing sent meanwhile is missed), then
        ``opened(scope)`` on a thread: its answer, or ``None`` once the socket is closed
        4404 (``opened`` or ``group`` refused it: ``ServiceError``, ``ValueError``)."""
        self.pace = Pace(rate=settings.FT_RATE_SOCKET_PACE)
        await self.accept()
        try:
            self.group = group()
            await self.channel_layer.group_add(self.group, self.channel_name)
            answer, self.language = await database_sync_to_async(_opened)(opened, self.scope)
        except (ValueError, TypeError, ServiceError):
            await self.leave_group()
            await self.close(CLOSE_NOT_FOUND)
            return None
        return answer

    async def leave_group(self) -> None:
        group, self.group = self.group, None
        if group is not None:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def heard(self, text_data: str | None, bytes_data: bytes | None) -> bool:
        """Whether a frame may be read: the socket is listening, the frame is at most
        ``max_frame_bytes`` (else closed 4009) and within the game socket's pace (else
        ``rate_limited``; closed 4008 on a flood)."""
        if self.group is None:
            return False
        size = len(text_data.encode()) if text_data is not None else len(bytes_data or b"")
        if size > self.max_frame_bytes:
            await self.close(CLOSE_TOO_BIG)
            return False
        now = time.monotonic()
        if self.pace.early(now=now):
            if self.pace.strikes > self.flood_strikes:
                await self.close(CLOSE_FLOOD)
            return False
        wait = self.pace.take(now=now)
        if wait <= 0:
            return True
        with translation.override(self.language):
            reason = _("too fast: send it again in %(seconds)s s") % {"seconds": f"{wait:g}"}
        await self.send_json(refusal("rate_limited", reason, None, retry_after=wait))
        return False

    async def refuse(self, code: str, reason: str | Callable[[], str], msg_id: str | None) -> None:
        """Refuse with ``code``; a callable ``reason`` is worded (called) in the
        connection's language, a text is sent as it is (worded already)."""
        with translation.override(self.language):
            text = reason if isinstance(reason, str) else reason()
        await self.send_json(refusal(code, text, msg_id))

    def parsed(self, parse: Callable[[str | None], T], text: str | None) -> T:
        """``parse(text)`` with its refusals (``ProtocolError``) worded in the
        connection's language."""
        with translation.override(self.language):
            return parse(text)

    async def send_json(self, message: Any) -> None:
        await self.send(text_data=json.dumps(message, separators=(",", ":")))


def _opened(opened: Callable[[dict[str, Any]], T], scope: dict[str, Any]) -> tuple[T, str]:
    answer = opened(scope)
    return answer, scope_language(scope)


# Channels' dispatch and websocket_disconnect without their hop, per message, to the thread
# every socket's database_sync_to_async shares (ftsite.patches): both listening sockets
# reach the database only through database_sync_to_async, and each leaves its group in
# its own disconnect. A duel's progress is two such messages a move (py-spy, 100 duels:
# the hop was 9.6 % of a server's event loop; docs/benchmarks.md "Duels under load").
apply_channels_direct_dispatch(ListeningConsumer)
