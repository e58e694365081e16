"""Websocket URL patterns of the live boards, routed by ``ftsite.asgi``."""

from __future__ import annotations

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
