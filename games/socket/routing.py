"""Websocket URL patterns, routed by ``ftsite.asgi``."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from games.socket.arena_consumers import ArenaConsumer
from games.socket.consumers import GameConsumer
from games.socket.duel_consumers import DuelConsumer

websocket_urlpatterns: list[URLPattern | URLResolver] = [
    # <str:>, not <uuid:>: a bad id must reach the consumer and close with 4404, not fail routing.
    path("ws/games/<str:game_id>/", GameConsumer.as_asgi()),
    path("ws/duels/<str:duel_id>/", DuelConsumer.as_asgi()),
    path("ws/arenas/<str:arena_id>/", ArenaConsumer.as_asgi()),
]
