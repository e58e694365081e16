"""The websocket play interface of ``docs/protocol.md``: parse, call one service, answer.

Everything a game may do lives in :mod:`games.services`; permissions are decided by
:func:`games.access.access_game`. This module only turns frames into service calls and
service results (or refusals) into frames, and protects the socket (size, rate, bad input).
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import time
import uuid
from collections import deque
from dataclasses import dataclass
from typing import Any, cast

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import InterfaceError, OperationalError

from ftsite.patches import apply_channels_direct_dispatch
from games import metrics, selectors, services
from games.errors import NotAuthenticated, NotFound, ServiceError
from games.messages import (
    ActionMessage,
    GameMessage,
    GameView,
    HelloMessage,
    HintMessage,
    PongMessage,
    RefusedMessage,
    StateMessage,
    SyncedMessage,
)
from games.models import User
from games.outcomes import Origin
from games.payloads import accepted_message, action_message
from games.privacy.services import Seen
from games.privacy.sightings import client_address
from games.runtime.broadcast import game_group
from games.runtime.live import game_pk, live_attach, live_detach, live_hold_many
from games.runtime.move_threads import on_move_thread
from games.runtime.warm import move_threads_warm
from games.socket.connect_threads import on_connect_thread_batched, scopes_users_and_games
from games.socket.groups import group_join, group_leave
from games.socket.loop_throttle import throttle_reserve_on_loop
from games.socket.protocol import (
    ACTIONS,
    ClientMessage,
    ProtocolError,
    parse_client_message,
    refusal,
)
from games.socket.session_user import guest_still_signed_in
from games.socket.sighting_batch import sighting_queue, sightings_flush
from games.throttles import Allowance, Pace, Rate, RateLimited, who

logger = logging.getLogger(__name__)


# Close codes (docs/protocol.md, "Connecting").
CLOSE_NOT_SIGNED_IN = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
# Application codes (4000-4999): the server stack (autobahn, under daphne) refuses to send
# 1008, 1009 or 1011 ("must be 1000 or from [3000, 4999]") and the client would see 1006.
CLOSE_FLOOD = 4008
CLOSE_TOO_BIG = 4009
CLOSE_SESSION_CHANGED = 4409  # a guest's socket after the guest signed up or in: reconnect
CLOSE_SERVER_ERROR = 4500
# A socket's last actions sent again to a socket that joins (see peer_joined).
RECENT_ACTIONS = 8


def close_code_for(error: ServiceError, user: Any) -> int:
    """The close code of a refused connection; 4401 only when signing in could help."""
    if isinstance(error, NotFound):
        return CLOSE_NOT_FOUND
    if isinstance(error, NotAuthenticated) or not user.is_authenticated:
        return CLOSE_NOT_SIGNED_IN
    return CLOSE_FORBIDDEN


# The sync halves, run in a worker thread through database_sync_to_async ----------------


@dataclass(frozen=True)
class Opened:
    """What a connect's reads found: the socket's user, and the game's full state (with the
    role the funnel admitted it in) or the refusal."""

    user: User | AnonymousUser
    game: dict[str, Any] | None = None
    refusal: ServiceError | None = None


def _open_many(items: list[tuple[dict[str, Any], uuid.UUID]]) -> list[Opened | Exception]:
    """The reads of connects, each (scope, game key) of ``items`` in its place: the
    session's user and the game's row (``scopes_users_and_games``: the connects a connect
    thread took together in one round trip), then for each the one access check
    (``games.access``) and the game's state from that row, after its socket joined the
    game's group. One socket's failure is its own (in its place), but a dropped database
    connection is the batch's: raised, so the connect thread reads them all again once on
    a new connection (``connect_threads``)."""
    read = scopes_users_and_games(items)
    # The players' own games read ahead together (a watcher's waits for its access check).
    live_hold_many([game for user, game in read if game is not None and game.player_id == user.pk])
    opened: list[Opened | Exception] = []
    for user, game in read:
        try:
            opened.append(Opened(user=user, game=selectors.game_state_read(user=user, game=game)))
        except ServiceError as err:
            opened.append(Opened(user=user, refusal=err))
        except (OperationalError, InterfaceError):
            raise
        except Exception as err:  # noqa: BLE001 - raised where that socket awaits it
            opened.append(err)
    return opened


def _act(user: User, game_id: str, message: ClientMessage, origin: Origin) -> services.ActOutcome:
    return services.game_act(
        user=user,
        game_id=game_id,
        kind=message.type,
        move=message.move,
        client_id=message.id or "",
        version=message.version,
        origin=origin,
    )


def _scope_address(scope: dict[str, Any]) -> str | None:
    """The client's address, read as pages read it (``FT_TRUSTED_PROXIES``)."""
    headers = dict(scope.get("headers") or [])
    return client_address(
        remote=(scope.get("client") or [None])[0],
        forwarded_for=headers.get(b"x-forwarded-for", b"").decode("latin-1"),
        proxies=settings.FT_TRUSTED_PROXIES,
        trusted=settings.FT_TRUSTED_PROXY_NETWORKS,
    )


class GameConsumer(AsyncWebsocketConsumer):
    """One socket of one game: the player's (may act) or a watcher's (may only watch)."""

    # Class attributes so tests (and deployments) can tune them.
    max_frame_bytes = 4096
    pace_rate: Rate | None = None  # a socket's pace (Pace): FT_RATE_SOCKET_PACE unless set
    flood_strikes = 10  # messages in a row before the wait they were told: closed 4008

    role: str | None = None  # None until admitted, and again once closing
    counted_open: bool = False  # in metrics.OPEN (said hello), until it disconnects
    sighting_pending: bool = False  # queued in sighting_batch, not yet flushed by this socket
    allowance: Allowance | None = None  # the user's socket messages taken in advance
    group: str | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """The consumer, closing with 4500 ("try again") when the channel layer fails under
        it (Redis restarting): the server stack would otherwise end the socket with 1011,
        which the protocol keeps out of the codes a client sees."""
        try:
            await super().__call__(scope, receive, send)
        except Exception:
            logger.warning(
                "the socket of game %s failed under it", scope.get("path"), exc_info=True
            )
            with contextlib.suppress(Exception):
                await send({"type": "websocket.close", "code": CLOSE_SERVER_ERROR})

    async def connect(self) -> None:
        started = time.perf_counter()
        metrics.CONNECTS.inc()
        self.game_id: str = self.scope["url_route"]["kwargs"]["game_id"]
        # Read with the access check on the connect thread (games.socket.connect_threads).
        self.user: User | AnonymousUser = AnonymousUser()
        self.pace = Pace(rate=self.pace_rate or settings.FT_RATE_SOCKET_PACE)
        self.peers: set[str] = set()
        self.sent_actions: deque[ActionMessage] = deque(maxlen=RECENT_ACTIONS)
        move_threads_warm()  # once a process: its first moves then find them ready
        # Accept first and close with a code: a refused handshake shows browsers no code.
        await self.accept()
        try:
            pk = game_pk(self.game_id)  # what is no game id: 4404, no query
            game_id = str(pk)
            # Join before reading the state, so no action falls between hello and the feed.
            # Until admitted (role set) the group's messages wait for this method to return.
            self.group = game_group(game_id)
            others = await group_join(self.channel_layer, self.group, self.channel_name)
            opened = await on_connect_thread_batched(_open_many, (self.scope, pk))
            self.user = opened.user
            if opened.refusal is not None:
                await self.leave_unannounced()
                raise opened.refusal
            # Told only once admitted: no other socket ever sends a refused one anything.
            # An action a peer applies before it hears this is among the few it sends on
            # hearing it (peer_joined). Alone in the group (the usual case), nobody to tell:
            # a socket that joins later finds this one there and tells it (groups.py).
            if others:
                await self.announce_self()
        except ServiceError as err:
            await self.close_with(close_code_for(err, self.user), err.reason)
            return
        except Exception:
            logger.exception("opening the socket of game %s failed", self.game_id)
            await self.close_with(CLOSE_SERVER_ERROR)
            return
        game = opened.game or {}
        self.game_id, self.role = game_id, game["role"]
        await self.send_message(
            HelloMessage(type="hello", role=game["role"], game=cast(GameView, game))
        )
        metrics.CONNECT.observe(time.perf_counter() - started)
        metrics.OPEN.inc()
        self.counted_open = True
        live_attach(game_id=self.game_id)  # its game's entry is kept while it is open
        if self.role == "player":  # after the hello, which need not wait for it
            self.record_sighting()

    def record_sighting(self) -> None:
        """The player's fair-play sighting (games.privacy.middleware does the same for pages),
        queued for a batch written on a connect thread (``games.socket.sighting_batch``).
        None for a guest (it plays no competition deal: games.services.guests)."""
        user_id = self.user.pk
        if user_id is None or getattr(self.user, "is_guest", False):
            return
        headers = dict(self.scope.get("headers") or [])
        seen = Seen(
            user_id=user_id,
            device_token=(self.scope.get("cookies") or {}).get("ft_device"),
            address=_scope_address(self.scope),
            user_agent=headers.get(b"user-agent", b"").decode("latin-1"),
        )
        try:
            self.sighting_pending = sighting_queue(seen)
        except Exception:
            logger.exception("queueing the sighting of a socket's player failed")

    async def leave_unannounced(self) -> None:
        """Leave the game's group before any other socket heard of this one (a refusal):
        at once, with no goodbye; the group's messages that came meanwhile are dropped
        (``role`` is None)."""
        group, self.group = self.group, None
        if group is not None:
            await group_leave(self.channel_layer, group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        metrics.DISCONNECTS.labels(metrics.close_code_label(code)).inc()
        if self.counted_open:
            self.counted_open = False
            metrics.OPEN.dec()
            live_detach(game_id=self.game_id)
        if self.group is None:
            return
        try:
            await group_leave(self.channel_layer, self.group, self.channel_name)
            # Only sockets in self.peers know of this one (each side adds the other: see
            # peer_joined): with none, a goodbye to the group (several Redis commands, in
            # a storm a thousand sockets closing at once) would tell nobody anything.
            if self.peers:
                event = {"type": "peer.left", "channel": self.channel_name}
                await self.channel_layer.group_send(self.group, event)
        except Exception as error:  # noqa: BLE001 - a goodbye that fails costs little
            # The membership expires with the layer's group expiry; a peer that never heard
            # the goodbye only broadcasts what it need not.
            logger.warning("leaving the group of game %s failed: %r", self.game_id, error)

    # Who else listens to the game -------------------------------------------------------
    # A move is answered to its sender directly; it goes to the game's group (a round trip
    # to Redis per move, and one message per member) only when another socket listens:
    # another tab, a watcher, on any server process. Each socket says so on joining and
    # leaving; a socket that died without a word (a killed process) stays a peer, which
    # costs only the broadcast it would have had anyway.

    async def announce_self(self) -> None:
        event = {"type": "peer.joined", "channel": self.channel_name}
        await self.channel_layer.group_send(self.group, event)

    async def peer_joined(self, event: dict[str, Any]) -> None:
        channel = event["channel"]
        if channel != self.channel_name and self.role is not None:
            self.peers.add(channel)
            reply = {"type": "peer.present", "channel": self.channel_name}
            await self.channel_layer.send(channel, reply)
            # Actions this socket applied after the newcomer joined but before this notice
            # arrived went to nobody.
            await self.send_recent_actions(channel)

    async def peer_present(self, event: dict[str, Any]) -> None:
        channel = event["channel"]
        if channel in self.peers or self.role is None:
            return
        self.peers.add(channel)
        # This socket announced itself to an older one that was alone in the group, and
        # learns of it only now: the actions it applied in between went to nobody but its
        # sender. The older socket read its state before, so it gets them now.
        await self.send_recent_actions(channel)

    async def send_recent_actions(self, channel: str) -> None:
        """This socket's last few actions to a peer it has just heard of (the peer ignores
        the versions it already has, as every client does)."""
        for message in self.sent_actions:
            await self.channel_layer.send(channel, {"type": "game.action", "message": message})

    async def peer_left(self, event: dict[str, Any]) -> None:
        self.peers.discard(event["channel"])

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.role is None:  # refused or closing: nothing more is read
            return
        started = time.perf_counter()
        size = len(text_data.encode()) if text_data is not None else len(bytes_data or b"")
        if size > self.max_frame_bytes:
            await self.close_with(CLOSE_TOO_BIG)
            return
        message: ClientMessage | None = None
        try:
            if text_data is None:
                raise ProtocolError("bad_json", "messages are JSON text frames, not binary")
            # Parsed before the pace is asked, so a refusal for pace echoes the id the
            # page waits on (it sends that message again after retry_after).
            parsed: ClientMessage | ProtocolError = parse_client_message(text_data)
        except ProtocolError as err:
            parsed = err
        if not await self.paced(parsed.id):
            return
        try:
            if isinstance(parsed, ProtocolError):
                raise parsed
            message = parsed
            await self.count_for_user()
            if self.sighting_pending and message.type in ACTIONS:
                # Written before any move can finish the game and have it screened.
                self.sighting_pending = False
                await sightings_flush()
            await self.handle(message)
        except ProtocolError as err:
            await self.send_message(refusal(err.code, err.reason, err.id))
        except ServiceError as err:
            assert message is not None
            if isinstance(err, RateLimited):
                # Another limit's wait counts like the pace's: a message before it is early.
                self.pace.refuse_until(time.monotonic() + err.retry_after)
            await self.send_message(self.service_refusal(err, message))
        except Exception:
            # A bug must not kill the socket silently: log it, tell the client, keep going.
            logger.exception("handling a message on game %s failed", self.game_id)
            msg_id = message.id if message else None
            await self.send_message(refusal("server_error", "the server failed; try again", msg_id))
        if message is not None and message.type in ACTIONS:
            metrics.MOVE_ACK.labels(message.type).observe(time.perf_counter() - started)

    async def paced(self, msg_id: str | None) -> bool:
        """Whether the message may go ahead at this socket's pace (``throttles.Pace``).
        Too soon: refused ``rate_limited`` with the wait (the page sends it again then),
        and the socket stays open. A client that keeps sending before the wait it was told
        is over (``flood_strikes`` times in a row) is a script: closed with 4008."""
        now = time.monotonic()
        if self.pace.early(now=now):
            if self.pace.strikes > self.flood_strikes:
                await self.close_with(CLOSE_FLOOD, "flood: messages kept coming after rate_limited")
                return False
            wait = math.ceil((self.pace.until - now) * 100) / 100
            reason = f"too soon: the wait a refusal named is not over; send it again in {wait:g} s"
        else:
            wait = self.pace.take(now=now)
            reason = (
                f"too fast: at most {self.pace.rate.count} messages at once, then"
                f" {self.pace.per_second:g} a second; send it again in {wait:g} s"
            )
        if wait <= 0:
            return True
        await self.send_message(refusal("rate_limited", reason, msg_id, retry_after=wait))
        return False

    async def handle(self, message: ClientMessage) -> None:
        if getattr(self.user, "is_guest", False) and not await self.guest_current(message):
            return
        if message.type == "ping":
            await self.send_message(PongMessage(type="pong"))
            return
        if message.type == "sync":
            # Re-checked on each sync: the game may be gone since the socket opened.
            game = await database_sync_to_async(selectors.game_state)(
                user=self.user, game_id=self.game_id
            )
            if game["version"] == message.version:
                await self.send_message(SyncedMessage(type="synced", version=game["version"]))
            else:
                await self.send_message(StateMessage(type="state", game=cast(GameView, game)))
            return
        if self.role != "player":
            raise ProtocolError(
                "forbidden",
                "watchers may only send sync and ping; only the player acts",
                message.id,
            )
        if message.type == "hint":
            # The one hint service, as the API's: it waits up to FT_HINT_SECONDS for the
            # solver pool, so on a thread of its own, never on the event loop nor on the one
            # thread every socket's database calls share. Nothing is played or broadcast.
            hint = database_sync_to_async(services.game_hint, thread_sensitive=False)
            hinted = await hint(user=self.user, game_id=self.game_id)
            await self.send_message(
                HintMessage(
                    type="hint",
                    id=message.id,
                    move=hinted.move,
                    hints=hinted.hints,
                    version=hinted.version,
                )
            )
            return
        # On an action thread (games.runtime.move_threads), not the one database thread shared by
        # every socket: writes overlap and share their disk flushes. What follows the action
        # (the other sockets, a finish, a dead end) the service does after the commit, as
        # for the API and the form; this socket is its origin, so its copy skips it here.
        origin = Origin(channel=self.channel_name, peers=bool(self.peers))
        result = await on_move_thread(_act, self.user, self.game_id, message, origin)
        await self.send_message(accepted_message(result, message.id))
        if not result.duplicate:
            self.sent_actions.append(action_message(result))

    async def guest_current(self, message: ClientMessage) -> bool:
        """Whether this guest's socket still speaks for the session's player. Not once the
        guest signed up or signed in (issue 37: its socket on the other process wrote into
        the account): the message is refused ``session_changed`` and the socket closed 4409,
        so the page reconnects and the browser's session now decides who plays."""
        if await on_move_thread(guest_still_signed_in, self.user.pk):
            return True
        reason = "this guest has signed up or signed in since the socket opened: reconnect"
        await self.send_message(refusal("session_changed", reason, message.id))
        await self.close_with(CLOSE_SESSION_CHANGED, reason)
        return False

    def service_refusal(self, err: ServiceError, message: ClientMessage) -> RefusedMessage:
        # The service's own code: a move that is no move at all ("", "undo") is refused by
        # game_act as the engine's invalid_move, as docs/protocol.md names it.
        extra = {
            k: err.extra[k] for k in ("version", "retry_after", "rule", "params") if k in err.extra
        }
        return refusal(err.code, err.reason, message.id, **extra)

    async def game_action(self, event: dict[str, Any]) -> None:
        """An action the services committed: to every socket of the game but the one that
        sent it (which answered its sender itself)."""
        origin = event.get("origin")
        if self.role is None or (origin and origin == self.channel_name):
            return
        try:
            await self.send_message(event["message"])
        except Exception as err:  # noqa: BLE001 - see below
            # The socket closed while the broadcast was on its way (the server stack raises
            # its own "Disconnected"): the client resyncs when it reconnects, and one
            # socket's failed send must not end the consumer with a traceback.
            logger.info("a broadcast to a closing socket of game %s: %s", self.game_id, err)

    async def count_for_user(self) -> None:
        """Count the message against the limit of all the user's sockets together (several
        sockets must not multiply the per-socket limit); raises ``RateLimited``. Units are
        taken from the shared count ten at a time (``throttles.Allowance``), by the event
        loop's own Redis client (``loop_throttle``), never the threads that apply actions."""
        if self.allowance is None:
            if self.user.is_authenticated:
                ident = who(user_id=self.user.pk)
            else:
                ident = who(address=_scope_address(self.scope))
            self.allowance = Allowance.for_rate(
                name="socket",
                rate=settings.FT_RATE_SOCKET_MESSAGES,
                ident=ident,
                what="messages on your sockets",
            )
        if self.allowance.needs_refill(now=time.time()):
            await throttle_reserve_on_loop(self.allowance)
        self.allowance.spend()

    async def send_message(self, message: GameMessage) -> None:
        if message.get("type") == "refused":
            metrics.REFUSALS.labels(str(message.get("code"))).inc()
        await self.send(text_data=json.dumps(message, separators=(",", ":")))

    async def close_with(self, code: int, reason: str = "") -> None:
        self.role = None
        # A close reason may hold at most 123 bytes.
        await self.close(code, reason.encode()[:123].decode(errors="ignore") or None)


# Channels' dispatch and websocket_disconnect without their hop to the thread every
# socket's database_sync_to_async shares, per message: this consumer's database calls go
# through its own threads and DatabaseSyncToAsync (ftsite.patches).
apply_channels_direct_dispatch(GameConsumer)
