"""The fault suite (issue 11): break one part of the real stack while players play, then
check that no acknowledged move was lost or applied twice (and, for the Celery fault, that
every finished ranked game was verified exactly once). Exits 1 on any failure.

    python -m load.faults                      # all four, 100 players, 60 s each
    python -m load.faults --quick              # all four, 30 players, 15 s each (CI)
    python -m load.faults --fault db-cut --players 100 --duration 60 --json out.json
    python -m load.faults --proxy --fault kill-asgi   # every player through nginx (TLS)

Faults (see docs/reliability.md for what each checks and the measured figures):

  kill-asgi  kill -9 one of the two daphne processes; its players reconnect to the other
  redis      kill -9 the stack's redis-server (channel layer, cache, broker), restart it
  db-cut     pg_terminate_backend every connection to the database, three times
  celery     kill -9 the Celery worker while ranked games finish; a new one, the sweep

The stack is this suite's own: two daphne processes serving load.asgi, a redis-server it
starts on a free port (the machine's Redis is never touched) and the database
fortythieves_faults (created and migrated on first use). With --proxy, Debian's nginx runs
the repository's configuration (ftsite/deploy/nginx.conf.template) in front of the two
servers, every player connects to its one TLS address, and a killed server is replaced on
the same port (as a restarted container keeps its address). Logs: test-results/faults/.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from time import perf_counter
from typing import Any

from load.fault_audit import audit_moves, audit_ranked, client_figures, recovery, unverified
from load.fault_client import FaultSeat, Plan, PlayerLog, play_all
from load.fault_stack import (
    DATABASE_URL,
    LOGS,
    Suite,
    cut_connections,
    kill_worker,
    practice_players,
    ranked_players,
    suite,
)

FAULT_NAMES = ("kill-asgi", "redis", "db-cut", "celery")
REDIS_DOWN_S = 3.0  # how long the Redis fault leaves the stack without Redis
WORKER_DOWN_S = 2.0  # ... and the Celery fault without a worker
DB_CUTS = 3
SETTLE_S = 90.0  # the most the Celery fault waits for the queue, then the sweep


@dataclass(frozen=True)
class Config:
    players: int
    duration: float
    database_url: str


@dataclass
class Marks:
    """What a fault did, and when (seconds into play); ``restored`` are the moments from
    which recovery is measured (a service back, or the blow itself when nothing returns)."""

    t0: float = 0.0
    events: list[str] = field(default_factory=list)
    restored: list[float] = field(default_factory=list)

    def event(self, text: str, *, restored: bool = False) -> None:
        now = perf_counter()
        self.events.append(f"{now - self.t0:6.1f} s  {text}")
        print(f"  [{now - self.t0:5.1f} s] {text}", flush=True)
        if restored:
            self.restored.append(now)


async def at(marks: Marks, seconds: float) -> None:
    """Sleep until ``seconds`` into play."""
    await asyncio.sleep(max(0.0, marks.t0 + seconds - perf_counter()))


def play(
    seats: list[FaultSeat],
    plan: Plan,
    marks: Marks,
    inject: Callable[[], Awaitable[None]],
    resign_after: list[float | None] | None = None,
) -> list[PlayerLog]:
    async def started() -> None:
        marks.t0 = perf_counter()  # play_all starts the fault with the play
        await inject()

    resign = resign_after or [None] * len(seats)
    logs, _ = asyncio.run(play_all(seats, plan, started, resign))
    return logs


def kill_asgi(s: Suite, cfg: Config) -> dict[str, Any]:
    """kill -9 one of two ASGI processes at 40% of the run; its players must reconnect to
    the other, sync, and have their unanswered action answered (duplicate or applied)."""
    victim = s.servers[0]
    victim_at = f"127.0.0.1:{victim.port}"
    seats = s.seats(practice_players(cfg.players))
    on_victim = sum(seat.servers[0] == victim_at for seat in seats)
    marks = Marks()

    async def inject() -> None:
        nonlocal on_victim
        await at(marks, cfg.duration * 0.4)
        if s.proxy is not None:  # the proxy chose: count the victim's sockets
            on_victim = await asyncio.to_thread(established_to, victim.port)
        victim.process.kill()
        marks.event(f"kill -9 daphne pid {victim.process.pid} ({on_victim} players)", restored=True)

    logs = play(seats, Plan(cfg.duration), marks, inject)
    victim.process.wait(timeout=10)
    s.replace([victim])  # expected dead: replaced for the next fault
    report = judge("kill-asgi", logs, marks)
    if s.proxy is not None:  # every player is on the proxy's one address
        moved = sum(log.reconnects > 0 for log in logs)
    else:
        mine = [log for log, seat in zip(logs, seats, strict=True) if seat.servers[0] == victim_at]
        moved = sum(log.reconnects > 0 for log in mine)
    report["players_on_victim"] = on_victim
    report["through_proxy"] = s.proxy is not None
    if moved < on_victim:
        report["failures"].append(f"only {moved} of the {on_victim} players on it reconnected")
    if on_victim == 0:
        report["failures"].append("no player was on the killed process: the fault missed")
    return report


def established_to(port: int) -> int:
    """Open TCP connections to 127.0.0.1:``port`` (Linux's /proc/net/tcp): behind the
    proxy, one per socket it forwards to that process (its HTTP keepalive connections
    too, of which a websocket-only run has none)."""
    local = f"0100007F:{port:04X}"
    with open("/proc/net/tcp") as table:
        rows = [line.split() for line in table.readlines()[1:]]
    return sum(1 for row in rows if row[1] == local and row[3] == "01")  # 01: ESTABLISHED


def redis_fault(s: Suite, cfg: Config) -> dict[str, Any]:
    """kill -9 the stack's redis-server at 35% of the run, restart it (empty) after a few
    seconds: sockets may drop and reconnect; no acknowledged action may be lost."""
    seats = s.seats(practice_players(cfg.players))
    marks = Marks()

    async def inject() -> None:
        await at(marks, cfg.duration * 0.35)
        s.redis.kill()
        marks.event(f"kill -9 redis-server :{s.redis.port}")
        await asyncio.sleep(REDIS_DOWN_S)
        await asyncio.to_thread(s.redis.start)
        marks.event("redis-server restarted (empty)", restored=True)

    return judge("redis", play(seats, Plan(cfg.duration), marks, inject), marks)


def db_cut(s: Suite, cfg: Config) -> dict[str, Any]:
    """pg_terminate_backend every connection to the run's database at 25%, 50% and 75%
    of the run: the action threads reconnect and retry once, the others reconnect."""
    seats = s.seats(practice_players(cfg.players))
    marks = Marks()
    cut = 0

    async def inject() -> None:
        nonlocal cut
        for k in range(1, DB_CUTS + 1):
            await at(marks, cfg.duration * k / (DB_CUTS + 1))
            n = await asyncio.to_thread(cut_connections, cfg.database_url)
            cut += n
            marks.event(f"pg_terminate_backend: {n} connections cut", restored=True)

    report = judge("db-cut", play(seats, Plan(cfg.duration), marks, inject), marks)
    report["connections_cut"] = cut
    if not cut:
        report["failures"].append("no connection was cut: the fault did not happen")
    return report


def judge(name: str, logs: list[PlayerLog], marks: Marks) -> dict[str, Any]:
    """The report of a run: the audit of the log against the acknowledgements, the
    clients' figures, recovery times, and the failures among them."""
    from django.db import connections

    connections.close_all()  # the DB fault cut this process's connection too
    moves = audit_moves(logs)
    clients = client_figures(logs)
    failures = [f"lost: {x}" for x in moves.lost] + [f"doubled: {x}" for x in moves.doubled]
    failures += [f"applied, never acknowledged: {x}" for x in moves.unacked_rows]
    failures += clients["anomalies"]
    warnings = [
        f"fresh sockets after play refused {n} times: {why}"
        for why, n in clients["recheck_connect_failures"].items()
    ]
    return {
        "fault": name,
        "players": len(logs),
        "events": marks.events,
        "acked": moves.acked,
        "duplicates": moves.duplicates,
        "rows": moves.rows,
        "lost": len(moves.lost),
        "doubled": len(moves.doubled),
        "unacked_rows": len(moves.unacked_rows),
        **{k: v for k, v in clients.items() if k != "anomalies"},
        **recovery(logs, marks.restored),
        "failures": failures,
        "warnings": warnings,
    }


def celery_fault(s: Suite, cfg: Config) -> dict[str, Any]:
    """Ranked daily games finish (by resigning) while a worker verifies them; kill -9 the
    worker in a wave of finishes, start another, then run the sweep: every finished ranked
    game must end with exactly one result, verified."""
    worker = s.start_worker()
    players = ranked_players(cfg.players)
    seats = s.seats(players)
    kill_at = cfg.duration * 0.5
    resign_after = finish_times(len(seats), cfg.duration, kill_at)
    marks = Marks()
    in_flight = 0

    async def inject() -> None:
        nonlocal in_flight
        await at(marks, kill_at)
        in_flight = await asyncio.to_thread(s.redis.unacked)
        await asyncio.to_thread(kill_worker, worker)
        marks.event(f"kill -9 celery worker pid {worker.process.pid} ({in_flight} unacked)")
        await asyncio.sleep(WORKER_DOWN_S)
        await asyncio.to_thread(s.start_worker)
        marks.event("a new celery worker is ready", restored=True)

    logs = play(seats, Plan(cfg.duration, ranked=True), marks, inject, resign_after)
    report = judge("celery", logs, marks)
    checked = verify_after_crash([seat.game_id for seat in seats], s, marks)
    report["failures"] += checked.pop("failures_ranked")
    report.update(checked)
    report["unacked_at_kill"] = in_flight
    for extra in s.workers:
        extra.stop()
    s.workers.clear()
    return report


def finish_times(count: int, duration: float, kill_at: float) -> list[float | None]:
    """When each ranked player resigns: half of them in a wave that ends at the kill
    (so the worker is busy when it dies), the rest spread over the run."""
    rng = random.Random(1)
    wave = count // 2
    times = [kill_at - rng.uniform(0.2, 1.0) for _ in range(wave)]
    times += [rng.uniform(0.15, 0.85) * duration for _ in range(count - wave)]
    rng.shuffle(times)
    return list(times)


def verify_after_crash(game_ids: list[str], s: Suite, marks: Marks) -> dict[str, Any]:
    """Let the new worker drain the queue, count what the crash left unverified, run the
    sweep (as beat would a minute later) and wait for every verdict."""
    settle_queue(s, game_ids)
    left = unverified(game_ids)
    marks.event(f"queue drained: {left} finished games left unverified")
    swept = sweep_now()
    marks.event(f"the sweep re-enqueued {swept['games']} verifications, {swept['results']} ranks")
    started, deadline = perf_counter(), perf_counter() + SETTLE_S
    while unverified(game_ids) and perf_counter() < deadline:
        time.sleep(0.5)
    settled = perf_counter() - started
    ranked = audit_ranked(game_ids)
    marks.event(f"{ranked.verified} of {ranked.finished} finished ranked games verified")
    failures = [f"ranked: {p}" for p in ranked.problems]
    if ranked.active:
        failures.append(f"ranked: {ranked.active} games never finished")
    return {
        "ranked": asdict(ranked) | {"problems": len(ranked.problems)},
        "unverified_after_drain": left,
        "sweep": swept,
        "verified_after_sweep_s": round(settled, 2),
        "failures_ranked": failures,
    }


def settle_queue(s: Suite, game_ids: list[str]) -> None:
    """Until the queue is empty, nothing is unacknowledged and the count of unverified
    games has held still for two seconds (or SETTLE_S)."""
    deadline, last, still = perf_counter() + SETTLE_S, -1, 0
    while perf_counter() < deadline and still < 4:
        now = unverified(game_ids)
        busy = s.redis.queued() > 0
        still = still + 1 if (now == last and not busy) else 0
        last = now
        time.sleep(0.5)


def sweep_now() -> dict[str, int]:
    """The beat task ``leaderboards.sweep``, run here at once: it only takes games finished
    a minute ago (SWEEP_AGE, so it never races a verification still queued); the crash is
    seconds old, so the age is set to nothing for this call. Its re-enqueues go to the
    stack's broker, and the new worker runs them."""
    from datetime import timedelta

    from leaderboards import services
    from leaderboards.tasks import sweep

    age, services.SWEEP_AGE = services.SWEEP_AGE, timedelta(0)
    try:
        return sweep()
    finally:
        services.SWEEP_AGE = age


FAULTS: dict[str, Callable[[Suite, Config], dict[str, Any]]] = {
    "kill-asgi": kill_asgi,
    "redis": redis_fault,
    "db-cut": db_cut,
    "celery": celery_fault,
}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m load.faults",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add = parser.add_argument
    add("--fault", choices=FAULT_NAMES, action="append", help="run this one (repeatable; all)")
    add("--quick", action="store_true", help="the CI version: 30 players, 15 s per fault")
    add("--players", type=int, help="players per fault (100; 30 with --quick)")
    add("--duration", type=float, help="seconds of play per fault (60; 15 with --quick)")
    add("--database-url", default=DATABASE_URL, help="the run's own database (made if missing)")
    add("--logs", type=Path, default=LOGS, help="the logs go to a folder of each run in here")
    add("--json", type=Path, help="write the reports here")
    add(
        "--proxy",
        action="store_true",
        help="every player through nginx (ftsite/deploy) in front of the servers, over TLS",
    )
    return parser.parse_args(argv)


def print_report(report: dict[str, Any]) -> None:
    r = report
    print(
        f"{r['fault']}: {r['players']} players, {r['acked']} actions acknowledged"
        f" ({r['duplicates']} as duplicates), {r['rows']} rows; lost {r['lost']},"
        f" doubled {r['doubled']}, applied but unacknowledged {r['unacked_rows']}\n"
        f"  reconnects {r['reconnects']} ({r['reconnected_players']} players; p50"
        f" {r['reconnect_p50_s']} s, max {r['reconnect_max_s']} s), re-sent {r['resent']},"
        f" stuck {r['stuck']}; recovered in {r['recover_s']} s, longest stall"
        f" {r['gap_max_s']} s\n"
        f"  drops {r['drops']}, connection failures {r['connect_failures']},"
        f" refused {r['refused']}; after play, {r['rechecked']} players' last action"
        " answered again as a duplicate by every live server"
    )
    if "ranked" in r:
        k = r["ranked"]
        print(
            f"  ranked: {k['finished']} finished, {k['results']} results, {k['verified']}"
            f" verified ({k['ranked']} on the board, {k['held']} held); {r['unacked_at_kill']}"
            f" unacked at the kill, {r['unverified_after_drain']} unverified after the drain,"
            f" all verified {r['verified_after_sweep_s']} s after the sweep"
        )
    for warning in r["warnings"]:
        print(f"  WARNING {warning}")
    for failure in r["failures"][:20]:
        print(f"  FAIL {failure}")
    if len(r["failures"]) > 20:
        print(f"  ... and {len(r['failures']) - 20} more")
    print(f"  {'FAILED' if r['failures'] else 'passed'}", flush=True)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    cfg = Config(
        players=args.players or (30 if args.quick else 100),
        duration=args.duration or (15.0 if args.quick else 60.0),
        database_url=args.database_url,
    )
    reports = []
    log_dir = args.logs / datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    print(f"logs: {log_dir}", flush=True)
    with suite(cfg.database_url, log_dir, proxy=args.proxy) as s:
        for name in args.fault or FAULT_NAMES:
            print(f"== {name}: {cfg.players} players, {cfg.duration:.0f} s ==", flush=True)
            report = FAULTS[name](s, cfg)
            report["failures"] += [f"died during the run: {d}" for d in s.heal()]
            report["ok"] = not report["failures"]
            print_report(report)
            reports.append(report)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(reports, indent=1))
    failed = [r["fault"] for r in reports if not r["ok"]]
    print("all faults passed" if not failed else f"FAILED: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
