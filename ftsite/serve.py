"""The web process: daphne's command line on uvloop's event loop.

    python -m ftsite.serve -b 0.0.0.0 -p 8000 ftsite.asgi:application

takes exactly daphne's arguments (``python -m daphne --help``). compose.yaml's web
services, the load harness (``load/``) and the integration tests all start the server this
way, so what is measured and tested is what is deployed.

**Why.** daphne creates its event loop when ``daphne.server`` is imported
(``asyncio.new_event_loop()``) and installs Twisted's ``AsyncioSelectorReactor`` on it, so
the sockets' I/O, Twisted's timers and every ``await`` of the consumers run on that loop.
In a reconnect storm the loop was the process's bottleneck, and a third of its time was
asyncio's own Python (the selector, ``call_soon``, handles, futures: docs/benchmarks.md,
"Session 9"). uvloop's loop (libuv, in C) is a drop-in ``AbstractEventLoop``: setting its
policy *before* daphne is imported makes daphne's ``new_event_loop()`` return one, and
Twisted's reactor, Channels, channels_redis, asgiref's thread hops and the project's
loop-side Redis client run on it unchanged (they use only the public loop API:
``add_reader``/``add_writer``, ``call_later``, ``run_in_executor``, futures and tasks). The
figures, with and without, are in docs/benchmarks.md ("Session 10").

``FT_EVENT_LOOP=asyncio`` runs the plain asyncio loop instead (a comparison, or a way back
without a new image if a library ever misbehaves on uvloop).
"""

from __future__ import annotations

import asyncio
import os
import sys


def use_uvloop() -> bool:
    """Set uvloop's event-loop policy unless ``FT_EVENT_LOOP=asyncio``; True if set. Must
    run before ``daphne.server`` is imported (it makes its loop at import)."""
    if os.environ.get("FT_EVENT_LOOP", "uvloop") == "asyncio":
        return False
    if "daphne.server" in sys.modules:
        raise RuntimeError("daphne.server was imported before the event loop was chosen")
    import uvloop

    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return True


def main() -> None:
    use_uvloop()
    from daphne.cli import CommandLineInterface

    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
