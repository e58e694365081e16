"""Leaderboard pages (daily boards, periods), mounted at ``/boards/``."""

from __future__ import annotations

from django.urls import URLPattern, path
from django.views.generic import RedirectView

from leaderboards import views

app_name = "leaderboards"
urlpatterns: list[URLPattern] = [
    path("", RedirectView.as_view(pattern_name="leaderboards:daily_today"), name="index"),
    path("daily/", views.daily_today, name="daily_today"),
    # <str:>: the view parses the date, so a bad one is a 404 from one place.
    path("daily/<str:day>/", views.daily, name="daily"),
    path("daily/<str:day>/rows/", views.daily_rows, name="daily_rows"),
    path("daily/<str:day>/position/", views.daily_position, name="daily_position"),
    path("week/", views.period, {"kind": "week"}, name="week"),
    path("month/", views.period, {"kind": "month"}, name="month"),
    path("all/", views.period, {"kind": "all"}, name="all"),
]
