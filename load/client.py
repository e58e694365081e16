"""The load's websocket clients: one asyncio loop per client process, one socket per player.

A player opens its game's socket with its session cookie, reads the ``hello`` and then
plays: open loop (``rate`` moves a second, each player at a random phase) or closed loop
(the next move as soon as the last was answered). The echo phase sends frames of the same
shape to ``ws/echo/`` on the same servers. Watchers (two-server runs) are second sockets to
a player's game on the *other* server and must see every version of it.

Latency is measured with ``time.perf_counter`` from just before ``send`` to the frame that
answers it (``accepted`` or ``refused`` with the same id; other frames, such as an
``action`` copy of the sender's own move from a server that sends one, or ``dead_end``, are
skipped unparsed). Only sends within the measured window, after the warm-up, count.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import random
import ssl
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from time import perf_counter
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from load.moves import Board, choose
from load.stats import Tally

PROJECT, ECHO = "project", "echo"
ECHO_PATH = "/ws/echo/"
# GameConsumer refuses a socket's messages past its pace (FT_RATE_SOCKET_PACE: 40 at once,
# then 8 a second): the closed loop paces each socket under that instead of changing the
# server under test.
FLOOD_SAFE_RATE = 4.5
CONNECT_AT_ONCE = 32  # handshakes in flight: a burst of 1,000 would time out in the backlog
# Once the players stop, the watchers get up to WATCH_GRACE_MAX seconds to catch up, and
# are given up on sooner when none of them has received anything for WATCH_QUIET seconds.
WATCH_GRACE_MAX, WATCH_QUIET = 30.0, 3.0
COMPACT = (",", ":")


@dataclass(frozen=True)
class Seat:
    """One player: its game, its cookie, its server and (optionally) the watcher's server."""

    server: str  # host:port
    game_id: str
    cookie: str
    watch_server: str | None = None


@dataclass(frozen=True)
class Phase:
    target: str = PROJECT
    rate: float = 1.0  # actions a second per player; 0 = closed loop
    duration: float = 30.0
    warmup: float = 5.0
    timeout: float = 10.0  # an answer later than this is counted lost, the player stops
    seed: int = 0
    cap: float = FLOOD_SAFE_RATE  # the closed loop's most actions a second per socket
    strict: bool = False  # games without undo (a duel's): see load.moves.choose


@dataclass
class Conn:
    """A connected player (and its watcher), with what the client knows of its game."""

    ws: ClientConnection
    board: Board | None = None  # None for echo sockets
    watcher: ClientConnection | None = None
    watch_from: int = 0  # the version in the watcher's hello
    seen: dict[int, float] = field(default_factory=dict)  # version -> when the watcher got it
    sent: dict[int, float] = field(default_factory=dict)  # version -> when its move was sent


class Pacer:
    """When a player sends next: a fixed schedule (open loop) or as soon as answered but
    no faster than ``cap`` (closed loop). Also the measured window."""

    def __init__(self, phase: Phase, t0: float, rng: random.Random) -> None:
        self.open_loop = phase.rate > 0
        self.interval = 1 / phase.rate if self.open_loop else 1 / phase.cap
        self.start = t0 + phase.warmup
        self.end = self.start + phase.duration
        self.next_at = t0 + rng.uniform(0, self.interval)

    async def tick(self, tally: Tally) -> bool:
        """Wait for the next send; False once the phase is over. A late wake-up is the
        client's own loop falling behind: recorded, so a saturated client shows."""
        delay = self.next_at - perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        now = perf_counter()
        if now >= self.end:
            return False
        if delay > 0 and now >= self.start:
            tally.lags.append((now - self.next_at) * 1000)
        return True

    def answered(self, sent_at: float, got: float, tally: Tally) -> None:
        if self.open_loop:
            self.next_at += self.interval
            if self.next_at < got:  # the answer came after the next tick: no burst to catch up
                tally.late += self.in_window(sent_at)
                self.next_at = got
        else:
            self.next_at = max(sent_at + self.interval, got)

    def in_window(self, t: float) -> bool:
        return self.start <= t < self.end


async def open_socket(
    server: str, path: str, cookie: str, tls: ssl.SSLContext | None = None
) -> ClientConnection:
    """A socket to ``path`` on ``server`` (host:port): plain, or through TLS (a proxy in
    front of the servers, trusted by ``tls``)."""
    scheme = "s" if tls is not None else ""
    return await connect(
        f"ws{scheme}://{server}{path}",
        origin=f"http{scheme}://{server}",  # type: ignore[arg-type]  # must be an allowed host
        additional_headers={"Cookie": cookie},
        open_timeout=60,
        close_timeout=2,
        ssl=tls,
    )


async def hello_of(ws: ClientConnection, timeout: float) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        message = json.loads(await ws.recv())
    if message.get("type") != "hello":
        raise RuntimeError(f"no hello: {message.get('type')}")
    return message


def failure(err: BaseException) -> str:
    """A short, countable name of why a connection failed."""
    if isinstance(err, ConnectionClosed):
        return f"closed {err.rcvd.code}" if err.rcvd else "closed"
    if isinstance(err, InvalidStatus):
        return f"http {err.response.status_code}"
    if isinstance(err, TimeoutError):
        return "timeout"
    return type(err).__name__


async def connect_seat(seat: Seat, phase: Phase) -> Conn:
    if phase.target == ECHO:
        return Conn(await open_socket(seat.server, ECHO_PATH, seat.cookie))
    path = f"/ws/games/{seat.game_id}/"
    ws = await open_socket(seat.server, path, seat.cookie)
    conn = Conn(ws, Board.of((await hello_of(ws, phase.timeout))["game"]))
    if seat.watch_server:
        conn.watcher = await open_socket(seat.watch_server, path, seat.cookie)
        conn.watch_from = (await hello_of(conn.watcher, phase.timeout))["game"]["version"]
    return conn


async def connect_all(seats: list[Seat], phase: Phase, tally: Tally) -> list[Conn]:
    slots = asyncio.Semaphore(CONNECT_AT_ONCE)

    async def one(seat: Seat) -> Conn | None:
        async with slots:
            try:
                return await connect_seat(seat, phase)
            except Exception as err:  # noqa: BLE001 - every failure is counted, none raised
                tally.connect_failures[failure(err)] += 1
                return None

    conns = [c for c in await asyncio.gather(*(one(s) for s in seats)) if c is not None]
    tally.connected = len(conns)
    tally.watchers = sum(c.watcher is not None for c in conns)
    return conns


async def answer_to(ws: ClientConnection, token: str) -> str:
    """The next frame carrying ``token`` (the message id); others are skipped unparsed."""
    while True:
        raw = await ws.recv()
        if isinstance(raw, str) and token in raw:
            return raw


async def resync(ws: ClientConnection, conn: Conn, refusal: dict[str, Any], timeout: float) -> None:
    """After a refusal the client's view may be wrong: ask for the state again."""
    if refusal.get("code") == "rate_limited":
        await asyncio.sleep(float(refusal.get("retry_after") or 1))
    assert conn.board is not None
    await ws.send(json.dumps({"type": "sync", "version": conn.board.version}))
    async with asyncio.timeout(timeout):
        while True:
            message = json.loads(await ws.recv())
            if message.get("type") == "state":
                conn.board = Board.of(message["game"])
                return
            if message.get("type") == "synced":
                return


def action_frame(token: str, kind: str, move: str | None, version: int) -> str:
    message: dict[str, Any] = {"type": kind, "id": token}
    if move is not None:
        message["move"] = move
    message["version"] = version
    return json.dumps(message, separators=COMPACT)


async def play(conn: Conn, pacer: Pacer, phase: Phase, tally: Tally, rng: random.Random) -> None:
    """One player's moves until the phase ends (or its socket fails)."""
    ws, nonce, n = conn.ws, uuid.uuid4().hex[:10], 0
    while await pacer.tick(tally):
        assert conn.board is not None
        kind, move = choose(conn.board, rng, strict=phase.strict)
        n += 1
        token = f"~{nonce}.{n}~"  # ids are unique per game forever: a re-sent id is not applied
        sent_at = perf_counter()
        await ws.send(action_frame(token, kind, move, conn.board.version))
        async with asyncio.timeout(phase.timeout):
            raw = await answer_to(ws, token)
        got = perf_counter()
        message = json.loads(raw)
        if message.get("type") == "accepted":
            tally.accepted(sent_at, got, pacer.in_window(sent_at), undo=kind == "undo")
            conn.board.apply(message)
            if conn.watcher is not None:
                conn.sent[message["version"]] = sent_at
            if message.get("status", "active") != "active":
                tally.finished += 1  # the move policy should never get here
                return
        else:
            tally.refusal(str(message.get("code")), pacer.in_window(sent_at))
            await resync(ws, conn, message, phase.timeout)
        pacer.answered(sent_at, got, tally)


async def echo(conn: Conn, pacer: Pacer, phase: Phase, tally: Tally) -> None:
    """The baseline player: frames shaped like moves, answered by the echo consumer."""
    ws, nonce, n = conn.ws, uuid.uuid4().hex[:10], 0
    while await pacer.tick(tally):
        n += 1
        token = f"~{nonce}.{n}~"
        sent_at = perf_counter()
        await ws.send(action_frame(token, "move", "t10-t9x2", n))
        async with asyncio.timeout(phase.timeout):
            await answer_to(ws, token)
        got = perf_counter()
        tally.accepted(sent_at, got, pacer.in_window(sent_at), undo=False)
        pacer.answered(sent_at, got, tally)


async def player(conn: Conn, phase: Phase, t0: float, tally: Tally, rng: random.Random) -> None:
    """A player's whole phase; whatever goes wrong is counted, never raised."""
    pacer = Pacer(phase, t0, rng)
    try:
        if conn.board is None:
            await echo(conn, pacer, phase, tally)
        else:
            await play(conn, pacer, phase, tally, rng)
    except TimeoutError:
        tally.lost += 1
    except ConnectionClosed as err:
        tally.dropped[failure(err)] += 1
    except Exception as err:  # noqa: BLE001 - a client bug must show in the report
        tally.errors[f"{type(err).__name__}: {err}"[:120]] += 1


async def watch(conn: Conn) -> None:
    """Note when each version of the game reaches the watcher (``action`` frames)."""
    assert conn.watcher is not None
    async for raw in conn.watcher:
        if isinstance(raw, str) and '"action"' in raw:
            message = json.loads(raw)
            if message.get("type") == "action":
                conn.seen.setdefault(message["version"], perf_counter())


async def settle_watchers(conns: list[Conn], tally: Tally, start: float) -> None:
    """Give the watchers time to get the last versions (until all have, or none has got
    anything for a while), then count what they missed: a *gap* is a version skipped while
    a later one arrived (it never will); *unarrived* ones are after the last one seen."""
    watched = [c for c in conns if c.watcher is not None and c.board is not None]
    deadline, quiet_since, count = perf_counter() + WATCH_GRACE_MAX, perf_counter(), -1
    while perf_counter() < deadline and perf_counter() - quiet_since < WATCH_QUIET:
        if all(_caught_up(c) for c in watched):
            break
        if (now_seen := sum(len(c.seen) for c in watched)) != count:
            count, quiet_since = now_seen, perf_counter()
        await asyncio.sleep(0.05)
    for c in watched:
        assert c.board is not None
        expected = range(c.watch_from + 1, c.board.version + 1)
        last = max(c.seen, default=c.watch_from)
        tally.watched += len(expected)
        tally.missed += sum(v not in c.seen for v in expected if v < last)
        tally.unarrived += sum(v not in c.seen for v in expected if v > last)
        tally.fanout.extend(
            (c.seen[v] - at) * 1000 for v, at in c.sent.items() if at >= start and v in c.seen
        )


def _caught_up(conn: Conn) -> bool:
    assert conn.board is not None
    return conn.board.version <= conn.watch_from or conn.board.version in conn.seen


async def close_all(conns: list[Conn]) -> None:
    """Close every socket, a few at a time: the phase measures moves, not a storm of
    disconnects (each one costs the server Redis calls: group_discard, peer.left)."""
    slots = asyncio.Semaphore(CONNECT_AT_ONCE)

    async def close(ws: ClientConnection) -> None:
        async with slots:
            await ws.close()

    sockets = [c.ws for c in conns] + [c.watcher for c in conns if c.watcher is not None]
    await asyncio.gather(*(close(ws) for ws in sockets), return_exceptions=True)


async def run_phase(
    seats: list[Seat], phase: Phase, ready: Callable[[], Awaitable[None]] | None = None
) -> Tally:
    """Connect every seat, wait for ``ready`` (the other client processes), play, report."""
    tally = Tally(players=len(seats), seconds=phase.duration)
    conns = await connect_all(seats, phase, tally)
    if ready is not None:
        await ready()
    t0 = perf_counter() + 0.5
    rng = random.Random(phase.seed)
    watchers = [asyncio.create_task(watch(c)) for c in conns if c.watcher is not None]
    players = [player(c, phase, t0, tally, random.Random(rng.random())) for c in conns]
    await asyncio.gather(*players)
    await settle_watchers(conns, tally, t0 + phase.warmup)
    for task in watchers:
        task.cancel()
    await asyncio.gather(*watchers, return_exceptions=True)
    await close_all(conns)
    return tally


#: What plays a phase for a list of seats (:func:`run_phase`, or another kind of player's,
#: such as load.duels' pairs of players): module-level, so a client process can be given it.
Runner = Callable[[list[Any], Phase, Callable[[], Awaitable[None]] | None], Awaitable[Tally]]


def _child(seats: list[Any], phase: Phase, barrier: Any, pipe: Any, runner: Runner) -> None:
    async def ready() -> None:
        await asyncio.to_thread(barrier.wait, 600)

    pipe.send(asyncio.run(runner(seats, phase, ready)))
    pipe.close()


def run(
    seats: list[Any],
    phase: Phase,
    processes: int = 1,
    on_start: Callable[[], object] | None = None,
    runner: Runner = run_phase,
) -> Tally:
    """Run ``phase`` for ``seats`` in this process, or spread over ``processes`` client
    processes (each its own loop and core) whose figures are merged. ``on_start`` is called
    once every socket is connected, as the players start (a profiler leaves out the
    handshakes that way). ``runner`` plays the seats (:func:`run_phase` by default)."""
    if processes <= 1:

        async def ready() -> None:
            if on_start is not None:
                on_start()

        return asyncio.run(runner(seats, phase, ready))
    context = multiprocessing.get_context("spawn")  # no forked copy of Django's connections
    barrier = context.Barrier(processes + 1)  # this process waits with them, for on_start
    children = []
    for k in range(processes):
        receiving, sending = context.Pipe(duplex=False)
        part = replace(phase, seed=phase.seed * 1000 + k)
        child = context.Process(
            target=_child, args=(seats[k::processes], part, barrier, sending, runner)
        )
        child.start()
        sending.close()
        children.append((child, receiving))
    barrier.wait(600)
    if on_start is not None:
        on_start()
    total = Tally(seconds=phase.duration)
    for child, receiving in children:
        try:
            total.merge(receiving.recv())
        except EOFError:
            raise RuntimeError(f"client process {child.pid} died (exit {child.exitcode})") from None
        child.join()
    return total
