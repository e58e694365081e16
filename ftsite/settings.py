"""Django settings for the Forty Thieves platform.

One module, driven entirely by environment variables.  With nothing set it runs on
embedded defaults (SQLite, in-memory channel layer, Celery tasks executed in-process,
DEBUG on).  Setting ``DATABASE_URL`` and ``REDIS_URL`` switches to PostgreSQL and Redis;
with ``DATABASE_URL`` DEBUG defaults to off and secrets become mandatory. The larger
computed blocks are built in ``ftsite.blocks``, the static tables are in ``ftsite.stack``,
``ftsite.rates`` and ``ftsite.schedule``; the environment is read through ``ftsite.env``.
"""

from __future__ import annotations

import hashlib
import hmac
import sys
import warnings
from pathlib import Path

from ftsite import stack
from ftsite.blocks import (
    CSP,
    caches,
    celery_broker,
    channel_layers,
    check_redelivery,
    databases,
    logging_config,
    pool_options,
    storages,
    templates,
)
from ftsite.env import (
    env_bool,
    env_int,
    env_list,
    env_networks,
    env_seconds,
    env_secret,
    env_str,
)
from ftsite.rates import rate_limits
from ftsite.schedule import BEAT_SCHEDULE, TASK_ROUTES

# --- Core --------------------------------------------------------------------

BASE_DIR = Path(__file__).resolve().parent.parent

DATABASE_URL = env_str("DATABASE_URL")
REDIS_URL = env_str("REDIS_URL")

# DEBUG is on by default only on the embedded (no DATABASE_URL) configuration.
DEBUG = env_bool("DJANGO_DEBUG", default=DATABASE_URL is None)

_DEV_SECRET_KEY = "django-insecure-dev-only-do-not-use-in-production"
_DEV_DAILY_SECRET = "dev-only-daily-secret-do-not-use-in-production"

_WHY_SECRET = "when DEBUG is off (set DJANGO_DEBUG=true for local development)"

SECRET_KEY = env_secret(
    "DJANGO_SECRET_KEY", dev_default=_DEV_SECRET_KEY, debug=DEBUG, why=_WHY_SECRET
)
# Former secret keys, newest first, still accepted for what they signed (sessions, password
# reset links) while DJANGO_SECRET_KEY is rotated: docs/operations.md, "Rotate secrets".
SECRET_KEY_FALLBACKS = env_list("DJANGO_SECRET_KEY_FALLBACKS")

# HMAC key for deriving the daily deal seeds.
FT_DAILY_SECRET = env_secret(
    "FT_DAILY_SECRET", dev_default=_DEV_DAILY_SECRET, debug=DEBUG, why=_WHY_SECRET
)

# HMAC key of the fair-play sightings (games.privacy.sightings): device cookies and network+browser
# fingerprints are stored only as HMACs under it. By default derived from SECRET_KEY with a
# fixed label, so the embedded defaults work; production should set its own (rotating
# SECRET_KEY would otherwise unlink every kept sighting).
FT_PRIVACY_SECRET = (
    env_str("FT_PRIVACY_SECRET")
    or hmac.new(str(SECRET_KEY).encode(), b"ft-privacy-secret", hashlib.sha256).hexdigest()
)
# Days a sighting is kept after it was last seen (then sightings_prune deletes it), and how
# often (seconds) one browser's sighting is written again: most page loads write nothing.
FT_SIGHTING_DAYS = env_int("FT_SIGHTING_DAYS", 30, minimum=1)
FT_SIGHTING_EVERY = env_int("FT_SIGHTING_EVERY", 600, minimum=0)
# How many reverse proxies in front of the site append the client's address to
# X-Forwarded-For. 0 (the default): the header is ignored and REMOTE_ADDR is the client.
FT_TRUSTED_PROXIES = env_int("FT_TRUSTED_PROXIES", 0, minimum=0, maximum=10)
# ... and the networks those proxies connect from: X-Forwarded-For is read only from a peer in
# one of them, so a client that reaches a web process around the proxy cannot name its own
# address. The default is loopback and the private ranges (a proxy on the same host or in
# the same container network, as compose.yaml's).
FT_TRUSTED_PROXY_NETWORKS = env_networks(
    "FT_TRUSTED_PROXY_NETWORKS",
    "127.0.0.0/8,::1/128,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7",
)

# The solver (games.solver) at work on deals. Certifying: a daily seed candidate becomes the
# deal only if the solver wins it within FT_DAILY_CERTIFY_SECONDS (0 turns certification off:
# candidate 0 is the deal, unrated); up to FT_DAILY_MAX_CANDIDATES candidates are tried.
# FT_DAILY_CERTIFY_NODES > 0 makes it deterministic instead (games.solver.evidence.certification:
# a search of that many nodes then one beam 20 wide, no clock; 2000 is what docs/fairplay.md
# measured): whether a deal is certified is then a function of the deal alone, and the
# solver queue draws each such deal's completions and tails for the sequential test (FT_EVIDENCE).
# FT_RATE_SECONDS is the budget for rating a practice deal's difficulty (0 = never rated);
# FT_RATE_PRACTICE_ON_START enqueues that rating when a practice game of an unrated deal
# starts (off by default where tasks run inline).

# (FT_DAILY_CERTIFY_SECONDS follows DATABASES: its default depends on the engine.)
FT_DAILY_CERTIFY_NODES = env_int("FT_DAILY_CERTIFY_NODES", 0, minimum=0)
FT_DAILY_MAX_CANDIDATES = env_int("FT_DAILY_MAX_CANDIDATES", 50, minimum=1, maximum=1000)
FT_RATE_SECONDS = env_seconds("FT_RATE_SECONDS", 10.0)
# Hints: the solver's budget per hint, in seconds (a decimal such as 0.5 is allowed).
# Processes of each server process's solver pool (games.runtime.solver_pool): hints are solved
# there, away from the thread that serves moves. 0: a worker thread instead (tests, make run).
FT_SOLVER_PROCESSES = env_int("FT_SOLVER_PROCESSES", 0 if REDIS_URL is None else 1, minimum=0)
FT_HINT_SECONDS = env_seconds("FT_HINT_SECONDS", 1.0, maximum=30.0)
# How much lower the solver pool's processes run than the server's (Unix nice, 0-19): moves
# come first on a machine with few cores.
FT_SOLVER_NICE = env_int("FT_SOLVER_NICE", 10, minimum=0, maximum=19)
# The dead-end check after each move once the stock is spent, in the solver pool after the
# move was answered: a node budget and a time cap in milliseconds; when undecided nothing is
# said. At most FT_DEAD_END_WAITING checks wait for the pool (one per game); more are skipped.
FT_DEAD_END_NODES = env_int("FT_DEAD_END_NODES", 20_000, minimum=0)
FT_DEAD_END_MS = env_int("FT_DEAD_END_MS", 300, minimum=0)
FT_DEAD_END_WAITING = env_int("FT_DEAD_END_WAITING", 64, minimum=0)
# Games whose engines a server process keeps between actions (games.runtime.live): about 10 KB
# each with a practice game's take-back history; the least recently used are dropped.
FT_LIVE_GAMES = env_int("FT_LIVE_GAMES", 5_000, minimum=1)
# An entry with no socket of this process on its game and no action or read for this many
# seconds is dropped (games.runtime.live.live_evict_idle): a storm's games do not stay in
# memory after their sockets closed. The next connection rebuilds it from the log.
FT_LIVE_IDLE_SECONDS = env_seconds("FT_LIVE_IDLE_SECONDS", 120.0, maximum=86_400.0)
# A full collection once this many sockets closed since the last and they outnumber those
# open (ftsite.closed_sockets): their garbage is freed after a storm. 0 turns it off.
FT_GC_CLOSED_SOCKETS = env_int("FT_GC_CLOSED_SOCKETS", 500, minimum=0)
# A finished game's log is packed into one blob (manage.py compact_logs, games.logcodec) once
# its result is verified, its deal has closed and it finished this many hours ago: a message
# sent again to it after that is refused as to any finished game, not answered as a repeat.
FT_COMPACT_AFTER_HOURS = env_int("FT_COMPACT_AFTER_HOURS", 24, minimum=1)
# Threads per server process applying the sockets' actions (games.runtime.move_threads), each with
# its own database connection: concurrent commits share their disk flushes. SQLite has one
# writer at a time: one thread there.
FT_MOVE_THREADS = env_int(
    "FT_MOVE_THREADS", 1 if DATABASE_URL is None else 8, minimum=1, maximum=64
)
# Threads per server process opening game sockets (games.socket.connect_threads): a reconnect
# storm's session, access and state reads side by side, each thread with its connection.
FT_CONNECT_THREADS = env_int(
    "FT_CONNECT_THREADS", 1 if DATABASE_URL is None else 4, minimum=1, maximum=64
)

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

# The apps, and the middleware in the order each must run (why: ftsite/stack.py).
INSTALLED_APPS = stack.INSTALLED_APPS
MIDDLEWARE = stack.MIDDLEWARE

# Sign-in throttling (django-axes): after FT_LOGIN_FAILURES wrong passwords for one
# username from one address, for one username from any addresses, or from one address for
# any usernames, that is locked out for FT_LOGIN_COOLOFF_MINUTES (429,
# templates/registration/locked_out.html); a browser the account has signed in from
# before counts only against itself, so nobody can lock the owner out of it
# (games.throttles.login_lockout_parameters, docs/reliability.md). The site's form and
# the admin's alike. Counted in the cache only (no rows), and the address only as a keyed
# hash (games.throttles.login_client).
AUTHENTICATION_BACKENDS = stack.AUTHENTICATION_BACKENDS
AXES_HANDLER = "axes.handlers.cache.AxesCacheHandler"
AXES_FAILURE_LIMIT = env_int("FT_LOGIN_FAILURES", 5, minimum=1)
FT_LOGIN_COOLOFF_MINUTES = env_int("FT_LOGIN_COOLOFF_MINUTES", 15, minimum=1)
AXES_COOLOFF_TIME = FT_LOGIN_COOLOFF_MINUTES / 60  # hours
AXES_LOCKOUT_PARAMETERS = "games.throttles.login_lockout_parameters"
AXES_CLIENT_IP_CALLABLE = "games.throttles.login_client"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "games.accounts.views.login_locked_out"
AXES_VERBOSE = False
if REDIS_URL is None:
    # The embedded defaults run one process, whose memory cache counts every attempt;
    # the check warns because several processes would each count their own.
    SILENCED_SYSTEM_CHECKS = ["axes.W001"]

# Content-Security-Policy (django-csp): scripts only from this site, never inline (blocks.py).
CONTENT_SECURITY_POLICY = CSP

ROOT_URLCONF = "ftsite.urls"

TEMPLATES = templates(BASE_DIR / "templates")

ASGI_APPLICATION = "ftsite.asgi.application"

# --- Database ----------------------------------------------------------------

# On PostgreSQL each process borrows its connections from a pool of its own (ftsite.dbpool):
# never more than DJANGO_DB_POOL_MAX at once, whatever the number of requests, sockets and
# threads; a thread past the ceiling waits up to DJANGO_DB_POOL_TIMEOUT seconds, then its
# request is answered 503 with Retry-After. DJANGO_DB_POOL_MIN stay open when idle; above
# them one unused connection is closed every DJANGO_DB_POOL_MAX_IDLE seconds (from the
# ceiling back to the minimum in (max - min) x that: 54 s by default). Size it so that the
# processes' ceilings, the workers' and a margin for people fit PostgreSQL's
# max_connections (docs/operations.md, "Database connections"). DJANGO_DB_POOL=false: a
# connection per thread instead, kept DJANGO_CONN_MAX_AGE seconds (behind PgBouncer, say).
# DJANGO_DB_APPLICATION_NAME names the process's connections in pg_stat_activity.
DB_POOL = env_bool("DJANGO_DB_POOL", True)
DATABASES = databases(
    DATABASE_URL,
    sqlite_path=BASE_DIR / "db.sqlite3",
    conn_max_age=env_int("DJANGO_CONN_MAX_AGE", 0 if DB_POOL else 60, minimum=0),
    lock_timeout_ms=env_int("DJANGO_DB_LOCK_TIMEOUT_MS", 10_000, minimum=0),
    pool=pool_options(
        min_size=env_int("DJANGO_DB_POOL_MIN", 2, minimum=0),
        max_size=env_int("DJANGO_DB_POOL_MAX", 20, minimum=1),
        timeout=env_seconds("DJANGO_DB_POOL_TIMEOUT", 10.0, maximum=300.0),
        max_idle=env_seconds("DJANGO_DB_POOL_MAX_IDLE", 3.0, maximum=3600.0),
        name=env_str("DJANGO_DB_APPLICATION_NAME"),
    )
    if DB_POOL
    else None,
    application_name=env_str("DJANGO_DB_APPLICATION_NAME"),
)

# The daily certification's budget per candidate (the solver settings above). On SQLite
# (`make run`, the browser tier: whether DATABASE_URL names the file or not) no beat runs
# ahead and a person waits for the first open of the day, so it is shorter there; on
# PostgreSQL the beat certifies ahead of time.
FT_DAILY_CERTIFY_SECONDS = env_seconds(
    "FT_DAILY_CERTIFY_SECONDS",
    2.0 if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3" else 10.0,
)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Auth --------------------------------------------------------------------

AUTH_USER_MODEL = "games.User"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
# Django's database sessions, their row read with SQL compiled once (every game socket
# reads its session: ftsite/sessions.py).
SESSION_ENGINE = "ftsite.sessions"

AUTH_PASSWORD_VALIDATORS = stack.AUTH_PASSWORD_VALIDATORS

# Outgoing e-mail (password resets): printed to the console (the server's log) when DEBUG
# is on, as on the embedded defaults; sent by SMTP otherwise (EMAIL_HOST and the rest from
# the environment), so a reset link never lands in a production log by default.
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1, maximum=65535)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Forty Thieves <noreply@localhost>")
# A reset link stays valid this long (Django's default is three days).
PASSWORD_RESET_TIMEOUT = env_int("FT_PASSWORD_RESET_SECONDS", 3 * 3600, minimum=300)

# --- Internationalisation ----------------------------------------------------

LANGUAGE_CODE = "en"
# The language chosen on the site's switch: a cookie like the session's (every cookie the
# site sets is SameSite=Lax, Secure in production; read by the server only).
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGES = [
    ("en", "English"),
    ("it", "Italiano"),
    ("nl", "Nederlands"),
    ("fi", "Suomi"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

# --- Static files ------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# The hashed manifest storage needs `collectstatic` to have run, so it is used only when
# DEBUG is off and we are not under a test runner (tests must pass without collectstatic).
_RUNNING_TESTS = "pytest" in sys.modules or sys.argv[1:2] == ["test"]
STORAGES = storages(manifest=not (DEBUG or _RUNNING_TESTS))

# Serve straight from the app/static directories (no collectstatic) in dev and tests.
WHITENOISE_USE_FINDERS = DEBUG or _RUNNING_TESTS
WHITENOISE_AUTOREFRESH = DEBUG
if DEBUG:
    # In development STATIC_ROOT usually does not exist yet; whitenoise need not say so.
    warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)

# --- Cache -------------------------------------------------------------------

# Rate limits and short-lived markers: Redis when REDIS_URL is set, so a limit holds across
# every server process; each process's own memory otherwise (make run).
CACHES = caches(REDIS_URL)

# The visitors' page store (ftsite.pagecache): seconds a signed-out visitor's page is served
# from the cache before it is rendered again (a result landing makes it stale at once).
# Only with Redis (one store for every process); 0 turns it off, as on the embedded defaults.
FT_PAGE_CACHE_SECONDS = env_int(
    "FT_PAGE_CACHE_SECONDS", 0 if REDIS_URL is None else 30, minimum=0, maximum=3600
)

# Rate limits: every FT_RATE_* limit (count/period), its default and what it counts are in
# ftsite/rates.py; each is parsed there once, now, into the Rate (count, seconds) that is the
# setting of its variable's name: no request parses one.
_RATES = rate_limits()
FT_RATE_SOCKET_MESSAGES = _RATES["FT_RATE_SOCKET_MESSAGES"]
FT_RATE_SOCKET_PACE = _RATES["FT_RATE_SOCKET_PACE"]
FT_RATE_HINTS = _RATES["FT_RATE_HINTS"]
FT_RATE_PRACTICE_STARTS = _RATES["FT_RATE_PRACTICE_STARTS"]
FT_RATE_API_USER = _RATES["FT_RATE_API_USER"]
FT_RATE_API_ANONYMOUS = _RATES["FT_RATE_API_ANONYMOUS"]
FT_RATE_ANALYSES = _RATES["FT_RATE_ANALYSES"]
FT_RATE_PASSWORD_RESETS = _RATES["FT_RATE_PASSWORD_RESETS"]
FT_RATE_ACCOUNT_FORMS = _RATES["FT_RATE_ACCOUNT_FORMS"]
FT_RATE_PASSWORD_CHANGES = _RATES["FT_RATE_PASSWORD_CHANGES"]
FT_RATE_SIGNUPS_ADDRESS = _RATES["FT_RATE_SIGNUPS_ADDRESS"]
FT_RATE_SIGNUPS_DEVICE = _RATES["FT_RATE_SIGNUPS_DEVICE"]
FT_RATE_GUESTS_ADDRESS = _RATES["FT_RATE_GUESTS_ADDRESS"]
FT_RATE_GUESTS_DEVICE = _RATES["FT_RATE_GUESTS_DEVICE"]
FT_RATE_TABLE_RESTARTS = _RATES["FT_RATE_TABLE_RESTARTS"]
FT_RATE_LEAGUE_ACTIONS = _RATES["FT_RATE_LEAGUE_ACTIONS"]
FT_RATE_DAY_FILES = _RATES["FT_RATE_DAY_FILES"]
FT_RATE_TABLE_SETTINGS = _RATES["FT_RATE_TABLE_SETTINGS"]
FT_RATE_DUELS = _RATES["FT_RATE_DUELS"]
FT_RATE_DUEL_QUEUE = _RATES["FT_RATE_DUEL_QUEUE"]
FT_RATE_ARENA_ACTIONS = _RATES["FT_RATE_ARENA_ACTIONS"]
FT_RATE_LEAGUE_ARENAS = _RATES["FT_RATE_LEAGUE_ARENAS"]

# A guest with no start, move or sign-in for this many days is deleted with its games
# (beat: games.purge_guests; the privacy page says so).
FT_GUEST_DAYS = env_int("FT_GUEST_DAYS", 30, minimum=1)
# The pool of proven-winnable practice deals ("winnable deals only"): solver nodes per
# seed tried (a node budget, not a clock: a seed's verdict and stars repeat on any machine)
# and how many deals per variant the fill keeps ready.
FT_POOL_NODES = env_int("FT_POOL_NODES", 200_000, minimum=100)
FT_POOL_TARGET = env_int("FT_POOL_TARGET", 50, minimum=0)

# Leagues: how many one player may be in (owned ones included), and how many members one
# league holds (its owner included). League boards filter the day's results by member in
# the database, which this bound keeps cheap.
FT_LEAGUES_PER_PLAYER = env_int("FT_LEAGUES_PER_PLAYER", 10, minimum=1, maximum=100)
FT_LEAGUE_MEMBERS = env_int("FT_LEAGUE_MEMBERS", 50, minimum=2, maximum=500)
# A league's own arenas (docs/arenas.md, "A league's arenas"): how many it may have not
# yet finished (upcoming or running) at once.
FT_LEAGUE_ARENAS_OPEN = env_int("FT_LEAGUE_ARENAS_OPEN", 3, minimum=1, maximum=50)

# Duels (docs/duels.md): the seconds between the pairing and the clock's start (both
# pages load the table), the grace a player whose every duel socket closed has before
# losing, how long a challenge link stays open (minutes), how many certified fresh deals
# the solver queue keeps ready per variant, and how long a queue entry lives without its
# page asking (seconds).
FT_DUEL_COUNTDOWN_SECONDS = env_int("FT_DUEL_COUNTDOWN_SECONDS", 5, minimum=0, maximum=60)
FT_DUEL_GRACE_SECONDS = env_int("FT_DUEL_GRACE_SECONDS", 60, minimum=5, maximum=600)
FT_DUEL_CHALLENGE_MINUTES = env_int("FT_DUEL_CHALLENGE_MINUTES", 30, minimum=1, maximum=1440)
FT_DUEL_RESERVE = env_int("FT_DUEL_RESERVE", 20, minimum=0, maximum=1000)
FT_DUEL_QUEUE_SECONDS = env_int("FT_DUEL_QUEUE_SECONDS", 30, minimum=5, maximum=600)

# Arenas (docs/arenas.md): the site's schedule makes one every FT_ARENA_EVERY_MINUTES (0:
# none) lasting FT_ARENA_MINUTES in rounds of FT_ARENA_ROUND_MINUTES, FT_ARENA_AHEAD_MINUTES
# before its start (so it is listed and joinable ahead); a round's games are made
# FT_ARENA_LEAD_SECONDS before its open (more than the sweep's 15 s, so the sweep is never
# late for an open).
FT_ARENA_EVERY_MINUTES = env_int("FT_ARENA_EVERY_MINUTES", 60, minimum=0, maximum=1440)
FT_ARENA_MINUTES = env_int("FT_ARENA_MINUTES", 45, minimum=5, maximum=600)
FT_ARENA_ROUND_MINUTES = env_int("FT_ARENA_ROUND_MINUTES", 5, minimum=1, maximum=60)
FT_ARENA_AHEAD_MINUTES = env_int("FT_ARENA_AHEAD_MINUTES", 30, minimum=0, maximum=1440)
FT_ARENA_LEAD_SECONDS = env_int("FT_ARENA_LEAD_SECONDS", 30, minimum=0, maximum=120)

# --- Channels ----------------------------------------------------------------

# FT_CHANNEL_LAYER_BATCH: how many messages a process takes from its inbox in one round
# trip (ftsite/channel_layer.py); 0 runs channels_redis's own receive, one message at a
# time (the baseline load.duels --layer compares against).
FT_CHANNEL_LAYER_BATCH = env_int("FT_CHANNEL_LAYER_BATCH", 200, minimum=0, maximum=10_000)
CHANNEL_LAYERS = channel_layers(REDIS_URL, batch=FT_CHANNEL_LAYER_BATCH)

# --- Celery (read by ftsite/celery.py with namespace "CELERY") ---------------

# Redis when there is one; otherwise every task runs in-process where it is sent.
CELERY_BROKER_URL, CELERY_RESULT_BACKEND, CELERY_TASK_ALWAYS_EAGER = celery_broker(REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
# See the solver settings above: rating inline would make starting a practice game wait.
FT_RATE_PRACTICE_ON_START = env_bool("FT_RATE_PRACTICE_ON_START", not CELERY_TASK_ALWAYS_EAGER)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Keep a worker's database connection across tasks, as a web process does across requests
# (ftsite/celery.py closes it when broken or older than CONN_MAX_AGE). Celery's fixup would
# otherwise reconnect for every task; this only bounds how many tasks one connection serves.
CELERY_DB_REUSE_MAX = env_int("CELERY_DB_REUSE_MAX", 10_000, minimum=0)
# A task that runs past its time limit is killed; a message not acknowledged within the
# visibility timeout is delivered again. The timeout must stay well above the limit, or a
# slow but healthy task would be run twice at once.
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 60, minimum=1)
CELERY_TASK_SOFT_TIME_LIMIT = max(1, CELERY_TASK_TIME_LIMIT - 5)
CELERY_VISIBILITY_TIMEOUT = env_int("CELERY_VISIBILITY_TIMEOUT", 3600, minimum=1)
# The time limit of the solver's Celery tasks (opening deals, batches): certifying one day may
# take FT_DAILY_MAX_CANDIDATES * FT_DAILY_CERTIFY_SECONDS in the worst case. By default 25
# minutes, or less if the visibility timeout is shorter (never below the ordinary limit).
FT_SOLVER_TASK_TIME_LIMIT = env_int(
    "FT_SOLVER_TASK_TIME_LIMIT",
    max(CELERY_TASK_TIME_LIMIT, min(1500, CELERY_VISIBILITY_TIMEOUT // 2)),
    minimum=1,
)
check_redelivery(
    visibility_timeout=CELERY_VISIBILITY_TIMEOUT,
    limits={
        "CELERY_TASK_TIME_LIMIT": CELERY_TASK_TIME_LIMIT,
        "FT_SOLVER_TASK_TIME_LIMIT": FT_SOLVER_TASK_TIME_LIMIT,
    },
)
# Which queue each task goes to, and the periodic tasks: static tables in ftsite/schedule.py
# (nothing in them comes from the environment).
CELERY_TASK_ROUTES = TASK_ROUTES

# The post-game analysis of a lost game (games.solver.postmortem), asked for on its replay:
# the solver gets FT_ANALYSIS_POSITION_SECONDS for each position it is asked about and the
# analysis FT_ANALYSIS_SECONDS in all. On the embedded defaults Celery runs in-process, so the
# request that asks waits for the analysis: a shorter budget there.
FT_ANALYSIS_SECONDS = env_seconds(
    "FT_ANALYSIS_SECONDS", 20.0 if CELERY_TASK_ALWAYS_EAGER else 60.0, maximum=600.0
)
FT_ANALYSIS_POSITION_SECONDS = env_seconds("FT_ANALYSIS_POSITION_SECONDS", 3.0, maximum=60.0)

# Fair play (docs/fairplay.md). The foresight analysis of each verified ranked win gets this
# many seconds of one core (0: off). Off by default on the embedded defaults, where Celery
# runs in-process and the analysis would hold up the socket that finished the game.
FT_FORESIGHT_SECONDS = env_seconds(
    "FT_FORESIGHT_SECONDS", 0.0 if CELERY_TASK_ALWAYS_EAGER else 60.0, maximum=600.0
)
# The sequential test (docs/fairplay.md, "Evidence over days"): every verified ranked game
# of every player steps their e-process on the fairplay queue (a game, won or lost, costs
# seconds of solver work); when it reaches FT_EVIDENCE_THRESHOLD their won results of the last
# FT_EVIDENCE_WINDOW_DAYS days go to review. Its null needs the deterministic certification
# (FT_DAILY_CERTIFY_NODES), so by default it is on exactly where that runs and a worker takes
# the fairplay queue (the production template, .env.example, sets both); on the embedded
# defaults a game's step would hold up the socket that finished it for seconds.
FT_EVIDENCE = env_bool("FT_EVIDENCE", FT_DAILY_CERTIFY_NODES > 0 and not CELERY_TASK_ALWAYS_EAGER)
FT_EVIDENCE_THRESHOLD = float(env_int("FT_EVIDENCE_THRESHOLD", 100, minimum=2))
FT_EVIDENCE_WINDOW_DAYS = env_int("FT_EVIDENCE_WINDOW_DAYS", 60, minimum=1, maximum=3660)
# A ranked attempt that turns at least this share of the stock and gives up within this many
# seconds is recorded as a scouting pattern (shown with any account linked to it).
# Whether a ranked result played at a machine's pace is held (leaderboards.fairplay.timing).
FT_PACE_CHECK = env_bool("FT_PACE_CHECK", True)
FT_SCOUT_SHARE = env_int("FT_SCOUT_PERCENT", 75, minimum=1, maximum=100) / 100
FT_SCOUT_SECONDS = env_int("FT_SCOUT_SECONDS", 600, minimum=1)
# A network link (same /24 or /64, with or without the browser string) holds a result only
# with a scout's sign: an attempt that turned most of the stock with at most this many other
# moves, or an account deleted (or created and given up) while the deal was open; or with
# the player's own evidence (an e-value) of at least FT_LINK_OWN_EVIDENCE. docs/fairplay.md.
FT_SCOUT_CARD_MOVES = env_int("FT_SCOUT_CARD_MOVES", 5, minimum=0)
# 50: a blind player whose draws are each worth one on average (the most the test allows)
# reaches it within a year about 1 % of the time (20: 3-4 %); docs/fairplay.md section 2.
FT_LINK_OWN_EVIDENCE = env_int("FT_LINK_OWN_EVIDENCE", 50, minimum=1)
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": CELERY_VISIBILITY_TIMEOUT}
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_ENABLE_UTC = True

CELERY_BEAT_SCHEDULE = BEAT_SCHEDULE

# --- Metrics -----------------------------------------------------------------

# Each web process serves Prometheus (ftsite.metrics) on this port of its own, never through
# the proxy (0: off, the default). The address defaults to the loopback; in compose.yaml,
# where Prometheus is another container, 0.0.0.0 on a port not published.
FT_METRICS_PORT = env_int("FT_METRICS_PORT", 0, minimum=0, maximum=65535)
FT_METRICS_ADDRESS = env_str("FT_METRICS_ADDRESS", "127.0.0.1")

# --- Security (production) ---------------------------------------------------

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
    # Served over HTTPS (the secure cookies say so): browsers must keep to it.
    if SESSION_COOKIE_SECURE:
        SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31_536_000, minimum=0)
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = logging_config(level=env_str("DJANGO_LOG_LEVEL", "INFO"))
