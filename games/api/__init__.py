"""The JSON API (django-ninja): endpoints, schemas, throttles.

``ftsite/urls.py`` includes this package: its URL patterns are the endpoints' ``api.urls``.
"""

from games.api.endpoints import api, app_name, urlpatterns

__all__ = ["api", "app_name", "urlpatterns"]
