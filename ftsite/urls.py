"""Root URL configuration."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    # The "djangojs" catalog (locale/*/LC_MESSAGES/djangojs.po) as window.gettext & co.
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("api/v1/", include("games.api", namespace="api")),
    path("", include("leaderboards.urls")),
    path("", include("games.urls")),
]
