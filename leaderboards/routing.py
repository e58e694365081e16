"""Websocket URL patterns of the live boards, routed by ``ftsite.asgi``."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from leaderboards.consumers import BoardConsumer, WeeklyBoardConsumer
from leaderboards.leagues.consumers import LeagueBoardConsumer

websocket_urlpatterns: list[URLPattern | URLResolver] = [
    # <str:>, not a date pattern: a bad date must reach the consumer and close with 4404.
    path("ws/boards/daily/<str:day>/", BoardConsumer.as_asgi()),
    path("ws/boards/weekly/<str:week>/", WeeklyBoardConsumer.as_asgi()),
    # A league's board: members only (4404 for anyone else, as its pages answer 404).
    path("ws/leagues/<int:league_id>/daily/<str:day>/", LeagueBoardConsumer.as_asgi()),
]
