"""The fault suite's players: websocket clients that survive a server going away.

Unlike :mod:`load.client` (which counts a dropped socket and stops that player), a player
here behaves as the board's front end must: on a dropped socket, an answer that never
comes, or a refused connection it reconnects (to the next server when its own refuses),
sends ``sync`` with the last version it has, and re-sends its unanswered action as the
*same* frame (same message id, same expected version). The server must answer it as a
``duplicate`` if it had applied it, or apply it now, never both (docs/protocol.md).

Every ``accepted`` answer is written down (game, message id, version, duplicate flag) so
the suite can check each one against ``games_action`` afterwards (:mod:`load.fault_audit`),
and anything the server says that contradicts what it acknowledged before (a version
behind an acknowledged one, an action the client never sent) is kept as an anomaly.
"""

from __future__ import annotations

import asyncio
import json
import random
import ssl
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import WebSocketException

from load.client import CONNECT_AT_ONCE, action_frame, failure, hello_of, open_socket
from load.moves import Board, choose

# Socket trouble: the player reconnects. (A refusal is an answer, not trouble.)
TROUBLE = (WebSocketException, OSError, TimeoutError, EOFError)
RETRY_LIMIT = 20  # re-sends of one action answered server_error / rate_limited
BACKOFF_MAX = 2.0  # seconds between connection attempts, at most


@dataclass(frozen=True)
class FaultSeat:
    """One player: its game, its session cookie and the servers it may use, its own first."""

    game_id: str
    cookie: str
    servers: tuple[str, ...]  # host:port
    tls: ssl.SSLContext | None = None  # through the TLS proxy (one address), trusting it


@dataclass(frozen=True)
class Plan:
    duration: float  # seconds of play; an unanswered action is still resolved after it
    rate: float = 1.0  # actions a second
    timeout: float = 15.0  # an answer later than this: the socket is presumed dead
    give_up: float = 90.0  # seconds of failed reconnects before the player stops
    ranked: bool = False  # no undo; the game ends by a resign at ``resign_at``


@dataclass(frozen=True)
class Ack:
    """One ``accepted`` answer as the client saw it."""

    game_id: str
    client_id: str
    version: int
    duplicate: bool
    at: float  # perf_counter when it arrived
    recheck: bool = False  # the check after play (Player.recheck), not play itself


@dataclass
class PlayerLog:
    """What one player saw."""

    game_id: str
    acks: list[Ack] = field(default_factory=list)
    sent: int = 0  # distinct actions sent
    resent: int = 0  # frames sent again (after a reconnect, a server_error, a rate limit)
    reconnects: int = 0
    reconnect_s: list[float] = field(default_factory=list)  # trouble noticed -> hello again
    drops: Counter[str] = field(default_factory=Counter)  # why the socket was given up
    connect_failures: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    stuck: int = 0  # answers that never came on a socket still open
    anomalies: list[str] = field(default_factory=list)
    finished: str | None = None  # the game's final status, if it ended
    gave_up: str | None = None  # why the player stopped before its end
    unresolved: str | None = None  # an action whose fate the player never learned
    rechecked: bool = False  # the last action was answered as a duplicate after play
    recheck_failures: Counter[str] = field(default_factory=Counter)  # fresh sockets refused


@dataclass
class Pending:
    token: str
    frame: str
    version: int  # the version the action was sent at
    kind: str


class GaveUp(Exception):
    pass


class Player:
    """One player's whole run (see the module's docstring)."""

    def __init__(
        self, seat: FaultSeat, plan: Plan, rng: random.Random, resign_after: float | None
    ) -> None:
        self.seat, self.plan, self.rng = seat, plan, rng
        self.log = PlayerLog(seat.game_id)
        self.interval = 1 / plan.rate
        self.resign_after = resign_after
        self.begin(perf_counter())
        self.server = 0  # index into seat.servers
        self.ws: ClientConnection | None = None
        self.board: Board | None = None
        self.pending: Pending | None = None
        self.nonce, self.n = uuid.uuid4().hex[:10], 0
        self.last: tuple[Pending, int] | None = None  # the last action acknowledged, its version
        self.trouble_at: float | None = None

    async def recheck(self) -> None:
        """After play, on a fresh socket to every live server: the game must be at the
        last version this client saw acknowledged, and its last action, sent again as the
        same frame, must be answered as a duplicate at that version (the duplicate path on
        every process, whether or not a fault landed between a commit and its answer)."""
        if self.last is None or self.log.gave_up or self.board is None:
            return
        answered = [await self.recheck_on(server) for server in self.seat.servers]
        self.log.rechecked = any(answered) and None not in answered

    async def recheck_on(self, server: str) -> bool | None:
        """One server's part of :meth:`recheck`: True if it answered right, False if it
        is gone (the fault's victim), None if it answered wrong. A socket the server
        closes ("try again", 4500, while a service it needs is still coming back) is tried
        again, as a client does, and counted in ``recheck_failures``."""
        assert self.last is not None and self.board is not None
        for _ in range(5):
            try:
                shown, answer = await self.ask_again(server)
                break
            except ConnectionRefusedError:
                return False  # the fault's victim, dead by design
            except (*TROUBLE, RuntimeError) as err:
                self.log.recheck_failures[failure(err)] += 1
                await asyncio.sleep(0.5)
        else:
            self.anomaly(f"no answer on a fresh socket to {server} after play, in 5 tries")
            return None
        return self.judge_again(server, shown, answer)

    async def ask_again(self, server: str) -> tuple[int, dict[str, Any]]:
        """The version a fresh socket's hello shows, and the answer to the last action
        acknowledged, sent again as the same frame."""
        assert self.last is not None
        action, _ = self.last
        ws, hello = await self.open(server)
        try:
            shown = int(hello["game"]["version"])
            await ws.send(action.frame)
            async with asyncio.timeout(self.plan.timeout):
                return shown, await self.answer(action.token, ws)
        finally:
            await ws.close()

    def judge_again(self, server: str, shown: int, answer: dict[str, Any]) -> bool | None:
        assert self.last is not None and self.board is not None
        action, version = self.last
        where = f"{server}, after play,"
        if shown != self.board.version:
            self.anomaly(f"{where} says hello at {shown}; acknowledged {self.board.version}")
        elif answer.get("code") == "stale_version" and int(answer["version"]) < version:
            self.anomaly(
                f"{where} refused {action.token} (acknowledged at {version}) as stale_version:"
                f" its live entry is at {answer['version']}, the log at {shown}"
                " (stale live entry, games.runtime.live)"
            )
        elif not answer.get("duplicate") or int(answer.get("version", -1)) != version:
            self.anomaly(f"{where} answered {action.token} (acknowledged at {version}): {answer}")
        else:
            self.log.acks.append(Ack(self.seat.game_id, action.token, version, True, 0.0, True))
            return True
        return None

    def begin(self, t0: float) -> None:
        """Play from ``t0``: each player at a random phase of its schedule."""
        self.end = t0 + self.plan.duration
        self.next_at = t0 + self.rng.uniform(0, self.interval)
        self.resign_at = None if self.resign_after is None else t0 + self.resign_after

    async def run(self) -> PlayerLog:
        while self.log.gave_up is None:
            try:
                if self.ws is None:
                    await self.connect()
                if self.pending is not None:
                    await self.resolve()
                if self.log.finished or perf_counter() >= self.end:
                    break
                await self.next_action()
            except GaveUp as err:
                self.log.gave_up = str(err)
                break
            except TROUBLE as err:
                await self.drop(err)
        if self.pending is not None:
            self.log.unresolved = self.pending.token
        if self.ws is not None:
            await self.ws.close()
        return self.log

    async def drop(self, err: BaseException) -> None:
        """Give up the socket; the loop reconnects and re-sends what is pending."""
        if isinstance(err, TimeoutError) and self.ws is not None and self.pending is not None:
            self.log.stuck += 1  # open, but the answer never came
        self.log.drops[failure(err)] += 1
        self.trouble_at = perf_counter()
        if self.ws is not None:
            ws, self.ws = self.ws, None
            ws.transport.abort()  # no closing handshake with a server that may be gone

    async def open(self, server: str) -> tuple[ClientConnection, dict[str, Any]]:
        """A socket to the game on ``server`` and its ``hello``; raises on any failure
        (``RuntimeError``: the server closed it instead of saying hello)."""
        async with asyncio.timeout(self.plan.timeout):
            ws = await open_socket(
                server, f"/ws/games/{self.seat.game_id}/", self.seat.cookie, self.seat.tls
            )
        try:
            return ws, await hello_of(ws, self.plan.timeout)
        except BaseException:
            ws.transport.abort()
            raise

    async def connect(self) -> None:
        """Open the game's socket (the next server after a refusal), then catch up."""
        started, attempt = perf_counter(), 0
        while True:
            try:
                ws, hello = await self.open(self.seat.servers[self.server % len(self.seat.servers)])
                break
            except (*TROUBLE, RuntimeError) as err:
                self.log.connect_failures[failure(err)] += 1
                self.server += 1  # both servers share everything: try the other one
                attempt += 1
                if perf_counter() - started > self.plan.give_up:
                    raise GaveUp(f"no connection in {self.plan.give_up:.0f} s: {err}") from None
                await asyncio.sleep(min(BACKOFF_MAX, 0.1 * 2**attempt) * self.rng.uniform(0.5, 1))
        self.ws = ws
        if self.board is None:
            self.board = Board.of(hello["game"])
            return
        self.log.reconnects += 1
        if self.trouble_at is not None:
            self.log.reconnect_s.append(perf_counter() - self.trouble_at)
        await self.sync(after_reconnect=True)

    async def sync(self, *, after_reconnect: bool = False) -> None:
        """``sync`` with the last version this client has; check what the server says."""
        assert self.ws is not None and self.board is not None
        mine = self.board.version
        await self.ws.send(json.dumps({"type": "sync", "version": mine}))
        async with asyncio.timeout(self.plan.timeout):
            while True:
                message = json.loads(await self.ws.recv())
                if message.get("type") == "synced":
                    theirs = int(message["version"])
                    break
                if message.get("type") == "state":
                    self.board = Board.of(message["game"])
                    theirs = self.board.version
                    self.note_status(message["game"].get("status"))
                    break
        if after_reconnect:
            self.check_resume(mine, theirs)

    def check_resume(self, mine: int, theirs: int) -> None:
        """The server must hold every acknowledged action, and at most the one pending."""
        if theirs < mine:
            self.anomaly(f"resumed at version {theirs}, behind the acknowledged {mine}")
        elif theirs > mine + (self.pending is not None):
            pending = self.pending.token if self.pending else None
            self.anomaly(f"resumed at version {theirs}; acknowledged {mine}, pending {pending}")

    def anomaly(self, text: str) -> None:
        self.log.anomalies.append(f"game {self.seat.game_id}: {text}")

    def note_status(self, status: object) -> None:
        if isinstance(status, str) and status != "active":
            self.log.finished = status

    async def next_action(self) -> None:
        """Wait for this player's next tick, then send one action and resolve it."""
        delay = self.next_at - perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        self.next_at = max(self.next_at + self.interval, perf_counter())
        if perf_counter() >= self.end:
            return
        assert self.ws is not None and self.board is not None
        kind, move = self.choose()
        self.n += 1
        token = f"~{self.nonce}.{self.n}~"
        frame = action_frame(token, kind, move, self.board.version)
        self.pending = Pending(token, frame, self.board.version, kind)
        self.log.sent += 1
        await self.ws.send(frame)
        await self.resolve(sent=True)

    def choose(self) -> tuple[str, str | None]:
        assert self.board is not None
        if self.resign_at is not None and perf_counter() >= self.resign_at:
            return "resign", None
        kind, move = choose(self.board, self.rng)
        if kind == "undo" and self.plan.ranked:  # ranked games have no undo: end it instead
            return "resign", None
        return kind, move

    async def resolve(self, *, sent: bool = False) -> None:
        """Get the pending action's answer (re-sending its frame first unless just sent)."""
        assert self.pending is not None
        for _ in range(RETRY_LIMIT):
            assert self.ws is not None
            if not sent:
                self.log.resent += 1
                await self.ws.send(self.pending.frame)
            sent = False
            async with asyncio.timeout(self.plan.timeout):
                message = await self.answer(self.pending.token)
            if message.get("type") == "accepted":
                await self.accepted(message)
                return
            retry = await self.refused(message)
            if not retry:
                return
        self.anomaly(f"{self.pending.token} still not applied after {RETRY_LIMIT} tries")
        self.pending = None
        await self.sync()

    async def answer(self, token: str, ws: ClientConnection | None = None) -> dict[str, Any]:
        """The next frame carrying ``token`` on ``ws`` (the player's socket by default)."""
        ws = ws or self.ws
        assert ws is not None
        while True:
            raw = await ws.recv()
            if isinstance(raw, str) and token in raw:
                return json.loads(raw)

    async def accepted(self, message: dict[str, Any]) -> None:
        assert self.pending is not None and self.board is not None
        version, duplicate = int(message["version"]), bool(message.get("duplicate"))
        token, expected = self.pending.token, self.pending.version + 1
        self.log.acks.append(Ack(self.seat.game_id, token, version, duplicate, perf_counter()))
        self.last, self.pending = (self.pending, version), None
        if version != expected:
            self.anomaly(f"{token} sent at {expected - 1} was accepted at version {version}")
        if duplicate:
            # Applied by an earlier try (a lost answer): the answer has no changes.
            if self.board.version != version:
                await self.sync()
        else:
            if self.board.version != version - 1:
                was = self.board.version
                self.anomaly(f"{token} accepted at {version}, the client was at {was}")
            self.board.apply(message)
        self.note_status(message.get("status"))

    async def refused(self, message: dict[str, Any]) -> bool:
        """Handle a refusal of the pending action; True to re-send the same frame."""
        assert self.pending is not None
        code = str(message.get("code"))
        self.log.refused[code] += 1
        if code == "server_error":  # "try again": the same id, so it applies at most once
            await asyncio.sleep(0.5)
            return True
        if code == "rate_limited":
            await asyncio.sleep(float(message.get("retry_after") or 1))
            return True
        # Nothing was applied: forget the action and take the server's view.
        self.anomaly(f"{self.pending.token} refused: {code} {message.get('reason', '')[:80]}")
        self.pending = None
        if code == "game_over":
            self.log.finished = self.log.finished or "over"
        await self.sync()
        return False


Inject = Callable[[], Awaitable[None]]


async def play_all(
    seats: list[FaultSeat], plan: Plan, inject: Inject, resign_after: list[float | None]
) -> tuple[list[PlayerLog], float]:
    """Connect every player, then play while ``inject`` (started with the play) breaks
    something; returns the players' logs and when play began (perf_counter)."""
    rng = random.Random(0)
    players = [
        Player(seat, plan, random.Random(rng.random()), resign)
        for seat, resign in zip(seats, resign_after, strict=True)
    ]
    slots = asyncio.Semaphore(CONNECT_AT_ONCE)

    async def connect(player: Player) -> None:
        async with slots:
            try:
                await player.connect()
            except GaveUp as err:
                player.log.gave_up = str(err)

    await asyncio.gather(*(connect(p) for p in players))
    t0 = perf_counter()
    for player in players:
        player.begin(t0)
    fault = asyncio.create_task(inject())
    logs = await asyncio.gather(*(p.run() for p in players))
    await fault  # its own errors are the suite's to raise

    async def recheck(player: Player) -> None:
        async with slots:
            try:
                await player.recheck()
            except TROUBLE as err:
                player.anomaly(f"checking again after play failed: {failure(err)}")

    await asyncio.gather(*(recheck(p) for p in players))
    return list(logs), t0
