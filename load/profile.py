"""Where a move's time goes: a py-spy speedscope profile of a server, summed up by layer.

Each sample is charged to the layer of its innermost frame that belongs to a known layer
(the engine, the ORM, psycopg, JSON, the channel layer, the websocket stack, ...), per
thread: daphne runs the event loop on one thread and the sockets' database calls on others,
so they are shown apart. What a sample means depends on how py-spy recorded it
(``load.stack.PROFILE_MODES``): holding the GIL, running, or any time at all.

    python -m load.profile test-results/load/profile-300p-open.speedscope.json
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

# Innermost match wins, so a JSON dump inside the services counts as JSON, not the project.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("game engine", ("/games/engine/",)),
    ("solver (dead-end check)", ("/games/solver/",)),
    ("psycopg: PostgreSQL I/O", ("/psycopg/", "/psycopg_binary/", "/psycopg_pool/")),
    ("Django ORM, SQL compiler", ("/django/db/",)),
    ("json", ("/json/",)),
    ("redis, channels_redis", ("/channels_redis/", "/redis/", "/msgpack/")),
    (
        "server: daphne, Twisted, autobahn / uvicorn, websockets",
        ("/autobahn/", "/twisted/", "/daphne/", "/txaio/", "/uvicorn/", "/websockets/", "/h11/"),
    ),
    ("asgiref: sync/async hand-off", ("/asgiref/",)),
    ("channels", ("/channels/",)),
    ("asyncio", ("/asyncio/",)),
    ("threads, futures", ("/threading.py", "/concurrent/", "/queue.py")),
    ("project code", ("/games/", "/leaderboards/", "/ftsite/")),
    ("Django, other", ("/django/",)),
]
OTHER = "other (stdlib, C)"
# The inclusive list names only the project's own functions: the framework's roots (the
# reactor, the thread pool) are on every stack and would fill it.
OWN_CODE = ("/games/", "/leaderboards/", "/ftsite/")


def layer_of(path: str) -> str | None:
    """The layer a source file belongs to, if any.

    >>> layer_of("/x/site-packages/django/db/models/query.py")
    'Django ORM, SQL compiler'
    >>> layer_of("/work/main/games/services/play.py"), layer_of("/usr/lib/python3.11/ssl.py")
    ('project code', None)
    """
    for name, needles in LAYERS:
        if any(n in path for n in needles):
            return name
    return None


def _thread_name(profile: dict[str, Any]) -> str:
    """The thread's name with pool numbers folded: ``Thread 7 "asyncio_3"`` -> ``asyncio_*``.

    >>> _thread_name({"name": 'Thread 29905 "asyncio_0"'}), _thread_name({"name": "x"})
    ('asyncio_*', 'x')
    """
    name = str(profile.get("name") or "thread")
    quoted = re.search(r'"(.*)"', name)
    return re.sub(r"_\d+$", "_*", quoted.group(1) if quoted else name)


def summarise(path: Path, top: int = 12) -> dict[str, Any]:
    """Time per thread and layer (self), and the functions with the most of it."""
    data = json.loads(path.read_text())
    frames = data["shared"]["frames"]
    layers: dict[str, Counter[str]] = {}  # thread -> layer -> seconds
    own: Counter[str] = Counter()  # function -> time where it is the innermost frame
    inclusive: Counter[str] = Counter()  # project function -> time with it on the stack
    for profile in data["profiles"]:
        per_layer = layers.setdefault(_thread_name(profile), Counter())
        for stack, weight in zip(profile["samples"], profile["weights"], strict=True):
            if not stack:
                continue
            names = [frames[i] for i in stack]  # root first
            found = (layer_of(str(f.get("file", ""))) for f in reversed(names))
            per_layer[next((x for x in found if x), OTHER)] += weight
            leaf = names[-1]
            own[f"{leaf['name']} ({_short(leaf.get('file', ''))})"] += weight
            mine = (f for f in names if any(c in str(f.get("file", "")) for c in OWN_CODE))
            for key in {f"{f['name']} ({_short(f.get('file', ''))})" for f in mine}:
                inclusive[key] += weight
    total = sum(sum(c.values()) for c in layers.values())
    return {
        "seconds": total,
        "threads": {
            name: dict(c.most_common())
            for name, c in sorted(layers.items(), key=lambda kv: -sum(kv[1].values()))
            if c
        },
        "self": own.most_common(top),
        "inclusive": inclusive.most_common(top),
    }


def _short(path: str) -> str:
    """A frame's file without the machine's prefixes.

    >>> _short("/tmp/x/games/runtime/live.py"), _short("/usr/lib/python3.11/asyncio/events.py")
    ('games/runtime/live.py', 'asyncio/events.py')
    """
    if "site-packages/" in path:
        return path.split("site-packages/", 1)[1]
    for top in ("games/", "leaderboards/", "ftsite/", "load/"):
        if f"/{top}" in path:
            return top + path.split(f"/{top}", 1)[1]
    if "/lib/python3." in path:
        return path.split("/lib/python3.", 1)[1].partition("/")[2]
    return path


def markdown(summary: dict[str, Any], moves: int = 0) -> str:
    """The summary as markdown, in seconds of samples (py-spy weighs each by its interval)
    and, given the ``moves`` played while it sampled, in milliseconds per move."""
    total = summary["seconds"] or 1

    def per_move(seconds: float) -> str:
        return f" | {1000 * seconds / moves:.3f}" if moves else ""

    extra_head, extra_rule = (" | ms per move", "---|") if moves else ("", "")
    lines = [f"{total:.1f} s sampled (threads of one name summed: a pool's threads)"]
    if moves:
        lines[0] += f"; {moves} moves played meanwhile: {1000 * total / moves:.2f} ms a move"
    lines.append("")
    for thread, by_layer in summary["threads"].items():
        spent = sum(by_layer.values())
        lines += [f"**{thread}**: {spent:.1f} s ({100 * spent / total:.0f} % of all)", ""]
        lines += [f"| layer (innermost known frame) | seconds | share of thread{extra_head} |"]
        lines += [f"|---|---|---|{extra_rule}"]
        lines += [
            f"| {k} | {v:.2f} | {100 * v / spent:.1f} %{per_move(v)} |" for k, v in by_layer.items()
        ]
        lines.append("")
    titles = ("functions, self time", "project functions, inclusive time")
    for title, rows in zip(titles, (summary["self"], summary["inclusive"]), strict=True):
        lines += [f"| {title} | seconds | share of all{extra_head} |", f"|---|---|---|{extra_rule}"]
        lines += [
            f"| `{name}` | {n:.2f} | {100 * n / total:.1f} %{per_move(n)} |" for name, n in rows
        ]
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    """``python -m load.profile FILE [MOVES]``: MOVES played while sampling, for ms a move."""
    if not argv:
        sys.exit("usage: python -m load.profile FILE.speedscope.json [MOVES]")
    moves = int(argv[1]) if len(argv) > 1 else 0
    print(f"## {argv[0]}\n\n{markdown(summarise(Path(argv[0])), moves)}")


if __name__ == "__main__":
    main(sys.argv[1:])
