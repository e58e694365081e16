"""Root URL configuration."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView
from django.views.i18n import JavaScriptCatalog

from leaderboards import review_views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    # The "djangojs" catalog (locale/*/LC_MESSAGES/djangojs.po) as window.gettext & co.
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("api/v1/", include("games.api", namespace="api")),
    path("boards/", include("leaderboards.urls")),
    path("fair-play/", TemplateView.as_view(template_name="fairplay.html"), name="fairplay"),
    # Staff only: the fair-play review of held results (docs/fairplay.md).
    path("staff/reviews/", review_views.review_list, name="review_list"),
    path("staff/reviews/<int:result_id>/", review_views.review_detail, name="review_detail"),
    path("", include("leaderboards.scorecard_urls")),
    path("", include("games.urls")),
]
