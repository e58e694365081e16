# The one image for every app service in compose.yaml: web (daphne: the sockets), pages
# (gunicorn: every other request), worker, beat, migrate.
FROM python:3.11-slim

# PYTHONPATH: the source tree in /app comes before site-packages, so settings find
# templates/ and static/ next to the code (BASE_DIR), as they do in development.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONPATH=/app

WORKDIR /app

# The packages and their dependencies, from the lock file alone (every file's hash checked;
# psycopg[binary] ships its own libpq, so no system packages are needed). The lock layer is
# cached until requirements.lock changes; the project then goes in without dependencies or
# a build environment of its own (setuptools is in the lock).
COPY requirements.lock ./
RUN pip install --require-hashes --no-deps -r requirements.lock
COPY pyproject.toml setup.py README.md ./
COPY ftsite ./ftsite
COPY games ./games
COPY leaderboards ./leaderboards
# The solver's compiled core (games/solver/csrc) is built in place, beside the sources that
# PYTHONPATH puts first, with a compiler that leaves in the same layer; where it cannot be
# built the solver runs its Python search (games/solver/core.py, the ft_solver_core gauge).
# libjemalloc2 stays: compose.yaml's socket processes preload it (ftsite/allocator.py).
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev libjemalloc2 \
    && pip install --no-deps --no-build-isolation . \
    && python setup.py build_ext --inplace \
    && apt-get purge -y --auto-remove gcc libc6-dev && rm -rf /var/lib/apt/lists/* build \
    && pip check

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
