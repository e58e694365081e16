# The one image for every app service in compose.yaml: web (daphne), worker, beat, migrate.
FROM python:3.11-slim

# PYTHONPATH: the source tree in /app comes before site-packages, so settings find
# templates/ and static/ next to the code (BASE_DIR), as they do in development.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONPATH=/app

WORKDIR /app

# The packages and their dependencies (psycopg[binary] ships its own libpq, so no
# system packages are needed).
COPY pyproject.toml README.md ./
COPY ftsite ./ftsite
COPY games ./games
COPY leaderboards ./leaderboards
RUN pip install .

# Only what the site needs at run time: no .venv, no local database, no .env.
COPY manage.py ./
COPY templates ./templates
COPY static ./static

# Run as an unprivileged user. staticfiles/ is created here so that the named volume
# mounted on it (filled by the migrate service's collectstatic) belongs to that user.
RUN useradd --create-home --uid 10001 app \
    && mkdir -p /app/staticfiles \
    && chown -R app:app /app/staticfiles
USER app

EXPOSE 8000
CMD ["daphne", "-b", "0.0.0.0", "-p", "8000", "ftsite.asgi:application"]
