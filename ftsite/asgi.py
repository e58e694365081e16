"""ASGI entry point: plain Django for HTTP, Channels for websockets."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ftsite.settings")

# Initialise Django (app registry, models) before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import CookieMiddleware, SessionMiddleware  # noqa: E402

from ftsite.metrics import metrics_serve  # noqa: E402
from ftsite.serving import serving_tune  # noqa: E402
from games.realtime.connect_threads import ConnectAuthMiddleware  # noqa: E402
from games.realtime.routing import websocket_urlpatterns as game_sockets  # noqa: E402
from leaderboards.routing import websocket_urlpatterns as board_sockets  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Channels' AuthMiddlewareStack, its user read on a connect thread
        # (games.realtime.connect_threads) rather than the thread every socket's database
        # calls share.
        "websocket": AllowedHostsOriginValidator(
            CookieMiddleware(
                SessionMiddleware(ConnectAuthMiddleware(URLRouter([*game_sockets, *board_sockets])))
            )
        ),
    }
)


# The process's Prometheus endpoint on its own port (FT_METRICS_PORT; off when 0).
metrics_serve()

# Last: the collector's settings and autobahn's lazy debug line (ftsite.serving).
serving_tune()
