"""Page URLs (mounted at the site root by ``ftsite.urls``)."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

from . import arena_views, duel_views, start_views, views
from .accounts import views as account_views

# Django's auth views under /accounts/ with shorter paths than django.contrib.auth.urls;
# the URL names are Django's own, so its views and templates find each other.
# Password reset mails a link (the console backend on the embedded defaults, SMTP in
# production); the request is throttled (account_views.PasswordResetView).
account_patterns = [
    path("accounts/signup/", account_views.signup, name="signup"),
    path(
        "accounts/login/",
        account_views.LoginView.as_view(),
        name="login",
    ),
    # Django 5 logs out on POST only (a GET link could be forged by another site).
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        account_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path(
        "accounts/password/reset/",
        account_views.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("accounts/profile/", account_views.profile, name="profile"),
    path("accounts/delete/", account_views.account_delete, name="account_delete"),
    path("accounts/data/", account_views.account_export, name="account_export"),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("privacy/", views.privacy, name="privacy"),
    # Browsers ask for /favicon.ico whatever the page says (and for pages without a <head>).
    path("favicon.ico", views.favicon, name="favicon"),
    path("play/daily/", start_views.play_daily, name="play_daily"),
    path("play/archive/<str:day>/", start_views.play_archive, name="play_archive"),
    path("play/weekly/", start_views.play_weekly, name="play_weekly"),
    path("practice/", start_views.practice, name="practice"),
    path("games/", views.my_games, name="my_games"),
    path("games/<uuid:game_id>/discard/", views.game_discard, name="game_discard"),
    path("games/<uuid:game_id>/", views.game, name="game"),
    path("games/<uuid:game_id>/act/", views.game_act, name="game_act"),
    path("games/<uuid:game_id>/restart/", start_views.table_restart, name="game_restart"),
    path("games/<uuid:game_id>/new/", start_views.table_new_deal, name="game_new_deal"),
    path("arenas/", arena_views.arenas, name="arenas"),
    path("arenas/<int:arena_id>/", arena_views.arena, name="arena"),
    path("arenas/<int:arena_id>/join/", arena_views.arena_join, name="arena_join"),
    path("arenas/<int:arena_id>/leave/", arena_views.arena_leave, name="arena_leave"),
    path("duels/", duel_views.duels, name="duels"),
    path("duels/challenge/", duel_views.duel_challenge, name="duel_challenge"),
    path("duels/join/<str:token>/", duel_views.duel_join, name="duel_join"),
    path("duels/queue/", duel_views.duel_queue, name="duel_queue"),
    path("duels/queue/ask/", duel_views.duel_queue_ask, name="duel_queue_ask"),
    path("duels/<uuid:duel_id>/", duel_views.duel, name="duel"),
    path("duels/<uuid:duel_id>/rematch/", duel_views.duel_rematch, name="duel_rematch"),
    *account_patterns,
]
