"""Root URL configuration."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from games import views as game_views
from games.accounts.language import language_set

# A request that waited too long for a database connection gets 503 with Retry-After
# (ftsite.dbpool); any other failure Django's own 500.
handler500 = "ftsite.dbpool.server_error"

urlpatterns = [
    # The probes first: a load balancer asks for them every few seconds on every process,
    # and Django tries the patterns in order (about 50 before them otherwise).
    path("livez", game_views.livez, name="livez"),
    path("healthz", game_views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    # Django's set_language, and a signed-in account keeps the choice.
    path("i18n/setlang/", language_set, name="set_language"),
    # The "djangojs" catalog (locale/*/LC_MESSAGES/djangojs.po) as window.gettext & co.
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("api/v1/", include("ftsite.api", namespace="api")),
    path("", include("leaderboards.urls")),
    path("", include("games.urls")),
]
