# Developer entry points.  Everything runs from the project's own virtualenv in .venv.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv run test test-integration lint fmt clean

venv: $(STAMP)

# Re-install only when pyproject.toml is newer than the stamp.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e ".[dev]"
	touch $(STAMP)

run: venv
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py runserver 127.0.0.1:8000

# The unit tiers run on the embedded defaults; the integration tier then runs against the
# real PostgreSQL and Redis on this machine (it skips outside CI when they are down).
INTEGRATION_ENV := DATABASE_URL=postgres://postgres@127.0.0.1:5432/fortythieves \
	REDIS_URL=redis://127.0.0.1:6379/14 DJANGO_DEBUG=false \
	DJANGO_SECRET_KEY=integration-tests-only FT_DAILY_SECRET=integration-tests-only \
	DJANGO_ALLOWED_HOSTS=127.0.0.1,localhost DJANGO_SECURE_COOKIES=false

test: venv
	$(BIN)/python -m pytest -m "not integration"
	$(MAKE) --no-print-directory test-integration

test-integration: venv
	$(INTEGRATION_ENV) $(BIN)/python -m pytest -m integration tests/integration

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

fmt: venv
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis
