"""The JSON API (django-ninja): endpoints, schemas, throttles.

``ftsite/api.py`` builds the URLs of this package's ``api`` once the leaderboards' router is
added to it (``ftsite/urls.py`` includes those).
"""

from games.api.endpoints import api

__all__ = ["api"]
