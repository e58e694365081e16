"""Websocket URL patterns, routed by ``ftsite.asgi``."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver

websocket_urlpatterns: list[URLPattern | URLResolver] = []
