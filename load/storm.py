"""A hint storm: do other players' moves stay quick while some ask the solver for all it
gives (issue 11: their p99 within 2x of the quiet figure)?

On one daphne process (the stack of ``load.run``), ``--players`` play at 1 move/s twice,
each phase measured the same way:

* ``quiet``: nothing else;
* ``storm``: at the same time, ``--storm-sockets`` sockets each send ``--hints`` hints one
  after another (a socket answers its next message after the hint), and ``--api-clients``
  clients each ask ``POST /api/v1/games/<id>/hint`` in a loop, each with an API token.

Every hint runs in the server's solver pool (``games.runtime.solver_pool``), never on the threads
or the loop that serve moves; the pool's processes run at a lower priority
(``FT_SOLVER_NICE``), so on a machine with few cores the moves still come first.

    .venv/bin/python -m load.storm --players 100 --repeat 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from load import client, stack
from load.stats import min_med_max, summary

HINT_SECONDS = "1.0"  # the default hint budget: a storm at full cost


def _storm_players(count: int, tag: str) -> list[tuple[str, str, str]]:
    """``count`` (game id, session cookie, API token) of players who will only ask hints."""
    from games import services
    from games.models import User
    from load.players import session_cookie

    out = []
    for n in range(count):
        user, _ = User.objects.get_or_create(username=f"storm-{tag}-{n:03d}")
        game = services.game_start_practice(user=user)
        _, token = services.api_token_create(user=user, name=f"storm {tag}")
        out.append((str(game.pk), session_cookie(user), token))
    return out


async def _socket_storm(server: str, game_id: str, cookie: str, hints: int, out: list) -> None:
    ws = await client.open_socket(server, f"/ws/games/{game_id}/", cookie)
    try:
        await client.hello_of(ws, 10)
        for n in range(hints):
            start = time.perf_counter()
            await ws.send(json.dumps({"type": "hint", "id": f"h{n}"}))
            while json.loads(await ws.recv()).get("id") != f"h{n}":
                pass
            out.append(time.perf_counter() - start)
    finally:
        await ws.close()


def _api_storm(base: str, game_id: str, token: str, stop: threading.Event, out: list) -> None:
    while not stop.is_set():
        request = urllib.request.Request(
            f"{base}/api/v1/games/{game_id}/hint",
            method="POST",
            headers={"Authorization": f"Bearer {token}"},
        )
        start = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                response.read()
            out.append(time.perf_counter() - start)
        except OSError:
            out.append(float("nan"))  # counted as a failure below


def _storm(server: Any, stormers: list, sockets: int, hints: int, stop: threading.Event) -> dict:
    """Start the storm in threads of its own; returns where its figures will be."""
    address = f"127.0.0.1:{server.port}"
    socket_times: list[float] = []
    api_times: list[float] = []

    async def socket_storms() -> None:
        await asyncio.gather(
            *(_socket_storm(address, g, c, hints, socket_times) for g, c, _ in stormers[:sockets]),
            return_exceptions=True,
        )

    threads = [threading.Thread(target=asyncio.run, args=(socket_storms(),), daemon=True)]
    threads += [
        threading.Thread(target=_api_storm, args=(server.http, g, t, stop, api_times), daemon=True)
        for g, _, t in stormers[sockets:]
    ]
    for thread in threads:
        thread.start()
    return {"threads": threads, "socket": socket_times, "api": api_times}


def measure(args: argparse.Namespace, server: Any, repeat: int) -> dict[str, Any]:
    from load.players import make_players

    row: dict[str, Any] = {"repeat": repeat + 1}
    for name in ("quiet", "storm"):
        players = make_players(args.players)
        seats = [client.Seat(f"127.0.0.1:{server.port}", p.game_id, p.cookie) for p in players]
        phase = client.Phase(duration=args.duration, warmup=args.warmup, seed=repeat)
        stop, storm = threading.Event(), None
        if name == "storm":
            stormers = _storm_players(args.storm_sockets + args.api_clients, f"{repeat}")
            storm = _storm(server, stormers, args.storm_sockets, args.hints, stop)
        figures = summary(client.run(seats, phase, args.client_procs))
        stop.set()
        if storm is not None:
            for thread in storm["threads"]:
                thread.join(timeout=60)
            answered = [t for t in storm["api"] if t == t]  # NaN: a failed request
            figures["hints_socket"] = len(storm["socket"])
            figures["hints_api"] = len(answered)
            figures["hints_api_failed"] = len(storm["api"]) - len(answered)
        row[name] = figures
        print(name, {k: figures.get(k) for k in ("per_s", "p50_ms", "p99_ms", "hints_api")})
    row["ratio_p99"] = row["storm"]["p99_ms"] / row["quiet"]["p99_ms"]
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add = parser.add_argument
    add("--players", type=int, default=100)
    add("--storm-sockets", type=int, default=4)
    add("--hints", type=int, default=50, help="hints each storm socket asks, one after another")
    add("--api-clients", type=int, default=12)
    add("--duration", type=float, default=30.0)
    add("--warmup", type=float, default=5.0)
    add("--repeat", type=int, default=3)
    add("--client-procs", type=int, default=1)
    add("--json", type=Path, default=stack.RESULTS / "storm.json")
    args = parser.parse_args(argv)
    env = stack.load_env(FT_HINT_SECONDS=HINT_SECONDS)
    stack.stack_up(env)
    servers = stack.start_servers(env, 1)
    try:
        rows = [measure(args, servers[0], r) for r in range(args.repeat)]
    finally:
        stack.stop_all(servers)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(rows, indent=1, default=str))
    ratios = sorted(r["ratio_p99"] for r in rows)
    quiet = sorted(r["quiet"]["p99_ms"] for r in rows)
    storm = sorted(r["storm"]["p99_ms"] for r in rows)
    print("| phase | players' ack p99, min / median / max |")
    print("|---|---|")
    print(f"| quiet | {min_med_max(quiet, '{:.1f}')} ms |")
    print(f"| storm | {min_med_max(storm, '{:.1f}')} ms |")
    middle = statistics.median(ratios)
    print(f"p99 storm / quiet: {min_med_max(ratios, '{:.2f}')}")
    return 0 if middle <= 2.0 else 1


if __name__ == "__main__":
    sys.exit(main())
