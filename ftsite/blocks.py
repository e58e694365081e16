"""The larger blocks of ``ftsite/settings.py``, built from the values it reads (the
environment is read there alone, through ``ftsite.env``): the channel layer and the cache
(Redis when ``REDIS_URL`` is set, the process's memory otherwise), the
Content-Security-Policy, the database (and its connection pool), the templates and the
logging."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured


def channel_layers(redis_url: str | None, *, batch: int = 200) -> dict[str, Any]:
    """The sockets' channel layer: Redis, shared by every server process, when there is a
    Redis; an in-memory layer (one process: ``make run``) otherwise. ``batch``: messages a
    process takes from its inbox a round trip (``ftsite.channel_layer``); 0 for
    channels_redis's own layer, one at a time."""
    if redis_url is None:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError

    from ftsite.patches import CHANNELS_REDIS, installed_version

    if batch > 0 and not CHANNELS_REDIS.holds():
        # The pumped layer reads channels_redis's internals (its inbox's key, the group
        # script's addressing): checked on the guard's versions only.
        warnings.warn(
            f"FT_CHANNEL_LAYER_BATCH ignored: ftsite.channel_layer is checked on "
            f"{CHANNELS_REDIS.describe()}, installed {installed_version('channels-redis')}; "
            "channels_redis's own layer runs",
            stacklevel=2,
        )
        batch = 0
    backend = (
        "ftsite.channel_layer.PumpedRedisChannelLayer"
        if batch > 0
        else "channels_redis.core.RedisChannelLayer"
    )
    return {
        "default": {
            "BACKEND": backend,
            # A socket that waits for group messages blocks in BZPOPMIN for 5 s
            # (channels_redis) while redis-py 8 reads with a 5 s socket timeout by default:
            # every idle socket then died with "Timeout reading" (close 1011) after ~5 s.
            # The read timeout must stay well above the blocking pop's.
            # health_check_interval: a connection idle that long is pinged before use, so
            # the pool's connections from before a Redis restart are replaced, not handed
            # to a new socket's group_add (which failed, close 4500, for minutes after).
            # max_connections: redis-py's pool allows 100 by default, and 300 sockets
            # closing at once (a page reload storm, a process restart) ran out of them.
            # retry: redis-py retries nothing by default, so after a Redis restart every
            # pooled connection failed its first use ("Connection closed by server"), the
            # health check's own PING included, and a new socket was closed 4500 up to
            # ~10 s after Redis was back (the fault suite's redis fault). A connection error
            # now drops the connection and tries again on a new one, up to three times
            # within ~0.5 s: a stale connection costs one reconnect, a Redis that is down
            # still fails fast. A command whose connection broke after Redis applied it
            # may run twice; the layer's commands tolerate that (a group message twice is
            # one the clients already have by its version; a group add is idempotent).
            # capacity: messages a channel (and so a server process's sockets together)
            # may have waiting; at the default 100 a busy process dropped broadcasts.
            "CONFIG": {
                "hosts": [
                    {
                        "address": redis_url,
                        "socket_timeout": 30,
                        "health_check_interval": 10,
                        "max_connections": 1000,
                        "retry": Retry(ExponentialBackoff(cap=0.2, base=0.05), 3),
                        "retry_on_error": [RedisConnectionError],
                    }
                ],
                "capacity": 1500,
                **({"batch": batch} if batch > 0 else {}),
            },
        }
    }


def caches(redis_url: str | None) -> dict[str, Any]:
    """Rate limits and short-lived markers: Redis when there is one, so a limit holds
    across every server process; each process's own memory otherwise (``make run``)."""
    if redis_url is None:
        return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": "ftc",
        }
    }


#: Content-Security-Policy (django-csp): scripts only from this site, never inline; the
#: board's socket to its own origin; no framing. The API's interactive docs (ninja's
#: Swagger page, which is inline script by design) are left out of it.
CSP: dict[str, Any] = {
    "EXCLUDE_URL_PREFIXES": ["/api/v1/docs"],
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}


def logging_config(*, level: str) -> dict[str, Any]:
    """Everything to the console at ``level``; Django's own loggers print through the root
    handler only (no duplicate lines)."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "handlers": {"console": {"class": "logging.StreamHandler"}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {"django": {"handlers": [], "level": "INFO", "propagate": True}},
    }


#: SQLite (`make run`, the browser tier) with several threads writing at once: the game's
#: socket threads and, with Celery in-process, the verification each finished game starts.
#: A deferred transaction that reads and then writes cannot wait for another writer (that
#: would deadlock), so SQLite refuses it at once, "database is locked", and a finished
#: game's verification was lost. BEGIN IMMEDIATE takes the write lock first, so writers
#: queue for up to ``timeout`` seconds instead; WAL lets pages read while one writes.
SQLITE_OPTIONS: dict[str, Any] = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}


def databases(
    database_url: str | None,
    *,
    sqlite_path: Path,
    conn_max_age: int,
    lock_timeout_ms: int,
    pool: dict[str, Any] | None = None,
    application_name: str | None = None,
) -> dict[str, Any]:
    """The database: ``database_url`` (PostgreSQL in production) when set, SQLite at
    ``sqlite_path`` otherwise (``make run``). On PostgreSQL with ``pool`` (psycopg_pool's
    options, :func:`pool_options`) a thread borrows a connection for its work and
    gives it back (``ftsite.dbpool``); without, each thread keeps its own ``conn_max_age``
    seconds. ``application_name`` names the process's connections in ``pg_stat_activity``."""
    if database_url is None:
        default_sqlite = {"ENGINE": "django.db.backends.sqlite3", "NAME": str(sqlite_path)}
        return {"default": {**default_sqlite, "OPTIONS": dict(SQLITE_OPTIONS)}}
    import dj_database_url

    default: dict[str, Any] = dict(
        dj_database_url.parse(database_url, conn_max_age=conn_max_age, conn_health_checks=True)
    )
    if default["ENGINE"] == "django.db.backends.sqlite3":
        default["OPTIONS"] = {**SQLITE_OPTIONS, **default.get("OPTIONS", {})}
    if default["ENGINE"] != "django.db.backends.postgresql":
        return {"default": default}
    options = default.setdefault("OPTIONS", {})
    # No request or task waits on a row lock for ever: past this, PostgreSQL
    # refuses with an error (a task is then retried by the verification sweep).
    options["options"] = f"-c lock_timeout={lock_timeout_ms}"
    if application_name:
        options["application_name"] = application_name
    if pool is not None:
        if conn_max_age != 0:
            raise ImproperlyConfigured(
                f"DJANGO_CONN_MAX_AGE={conn_max_age} keeps a connection with each thread,"
                " which the pool replaces: leave it unset (or 0), or set DJANGO_DB_POOL=false"
            )
        options["pool"] = pool
        # The pool's connections are checked by a poll of their socket as they leave it
        # (ftsite.postgresql), not by Django's round trip on every request and action.
        default["ENGINE"] = "ftsite.postgresql"
        default["CONN_HEALTH_CHECKS"] = False
    return {"default": default}


def pool_options(
    *, min_size: int, max_size: int, timeout: float, max_idle: float, name: str | None
) -> dict[str, Any]:
    """psycopg_pool's options for Django's ``OPTIONS["pool"]``, checked: at least one
    connection, no more kept than allowed, a wait that ends, an idle time that ends."""
    if max_size < 1:
        raise ImproperlyConfigured(f"DJANGO_DB_POOL_MAX={max_size} must be at least 1")
    if not 0 <= min_size <= max_size:
        raise ImproperlyConfigured(
            f"DJANGO_DB_POOL_MIN={min_size} must be from 0 to DJANGO_DB_POOL_MAX={max_size}"
        )
    if timeout <= 0:
        raise ImproperlyConfigured(
            f"DJANGO_DB_POOL_TIMEOUT={timeout:g} must be above 0 (seconds a thread waits"
            " for a connection before its request is answered 503)"
        )
    if max_idle < 1:
        # psycopg's pool closes at most one unused connection per this interval: below a
        # second it would close connections a steady load is about to use again.
        raise ImproperlyConfigured(f"DJANGO_DB_POOL_MAX_IDLE={max_idle:g} must be at least 1")
    options: dict[str, Any] = {
        "min_size": min_size,
        "max_size": max_size,
        "timeout": timeout,
        "max_idle": max_idle,
    }
    if name:
        options["name"] = name  # in the pool's log lines
    return options


def templates(directory: Path) -> list[dict[str, Any]]:
    """Django's templates: the site's own ``directory``, then each app's."""
    return [
        {
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "DIRS": [directory],
            "APP_DIRS": True,
            "OPTIONS": {
                "context_processors": [
                    "django.template.context_processors.request",
                    "django.template.context_processors.i18n",
                    "django.contrib.auth.context_processors.auth",
                    "django.contrib.messages.context_processors.messages",
                ],
            },
        },
    ]


def storages(*, manifest: bool) -> dict[str, Any]:
    """Uploaded files on disk; static files from whitenoise's hashed, compressed manifest
    when ``manifest`` (it needs ``collectstatic`` to have run), else as they are."""
    return {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {
            "BACKEND": (
                "whitenoise.storage.CompressedManifestStaticFilesStorage"
                if manifest
                else "django.contrib.staticfiles.storage.StaticFilesStorage"
            ),
        },
    }


def celery_broker(redis_url: str | None) -> tuple[str, str | None, bool]:
    """Celery's broker, result backend and whether tasks run in-process: Redis for both
    when there is one; otherwise no broker at all, each task run inline where it is sent."""
    if redis_url is None:
        return "memory://", None, True
    return redis_url, redis_url, False


def check_redelivery(*, visibility_timeout: int, limits: dict[str, int]) -> None:
    """Refuse a visibility timeout below twice any task time limit in ``limits`` (by its
    variable's name): a message is delivered again once the timeout passes unacknowledged,
    so a slow but healthy task would otherwise be run twice at once."""
    for name, limit in limits.items():
        if visibility_timeout < 2 * limit:
            raise ImproperlyConfigured(
                f"CELERY_VISIBILITY_TIMEOUT={visibility_timeout} must be at least twice"
                f" {name}={limit}, or running tasks get redelivered"
            )
