"""Scorecards, share text and the replay viewer (mounted at the site root)."""

from __future__ import annotations

from django.urls import URLPattern, path

from leaderboards import scorecard_views as views

app_name = "scorecards"
urlpatterns: list[URLPattern] = [
    path("players/<str:username>/", views.scorecard, name="scorecard"),
    path("games/<uuid:game_id>/share/", views.share, name="share"),
    path("games/<uuid:game_id>/replay/", views.replay, name="replay"),
    path("deals/<int:deal_id>/solution/", views.deal_solution, name="deal_solution"),
]
