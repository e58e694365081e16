"""gunicorn's configuration for the pages' processes (``gunicorn -c python:ftsite.gunicorn
ftsite.wsgi``), read from the environment with the settings' typed readers, so a bad value
stops the server at start (``ImproperlyConfigured``) rather than running it misconfigured.

* ``FT_PAGES_WORKERS`` processes (default 4), each ``FT_PAGES_THREADS`` threads (2):
  gunicorn's ``gthread`` worker, a thread per request being served and the kept-alive
  connections waiting in the worker's poller. Two cores, 4 x 2: a page's view holds the
  GIL most of its time, so more threads per process add waiting, not throughput, and more
  processes than about twice the cores add memory (about 90 MB each) and switching.
* Each worker is a process with a database pool of its own: unless set, its ceiling
  (``DJANGO_DB_POOL_MAX``) is its number of threads, one connection per request in
  flight, and one stays open when idle (``DJANGO_DB_POOL_MIN``). The pages service's
  connections are then at most workers x threads (docs/operations.md, "Database
  connections").
* ``FT_PAGES_KEEPALIVE`` (75 s): nginx keeps its connections to the pages open for 60 s
  (``keepalive_timeout`` of the upstream), so gunicorn must not close one first: nginx
  would send a request into a connection being closed.
"""

from __future__ import annotations

import os

from ftsite.env import env_int, env_str

bind = [env_str("FT_PAGES_BIND", "127.0.0.1:8001")]
worker_class = "gthread"
workers = env_int("FT_PAGES_WORKERS", 4, minimum=1, maximum=64)
threads = env_int("FT_PAGES_THREADS", 2, minimum=1, maximum=64)
keepalive = env_int("FT_PAGES_KEEPALIVE", 75, minimum=1, maximum=3600)
# Above nginx's 120 s read timeout: nginx answers a slow page first (504), never this.
timeout = 130
graceful_timeout = 30
# The access log is nginx's; gunicorn's own errors go to stderr.
accesslog = None
errorlog = "-"
# Each worker imports the site itself: no connection, pool or thread is made before a
# fork and then shared by the copies.
preload_app = False
# No control socket (gunicorn 25.1+): one path per user, so a second server on the host
# (another service, a test's) would take it over; the operator signals the master instead.
control_socket_disable = True

os.environ.setdefault("DJANGO_DB_POOL_MAX", str(threads))
os.environ.setdefault("DJANGO_DB_POOL_MIN", "1")
