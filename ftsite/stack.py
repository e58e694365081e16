"""The site's static component tables, read by ``ftsite/settings.py`` under the same names:
the installed apps, the middleware in the order each must run, the authentication
backends and the password validators (nothing here depends on the environment)."""

from __future__ import annotations

from typing import Any

INSTALLED_APPS: list[str] = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "csp",
    "axes",
    # Serves the interactive API docs' assets locally: no CDN at run time.
    "ninja",
    "games",
    "leaderboards",
]

MIDDLEWARE: list[str] = [
    "django.middleware.security.SecurityMiddleware",
    # Before anything reads the request: a NUL in a path, query, form or cookie is refused
    # or dropped here (PostgreSQL cannot store it; games/input_guard.py).
    "games.input_guard.InputGuardMiddleware",
    "ftsite.csp.CSPMiddleware",  # django-csp's, its policy built once (ftsite/csp.py)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A signed-in account's own language wins (games/accounts/language.py).
    "games.accounts.language.AccountLanguageMiddleware",
    # The ft_device cookie and fair-play sightings of signed-in users (games/privacy/middleware.py).
    "games.privacy.middleware.DeviceMiddleware",
    # Visitors' pages from the shared cache, each with its own CSRF token (ftsite/pagecache.py):
    # after the user and the device cookie are known, before the messages are.
    "ftsite.pagecache.PageCacheMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "games.privacy.middleware.ApiJsonErrorsMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into its 429 page.
    "axes.middleware.AxesMiddleware",
]

#: django-axes first, so a locked-out username or address never reaches the password check.
AUTHENTICATION_BACKENDS: list[str] = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS: list[dict[str, Any]] = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
