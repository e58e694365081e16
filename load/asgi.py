"""The benchmark's ASGI application: the site exactly as ``ftsite.asgi`` serves it, plus
``ws/echo/`` for the echo baseline. Never used in production (compose.yaml and the tests
serve ``ftsite.asgi:application``), so the site itself has no echo route.

    python -m daphne -b 127.0.0.1 -p 8000 load.asgi:application
"""

from __future__ import annotations

import gc
import os
import sys
import time
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ftsite.settings")

# Importing the site's application first initialises Django (as ftsite.asgi does).
from ftsite.asgi import application as site_application  # noqa: E402
from ftsite.closed_sockets import ClosedSocketsCollector  # noqa: E402
from ftsite.origins import SameOriginValidator  # noqa: E402
from load import memory_probe  # noqa: E402, F401  (SIGUSR1, when LOAD_MEMORY_PROBE is set)
from load.echo import EchoConsumer  # noqa: E402

ECHO_PATH = "/ws/echo/"

# The same origin check and closed sockets' collection as the game sockets, but no session
# lookup: the baseline is the websocket stack alone, without a database call.
echo_application = ClosedSocketsCollector(SameOriginValidator(EchoConsumer.as_asgi()))


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Echo sockets to the echo consumer; everything else to the site, untouched (its
    routing, origin check and session middleware stay exactly as deployed)."""
    if scope["type"] == "websocket" and scope.get("path") == ECHO_PATH:
        await echo_application(scope, receive, send)
    else:
        await site_application(scope, receive, send)


# Garbage-collector pauses of 10 ms or more, in the server's log (load.stack.LOG_SIGNS
# counts them): a full collection stops every socket of the process at once. Each line
# says the pause's CPU time beside its wall time (on a busy machine a pause of 1 ms of CPU
# can span a preemption of 100 ms: the CPU is the collector's own cost) and how long all
# collections took so far, both ways.
_gc_started = (0.0, 0.0)
_gc_total = [0.0, 0.0]


def _gc_pause(phase: str, info: dict[str, Any]) -> None:
    global _gc_started
    if phase == "start":
        _gc_started = (time.perf_counter(), time.thread_time())
        return
    seconds = time.perf_counter() - _gc_started[0]
    cpu = time.thread_time() - _gc_started[1]
    _gc_total[0] += seconds
    _gc_total[1] += cpu
    if seconds >= 0.010:
        print(
            f"gc pause: generation {info['generation']}, {seconds * 1000:.1f} ms"
            f" ({cpu * 1000:.1f} ms CPU), {info['collected']} collected;"
            f" all collections so far {_gc_total[0]:.2f} s ({_gc_total[1]:.2f} s CPU)",
            file=sys.stderr,
            flush=True,
        )


gc.callbacks.append(_gc_pause)
