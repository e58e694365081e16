"""Leaderboard pages (daily boards, periods)."""

from __future__ import annotations

from django.urls import URLPattern

app_name = "leaderboards"
urlpatterns: list[URLPattern] = []
