"""The JSON API's URLs: ``games.api``'s NinjaAPI with the leaderboards' router added.

Mounted here, where both apps may be imported: ``games`` must not import ``leaderboards``
(the import contract), and ninja takes no router once the URLs are built, so the URLs are
built here, after every router is added."""

from __future__ import annotations

from games.api import api
from leaderboards.api import router as leaderboards_router

api.add_router("", leaderboards_router)

# For ``include("ftsite.api", namespace="api")`` in ftsite/urls.py.
urlpatterns, app_name, _namespace = api.urls
