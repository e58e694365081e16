"""The benchmark's ASGI application: the site exactly as ``ftsite.asgi`` serves it, plus
``ws/echo/`` for the echo baseline. Never used in production (compose.yaml and the tests
serve ``ftsite.asgi:application``), so the site itself has no echo route.

    python -m daphne -b 127.0.0.1 -p 8000 load.asgi:application
"""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ftsite.settings")

# Importing the site's application first initialises Django (as ftsite.asgi does).
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from ftsite.asgi import application as site_application  # noqa: E402
from load.echo import EchoConsumer  # noqa: E402

ECHO_PATH = "/ws/echo/"

# The same origin check as the game sockets, but no session lookup: the baseline is the
# websocket stack alone, without a database call.
echo_application = AllowedHostsOriginValidator(EchoConsumer.as_asgi())


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Echo sockets to the echo consumer; everything else to the site, untouched (its
    routing, origin check and session middleware stay exactly as deployed)."""
    if scope["type"] == "websocket" and scope.get("path") == ECHO_PATH:
        await echo_application(scope, receive, send)
    else:
        await site_application(scope, receive, send)
