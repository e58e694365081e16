"""WSGI entry point of the pages' processes (gunicorn, ``ftsite.gunicorn``): every HTTP
request but the sockets' handshakes, which nginx sends to daphne (``ftsite.asgi``).

Why two servers (issue 37, docs/operations.md "Pages and sockets"): the site's views are
sync Django views on a thread-based connection pool. Under daphne each one is handed from
the event loop to a thread and back, on one process and one core: a trivial view served
about 1/200 of what nginx serves of a static file. A threaded WSGI worker runs the view on
the thread that read the request, and several worker processes use both cores.

No metrics endpoint here: each worker is a process of its own, and one port cannot serve
them all (Prometheus scrapes the socket processes; nginx's log counts the pages).
"""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ftsite.settings")

application = get_wsgi_application()

from ftsite.serving import serving_tune  # noqa: E402

# The same collector settings and library patches as a socket process (ftsite.serving).
serving_tune()
