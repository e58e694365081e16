"""ASGI entry point: plain Django for HTTP, Channels for websockets."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ftsite.settings")

# Initialise Django (app registry, models) before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import CookieMiddleware, SessionMiddleware  # noqa: E402

from ftsite.closed_sockets import ClosedSocketsCollector  # noqa: E402
from ftsite.metrics import metrics_serve  # noqa: E402
from ftsite.origins import SameOriginValidator  # noqa: E402
from ftsite.serving import serving_tune  # noqa: E402
from games.socket.connect_threads import ConnectAuthMiddleware  # noqa: E402
from games.socket.routing import websocket_urlpatterns as game_sockets  # noqa: E402
from leaderboards.routing import websocket_urlpatterns as board_sockets  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Channels' AuthMiddlewareStack, its user read on a connect thread
        # (games.socket.connect_threads) rather than the thread every socket's database
        # calls share. The Origin must be the site's own, port and scheme included
        # (ftsite.origins). Outermost, the closed sockets' garbage freed once it outweighs
        # the open ones (ftsite.closed_sockets).
        "websocket": ClosedSocketsCollector(
            SameOriginValidator(
                CookieMiddleware(
                    SessionMiddleware(
                        ConnectAuthMiddleware(URLRouter([*game_sockets, *board_sockets]))
                    )
                )
            )
        ),
    }
)


# The process's Prometheus endpoint on its own port (FT_METRICS_PORT; off when 0).
metrics_serve()

# Last: the serving patches (ftsite.patches) and the collector's settings (ftsite.serving).
serving_tune()
