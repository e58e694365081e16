"""Scorecards, share text and the replay viewer."""

from __future__ import annotations

from django.urls import URLPattern

app_name = "scorecards"
urlpatterns: list[URLPattern] = []
