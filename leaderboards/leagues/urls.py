"""The league pages, added to ``leaderboards.urls`` (names in the ``leaderboards``
namespace, under ``/leagues/``)."""

from __future__ import annotations

from django.urls import URLPattern, path

from leaderboards.leagues import views

urlpatterns: list[URLPattern] = [
    path("leagues/", views.league_index, name="leagues"),
    path("leagues/new/", views.league_create, name="league_create"),
    path("leagues/join/<str:token>/", views.league_join, name="league_join"),
    path("leagues/<int:league_id>/", views.league_detail, name="league"),
    path("leagues/<int:league_id>/leave/", views.league_leave, name="league_leave"),
    path(
        "leagues/<int:league_id>/members/<int:member_id>/remove/",
        views.league_member_remove,
        name="league_member_remove",
    ),
    path("leagues/<int:league_id>/invite/", views.league_invite_rotate, name="league_rotate"),
    path("leagues/<int:league_id>/delete/", views.league_delete, name="league_delete"),
    path(
        "leagues/<int:league_id>/arenas/new/",
        views.league_arena_create,
        name="league_arena_create",
    ),
    path("leagues/<int:league_id>/daily/", views.league_daily, name="league_daily_today"),
    # <str:>: the view parses the date, so a bad one is a 404 from one place.
    path("leagues/<int:league_id>/daily/<str:day>/", views.league_daily, name="league_daily"),
    path(
        "leagues/<int:league_id>/daily/<str:day>/rows/",
        views.league_daily_rows,
        name="league_daily_rows",
    ),
    path("leagues/<int:league_id>/weekly/", views.league_weekly, name="league_weekly_current"),
    path("leagues/<int:league_id>/weekly/<str:week>/", views.league_weekly, name="league_weekly"),
    path(
        "leagues/<int:league_id>/week/", views.league_period, {"kind": "week"}, name="league_week"
    ),
    path(
        "leagues/<int:league_id>/month/",
        views.league_period,
        {"kind": "month"},
        name="league_month",
    ),
    path("leagues/<int:league_id>/all/", views.league_period, {"kind": "all"}, name="league_all"),
    path("leagues/<int:league_id>/rating/", views.league_rating, name="league_rating"),
    path("leagues/<int:league_id>/compare/", views.league_compare, name="league_compare"),
]
