"""Pages at the proxy's pace (issue 37): wrk through nginx over TLS, at 16 connections, on
the pages visitors read and those a signed-in player reads (never stored), beside nginx's own
static file in the same run, for two ways of serving them on the same machine, database and
Redis:

* ``daphne`` (the baseline, as deployed before): nginx sends everything to two daphne
  processes, no page store;
* ``gunicorn``: nginx sends /ws/ to one daphne and everything else to gunicorn
  (``ftsite.gunicorn``, 4 workers x 2 threads by default), visitors' pages from the Redis
  page store (``ftsite.pagecache``).

Each repeat measures every page under each layout for ``--duration`` seconds after a
one-second warm-up (which also fills the store); the report is min/median/max of the
requests a second and the median p99 over the repeats. wrk keeps no cookies: every request
is a new visitor (a CSRF secret made and masked for each), except the signed-in pages', which
send one player's session and device cookies (``--no-signed-in`` skips them). The data:
``--players`` players with a verified result each on today's daily board (resigned games),
so the boards and a scorecard list people.

    nice -n 10 .venv/bin/python -m load.pages --repeat 3 --duration 5 \\
        --database-url postgres://postgres@127.0.0.1:5432/fortythieves_pages \\
        --redis-url redis://127.0.0.1:6379/12
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

from load import stack
from tests.support.proxy import Proxy, start_proxy
from tests.support.servers import Server, start_pages, start_server

RESULTS = stack.RESULTS
LAYOUTS = ("daphne", "gunicorn")
_RATE = re.compile(r"Requests/sec:\s+([\d.]+)")
_P99 = re.compile(r"^\s+99%\s+([\d.]+)(us|ms|s)\s*$", re.M)


def seed(players: int) -> tuple[dict[str, str], dict[str, str], str]:
    """Today's deal and ``players`` verified results on its board; the visitors' pages to
    measure, the signed-in player's, and that player's ``Cookie`` header (a real session and
    a device cookie, as a browser that signed in sends them)."""
    import secrets

    from django.utils import timezone

    from games import services
    from games.models import User
    from leaderboards.services import result_verify
    from load.players import session_cookie
    from tests.support.games import game_resign

    deal = services.deal_open_daily(day=timezone.now().date())
    names = []
    for n in range(players):
        user, created = User.objects.get_or_create(username=f"pages-{n:03d}")
        names.append(user.username)
        if created:
            game = services.game_start_daily(user=user)
            game_resign(user=user, game_id=game.pk)
            result_verify(game_id=game.pk)
    board = f"/boards/daily/{deal.day.isoformat()}/"
    visitors = {
        "livez": "/livez",  # the trivial page: a view that reads nothing
        "healthz": "/healthz",  # the same and a database round trip
        "home": "/",
        "daily board": board,
        "week board": "/boards/week/",
        "scorecard": f"/players/{names[0]}/",
    }
    # Never from the store: each is rendered by a worker at the view's own cost.
    signed_in = {
        "home, signed in": "/",
        "daily board, signed in": board,
        "own scorecard, signed in": f"/players/{names[0]}/",
    }
    user = User.objects.get(username=names[0])
    cookie = f"{session_cookie(user)}; ft_device={secrets.token_urlsafe(24)}"
    return visitors, signed_in, cookie


def static_path() -> str:
    manifest = json.loads((stack.ROOT / "staticfiles" / "staticfiles.json").read_text())
    hashed = next(h for p, h in manifest["paths"].items() if p.endswith(".css"))
    return f"/static/{hashed}"


def wrk(url: str, *, connections: int, duration: float, cookie: str = "") -> dict[str, float]:
    """One wrk run: requests a second and p99 (ms); ``cookie``, the ``Cookie`` header sent."""
    headers = ["-H", f"Cookie: {cookie}"] if cookie else []
    done = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{duration:g}s", "--latency", *headers, url],
        capture_output=True, text=True, timeout=duration + 60, check=True,
    )  # fmt: skip
    rate, p99 = _RATE.search(done.stdout), _P99.search(done.stdout)
    if rate is None or p99 is None:
        raise RuntimeError(f"wrk said:\n{done.stdout}\n{done.stderr}")
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", done.stdout)
    return {
        "per_second": float(rate.group(1)),
        "p99_ms": float(p99.group(1)) * scale,
        "non_2xx": float(errors.group(1)) if errors else 0.0,
    }


def layout_up(name: str, env: dict[str, str]) -> tuple[Proxy, list[Server]]:
    """nginx and the servers of a layout (see the module)."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    if name == "daphne":
        env = env | {"FT_PAGE_CACHE_SECONDS": "0"}
        servers = [start_server(env, RESULTS, ready_path="/rules/") for _ in range(2)]
        return start_proxy([s.port for s in servers], stack.ROOT / "staticfiles", RESULTS), servers
    env = env | {"FT_PAGE_CACHE_SECONDS": "30"}
    sockets = start_server(env, RESULTS, ready_path="/rules/")
    pages = start_pages(env, RESULTS)
    proxy = start_proxy([sockets.port], stack.ROOT / "staticfiles", RESULTS, pages=[pages.port])
    return proxy, [sockets, pages]


def one_repeat(
    env: dict[str, str], pages: tuple[dict[str, str], dict[str, str], str], args: argparse.Namespace
) -> dict[str, dict[str, dict[str, float]]]:
    """{layout: {page: figures}}, the static file measured with each layout's nginx."""
    visitors, signed_in, cookie = pages
    figures: dict[str, dict[str, dict[str, float]]] = {}
    for name in LAYOUTS:
        proxy, servers = layout_up(name, env)
        try:
            figures[name] = {}
            asked = [
                (page, path, "")
                for page, path in {"static file": static_path(), **visitors}.items()
            ]
            if args.signed_in:
                asked += [(page, path, cookie) for page, path in signed_in.items()]
            for page, path, sent in asked:
                url = f"{proxy.https}{path}"
                # The warm-up also fills the store (visitors' pages only).
                wrk(url, connections=args.connections, duration=1, cookie=sent)
                figures[name][page] = wrk(
                    url, connections=args.connections, duration=args.duration, cookie=sent
                )
                print(name, page, figures[name][page], flush=True)
        finally:
            proxy.stop()
            stack.stop_all(servers)
    return figures


def report(runs: list[dict[str, dict[str, dict[str, float]]]]) -> str:
    """The markdown table: min/median/max req/s and the median p99, each layout."""
    lines = [
        "| page | daphne req/s (min/median/max) | p99 ms | gunicorn + store req/s | p99 ms |",
        "|---|---|---|---|---|",
    ]
    for page in runs[0]["gunicorn"]:
        cells = [page]
        for name in LAYOUTS:
            rates = [run[name][page]["per_second"] for run in runs]
            p99 = statistics.median(run[name][page]["p99_ms"] for run in runs)
            median = statistics.median(rates)
            cells += [f"{min(rates):,.0f} / {median:,.0f} / {max(rates):,.0f}", f"{p99:.1f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--duration", type=float, default=5.0, help="seconds per page")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--database-url", default=stack.DATABASE_URL)
    parser.add_argument("--redis-url", default=stack.REDIS_URL)
    parser.add_argument("--json", type=Path, help="write every repeat's figures here")
    parser.add_argument(
        "--no-signed-in", dest="signed_in", action="store_false",
        help="skip the signed-in player's pages (never stored: rendered every time)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None or shutil.which("nginx") is None:
        print("load.pages needs wrk and nginx (apt-get install wrk nginx)", file=sys.stderr)
        return 2
    env = stack.load_env(args.database_url, args.redis_url, FT_PAGES_WORKERS="4")
    stack.stack_up(env)
    if not (stack.ROOT / "staticfiles" / "staticfiles.json").is_file():
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=stack.ROOT, env=env, check=True,
        )  # fmt: skip
    pages = seed(args.players)
    runs = [one_repeat(env, pages, args) for _ in range(args.repeat)]
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(runs, indent=1))
    print(report(runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
