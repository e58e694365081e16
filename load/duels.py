"""Duels under load (issue 40): N duels (2N players) on two daphne processes, each
player making one legal move a second on its own game socket, the opponent hearing each
move's counts on the duel socket (docs/protocol.md, "The duel socket").

    python -m load.duels                                   # 500 duels, 30 s, 1 repeat
    python -m load.duels --duels 100 250 500 --repeat 3 --json test-results/load/duels.json

Every duel is made through the services (``duel_challenge_create``, then
``duel_challenge_accept``: both seats on one fresh deal, started at one instant), its
players real users with real session cookies (``load.players.session_cookie``). Seat 0
plays on the first server and seat 1 on the second, so every opponent's update crosses
channels_redis: the mover's process commits the move and sends the progress to the duel's
group, the other process hands it to the opponent's duel socket.

Measured per row (and min/median/max across ``--repeat``):

* **ack**: the mover's send to its ``accepted`` (the same figure as ``load.run``);
* **progress**: the mover's send to the ``progress`` of that version at the *opponent's*
  duel socket, on the other process (``fanout`` in the raw figures);
* the echo baseline with as many clients (2N) on the same two servers in the same run;
* **durable / acked**: the games' committed versions against the acks (must be equal),
  and progress versions the opponents missed (gaps + unarrived, must be 0).

A duel's game has no undo, so a player never takes a move back (``Phase.strict``); its
policy keeps the last card of the stock like ``load.run``'s, so a game rarely ends.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from time import perf_counter
from typing import Any

from load import client, stack
from load.moves import Board
from load.stats import Tally, spread, summary

DATABASE_URL = "postgres://postgres@127.0.0.1:5432/fortythieves_duels"
PREFIX = "duel-"
TIME_CONTROL = 900  # the longest offered: a run's repeats fit in one duel's clock

# On top of load.stack's raised limits. No solver certification of each duel's deal
# (playing a deal costs the same certified or not; certifying 500 costs minutes of CPU);
# no countdown (the duels are made in this process, which waits for nobody's table); the
# per-player limit on duel actions raised (every repeat of a run makes duels anew); and a
# grace period longer than the time between making the duels and opening their sockets,
# or players not connected yet would forfeit while the others are still being made.
DUEL_ENV = {
    "FT_DAILY_CERTIFY_SECONDS": "0",
    "FT_DUEL_COUNTDOWN_SECONDS": "0",
    "FT_RATE_DUELS": "1000000/10min",
    "FT_DUEL_GRACE_SECONDS": "600",
}


@dataclass(frozen=True)
class DuelPlayer:
    """One seat of a duel: its server, its game and duel, its session cookie."""

    server: str  # host:port
    duel_id: str
    seat: int
    game_id: str
    cookie: str


Pair = tuple[DuelPlayer, DuelPlayer]


def users(count: int) -> list[Any]:
    """``count`` users (kept between runs, named ``duel-00001`` ...)."""
    from games.models import User

    return [User.objects.get_or_create(username=f"{PREFIX}{n:05d}")[0] for n in range(1, count + 1)]


def end_running(player_ids: list[int]) -> int:
    """Let the clock end the running duels of these players, as at their flag
    (``duel_tick``): a player in a running duel may not start another (``in_duel``)."""
    from games import services
    from games.duels.models import Duel

    running = Duel.objects.filter(state=Duel.State.RUNNING, seats__player_id__in=player_ids)
    ended = 0
    for duel_id, ends_at in running.values_list("pk", "ends_at").distinct():
        services.duel_tick(duel_id=duel_id, now=ends_at)
        ended += 1
    return ended


def make_duels(count: int, servers: list[str]) -> list[Pair]:
    """``count`` duels through the services, seat 0 on ``servers[0]``, seat 1 on
    ``servers[1]``, each between two of :func:`users`; earlier runs' duels ended first."""
    from games import services
    from games.duels.models import DuelSeat
    from load.players import session_cookie

    people = users(2 * count)
    end_running([u.pk for u in people])
    pairs = []
    for a, b in zip(people[0::2], people[1::2], strict=True):
        _, token = services.duel_challenge_create(user=a, time_control=TIME_CONTROL)
        duel = services.duel_challenge_accept(user=b, token=token)
        seats = {s.seat: s for s in DuelSeat.objects.filter(duel=duel)}
        pairs.append(
            tuple(
                DuelPlayer(servers[k], str(duel.pk), k, str(seats[k].game_id), session_cookie(u))
                for k, u in ((0, a), (1, b))
            )
        )
    return pairs  # type: ignore[return-value]  # each a tuple of two


def same_deals(pairs: list[Pair]) -> bool:
    """Whether the two games of every duel are on one deal, and no two duels share one."""
    from games.models import Game

    deal_of = dict(
        Game.objects.filter(pk__in=[p.game_id for pair in pairs for p in pair]).values_list(
            "pk", "deal_id"
        )
    )
    deals = [{deal_of[uuid.UUID(p.game_id)] for p in pair} for pair in pairs]
    return all(len(d) == 1 for d in deals) and len(set().union(*deals)) == len(pairs)


async def connect_player(player: DuelPlayer, timeout: float) -> tuple[client.Conn, Any]:
    """The player's game socket (its hello read) and duel socket (its ``duel`` read)."""
    ws = await client.open_socket(player.server, f"/ws/games/{player.game_id}/", player.cookie)
    conn = client.Conn(ws, Board.of((await client.hello_of(ws, timeout))["game"]))
    duel = await client.open_socket(player.server, f"/ws/duels/{player.duel_id}/", player.cookie)
    async with asyncio.timeout(timeout):
        first = json.loads(await duel.recv())
    if first.get("type") != "duel" or first["duel"]["state"] != "running":
        raise RuntimeError(f"no running duel: {first.get('type')}")
    conn.watch_from = conn.board.version if conn.board else 0
    return conn, duel


async def connect_pairs(
    pairs: list[Pair], phase: client.Phase, tally: Tally
) -> list[tuple[client.Conn, client.Conn]]:
    """Both players of each duel; each one's ``watcher`` is the *opponent's* duel socket
    (on the other server): where that player's progress must arrive."""
    slots = asyncio.Semaphore(client.CONNECT_AT_ONCE // 2)

    async def one(pair: Pair) -> tuple[client.Conn, client.Conn] | None:
        async with slots:
            try:
                (a, a_duel), (b, b_duel) = [await connect_player(p, phase.timeout) for p in pair]
            except Exception as err:  # noqa: BLE001 - every failure is counted, none raised
                tally.connect_failures[client.failure(err)] += 1
                return None
        a.watcher, b.watcher = b_duel, a_duel
        return a, b

    found = [c for c in await asyncio.gather(*(one(p) for p in pairs)) if c is not None]
    tally.connected = 2 * len(found)
    tally.watchers = 2 * len(found)
    return found


async def hear_progress(duel_socket: Any, conns: dict[int, client.Conn]) -> None:
    """Read one duel socket: note when each ``progress`` of the seats in ``conns`` (the
    opponent's, for a player's socket) arrived, by version."""
    async for raw in duel_socket:
        if isinstance(raw, str) and '"progress"' in raw:
            message = json.loads(raw)
            conn = conns.get(message.get("seat"))
            if message.get("type") == "progress" and conn is not None:
                conn.seen.setdefault(int(message["version"]), perf_counter())


async def run_duel_phase(
    pairs: list[Pair], phase: client.Phase, ready: Callable[[], Awaitable[None]] | None = None
) -> Tally:
    """:func:`load.client.run_phase` for duels: connect both players of every pair, play,
    then give the opponents' duel sockets time to hear the last moves and count them."""
    tally = Tally(players=2 * len(pairs), seconds=phase.duration)
    duels = await connect_pairs(pairs, phase, tally)
    if ready is not None:
        await ready()
    t0 = perf_counter() + 0.5
    rng = random.Random(phase.seed)
    listeners = [
        asyncio.create_task(hear_progress(mover.watcher, {seat: mover}))
        for pair in duels
        for seat, mover in enumerate(pair)
    ]
    conns = [c for pair in duels for c in pair]
    rngs = [random.Random(rng.random()) for _ in conns]
    playing = (client.player(c, phase, t0, tally, r) for c, r in zip(conns, rngs, strict=True))
    await asyncio.gather(*playing)
    await client.settle_watchers(conns, tally, t0 + phase.warmup)
    for task in listeners:
        task.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)
    await client.close_all(conns)
    return tally


#: The servers' channel layer (ftsite/channel_layer.py): FT_CHANNEL_LAYER_BATCH for each.
LAYERS = {"pumped": "200", "original": "0"}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m load.duels",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add = parser.add_argument
    add("--duels", type=int, nargs="+", default=[500], help="one row per count (2 players each)")
    add("--rate", type=float, default=1.0, help="moves a second per player")
    add("--duration", type=float, default=30.0, help="measured seconds per phase")
    add("--warmup", type=float, default=5.0, help="seconds played before measuring")
    add("--timeout", type=float, default=10.0, help="an answer later than this is lost")
    add("--repeat", type=int, default=1, help="runs of every row (min/median/max reported)")
    add("--no-echo", action="store_true", help="skip the echo baseline")
    add(
        "--layers", nargs="+", choices=list(LAYERS), default=["pumped"],
        help="channel layers to run each row on, in turn (the servers restarted for each)",
    )  # fmt: skip
    add("--client-procs", type=int, default=1, help="client processes (one loop each)")
    add("--pause", type=float, default=3.0, help="seconds of rest between phases")
    add("--profile", nargs="?", const="gil", choices=list(stack.PROFILE_MODES), help="py-spy")
    add("--cprofile", action="store_true", help="both servers under cProfile (no py-spy)")
    add("--fresh-db", action="store_true", help="drop and re-create the run's database first")
    add("--database-url", default=DATABASE_URL, help="the run's own PostgreSQL database")
    add("--redis-url", default=stack.REDIS_URL, help="the run's own Redis database (flushed)")
    add("--json", type=Path, help="write the raw figures here")
    return parser.parse_args(argv)


def duel_phase(
    args: argparse.Namespace, servers: list[Any], pairs: list[Pair], phase: client.Phase, tag: str
) -> dict[str, Any]:
    """The duels' sockets for one phase, with the durability check and the servers' CPU."""
    from load.players import versions
    from load.run import phase_figures, server_cpu_seconds

    ids = [p.game_id for pair in pairs for p in pair]
    before, cpu_before = versions(ids), server_cpu_seconds(servers)
    out = stack.RESULTS / f"profile-duels-{tag}-{args.profile}.speedscope.json"
    profilers: list[Any] = []

    def profile() -> None:
        seconds = phase.warmup + phase.duration
        profilers.append(stack.start_profile(servers[0].process.pid, seconds, out, args.profile))

    tally = client.run(
        pairs, phase, args.client_procs, profile if args.profile else None, run_duel_phase
    )
    return phase_figures(
        tally, durable=versions(ids) - before, servers=servers, cpu_before=cpu_before,
        profilers=profilers, out=out,
    )  # fmt: skip


def measure_row(
    args: argparse.Namespace, servers: list[Any], count: int, repeat: int
) -> dict[str, Any]:
    """One row: ``count`` new duels played, then the echo baseline with as many clients
    (every player's socket) on the same two servers; the duels are ended after."""
    addresses = [f"127.0.0.1:{s.port}" for s in servers]
    made = perf_counter()
    pairs = make_duels(count, addresses)
    row: dict[str, Any] = {"duels": count, "players": 2 * count, "repeat": repeat + 1}
    row["made_s"] = round(perf_counter() - made, 1)
    row["same_deals"] = same_deals(pairs)
    phase = client.Phase(
        rate=args.rate,
        duration=args.duration,
        warmup=args.warmup,
        timeout=args.timeout,
        seed=repeat * 100_000 + count,
        strict=True,
    )
    marks = stack.log_marks(servers)
    row["load_before"] = os.getloadavg()
    row["project"] = duel_phase(args, servers, pairs, phase, f"{count}d-r{repeat + 1}")
    time.sleep(args.pause)
    row["project"]["server_log"] = stack.log_signs(servers, marks)
    if not args.no_echo:
        marks = stack.log_marks(servers)
        seats = [client.Seat(p.server, p.game_id, p.cookie) for pair in pairs for p in pair]
        echo = client.run(seats, replace(phase, target=client.ECHO), args.client_procs)
        row["echo"] = summary(echo)
        time.sleep(args.pause)
        row["echo"]["server_log"] = stack.log_signs(servers, marks)
    row["load_after"] = os.getloadavg()
    return row  # its duels run on: the next row's make_duels ends them (the same users)


def aggregate(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Min/median/max across repeats of each row's headline figures (a row a layer and
    count)."""
    out = []
    for layer, count in dict.fromkeys((r["layer"], r["duels"]) for r in rows):
        mine = [r for r in rows if r["duels"] == count and r["layer"] == layer]
        entry: dict[str, Any] = {"layer": layer, "duels": count, "runs": len(mine)}
        for side in ("project", "echo"):
            if side in mine[0]:
                entry[side] = {
                    k: spread([r[side][k] for r in mine])
                    for k in ("per_s", "p50_ms", "p99_ms", "fanout_p50_ms", "fanout_p99_ms")
                }
        out.append(entry)
    return out


def table(report: dict[str, Any]) -> str:
    """The markdown table: medians with [min-max] when repeated."""
    from load.tables import figure

    lines = [
        "| layer | duels (players) | moves/s | ack p50 / p99 ms"
        " | opponent's progress p50 / p99 ms | echo p50 / p99 ms |",
        "|---|---|---|---|---|---|",
    ]
    for e in report["aggregate"]:
        p, echo = e["project"], e.get("echo")
        echo_cell = "-" if echo is None else f"{figure(echo['p50_ms'])} / {figure(echo['p99_ms'])}"
        lines.append(
            f"| {e['layer']} | {e['duels']} ({2 * e['duels']}) | {figure(p['per_s'])}"
            f" | {figure(p['p50_ms'])}"
            f" / {figure(p['p99_ms'])} | {figure(p['fanout_p50_ms'])}"
            f" / {figure(p['fanout_p99_ms'])} | {echo_cell} |"
        )
    return "\n".join(lines)


def progress(row: dict[str, Any]) -> str:
    p = row["project"]
    text = (
        f"[{row['layer']}: {row['duels']} duels run {row['repeat']}]"
        f" {p['per_s']}/s ack p50 {p['p50_ms']}"
        f" p99 {p['p99_ms']} ms; progress p50 {p['fanout_p50_ms']} p99 {p['fanout_p99_ms']} ms;"
        f" durable {p['durable']}/{p['acked_total']}, missed {p['missed_versions']}"
        f"+{p['unarrived_versions']}, refused {p['refused']}, lost {p['lost']},"
        f" dropped {p['dropped']}, client lag p99 {p['client_lag_p99_ms']} ms,"
        f" server {p['server_cpu_ms_per_action']} ms CPU/move, log {p['server_log']}"
    )
    if "echo" in row:
        e = row["echo"]
        text += f"; echo {e['per_s']}/s p50 {e['p50_ms']} p99 {e['p99_ms']} ms"
    return text + f"; load {row['load_before'][0]:.2f} -> {row['load_after'][0]:.2f}"


def cprofiled_servers(env: dict[str, str]) -> list[Any]:
    """Two daphne processes under :mod:`load.cprofile_daphne`; each writes its profile
    (every thread) to ``test-results/load/cprofile-duels-PORT.pstats`` when stopped."""
    import sys

    from tests.support.servers import free_port, start_server

    stack.RESULTS.mkdir(parents=True, exist_ok=True)
    servers = []
    for _ in range(2):
        port = free_port()
        out = stack.RESULTS / f"cprofile-duels-{port}.pstats"
        command = [
            sys.executable, "-m", "load.cprofile_daphne", str(out),
            "-b", "127.0.0.1", "-p", str(port), stack.APP,
        ]  # fmt: skip
        servers.append(start_server(env, stack.RESULTS, port=port, command=command))
    return servers


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    env = stack.load_env(database_url=args.database_url, redis_url=args.redis_url, **DUEL_ENV)
    stack.stack_up(env, fresh=args.fresh_db)
    started = datetime.now(UTC).isoformat(timespec="seconds")
    load_before = os.getloadavg()
    rows: list[dict[str, Any]] = []
    for repeat in range(args.repeat):
        for layer in args.layers:
            layer_env = {**env, "FT_CHANNEL_LAYER_BATCH": LAYERS[layer]}
            servers = (
                cprofiled_servers(layer_env) if args.cprofile else stack.start_servers(layer_env, 2)
            )
            try:
                for count in args.duels:
                    rows.append({"layer": layer, **measure_row(args, servers, count, repeat)})
                    print(progress(rows[-1]), flush=True)
            finally:
                stack.stop_all(servers)
    end_running([u.pk for u in users(2 * max(args.duels))])
    report = {
        "started": started,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "load_average_before": load_before,
        "load_average_after": os.getloadavg(),
        "args": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
        "rows": rows,
        "aggregate": aggregate(rows),
    }
    print(table(report))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=1))
    return report


if __name__ == "__main__":
    main()
