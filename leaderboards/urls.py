"""Every page of the leaderboards app, mounted at the site root: daily and period boards
(``/boards/``), scorecards, share texts and result stories, replays and solutions, the
fair-play page and the staff's review of held results (``/staff/reviews/``), and the
leagues (``/leagues/``)."""

from __future__ import annotations

from django.urls import URLPattern, path
from django.views.generic import RedirectView, TemplateView

from leaderboards import scorecard_views, views
from leaderboards.fairplay import review_views
from leaderboards.leagues import urls as league_urls
from leaderboards.replays import views as replay_views

app_name = "leaderboards"
urlpatterns: list[URLPattern] = [
    # Boards.
    path("boards/", RedirectView.as_view(pattern_name="leaderboards:daily_today"), name="index"),
    path("boards/daily/", views.daily_today, name="daily_today"),
    # <str:>: the view parses the date, so a bad one is a 404 from one place.
    path("boards/daily/<str:day>/", views.daily, name="daily"),
    path("boards/daily/<str:day>/rows/", views.daily_rows, name="daily_rows"),
    path("boards/daily/<str:day>/position/", views.daily_position, name="daily_position"),
    # A closed deal's ranked games, for anyone to re-check (python -m games.engine verify-day).
    path("boards/daily/<str:day>/games.json", views.daily_games, name="daily_games"),
    # The weekly challenge's boards, by ISO week ("2026-W49"; any day of it redirects).
    path("boards/weekly/", views.weekly_current, name="weekly_current"),
    path("boards/weekly/<str:week>/", views.weekly, name="weekly"),
    path("boards/weekly/<str:week>/rows/", views.weekly_rows, name="weekly_rows"),
    path("boards/weekly/<str:week>/position/", views.weekly_position, name="weekly_position"),
    path("boards/weekly/<str:week>/games.json", views.weekly_games, name="weekly_games"),
    path("boards/week/", views.period, {"kind": "week"}, name="week"),
    path("boards/month/", views.period, {"kind": "month"}, name="month"),
    path("boards/all/", views.period, {"kind": "all"}, name="all"),
    path("boards/rating/", views.rating, name="rating"),
    # The archive: closed daily deals played again, unranked.
    path("archive/", views.archive, name="archive"),
    path("archive/<str:month>/", views.archive, name="archive_month"),
    # Scorecards, share texts, replays, solutions.
    path("players/<str:username>/", scorecard_views.scorecard, name="scorecard"),
    path("games/<uuid:game_id>/share/", scorecard_views.share, name="share"),
    path("games/<uuid:game_id>/story/", scorecard_views.story, name="story"),
    path("games/<uuid:game_id>/replay/", replay_views.replay, name="replay"),
    path("duels/<uuid:duel_id>/replay/", replay_views.duel_replay, name="duel_replay"),
    path("games/<uuid:game_id>/analysis/", replay_views.analysis, name="analysis"),
    path("deals/<int:deal_id>/solution/", replay_views.deal_solution, name="deal_solution"),
    # Fair play: how it works, and the staff's review of held results.
    path("fair-play/", TemplateView.as_view(template_name="fairplay.html"), name="fairplay"),
    path("staff/reviews/", review_views.review_list, name="review_list"),
    path("staff/reviews/<int:result_id>/", review_views.review_detail, name="review_detail"),
    # Leagues (leaderboards/leagues/urls.py).
    *league_urls.urlpatterns,
]
