# Developer entry points.  Everything runs from the project's own virtualenv in .venv.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv run test test-browser test-long test-integration test-fuzz lint typecheck fmt clean messages

venv: $(STAMP)

# Re-install only when pyproject.toml is newer than the stamp.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e ".[dev]"
	touch $(STAMP)

run: venv
	$(BIN)/python manage.py migrate --noinput
	# No beat runs here: open (and certify) today's deal and this week's challenge first.
	$(BIN)/python manage.py open_daily
	$(BIN)/python manage.py open_weekly
	$(BIN)/python manage.py runserver 127.0.0.1:8000

# The unit tiers run on the embedded defaults; the integration tier then runs against the
# real PostgreSQL and Redis on this machine (it skips outside CI when they are down).
INTEGRATION_ENV := DATABASE_URL=postgres://postgres@127.0.0.1:5432/fortythieves \
	REDIS_URL=redis://127.0.0.1:6379/14 DJANGO_DEBUG=false \
	DJANGO_SECRET_KEY=integration-tests-only FT_DAILY_SECRET=integration-tests-only \
	DJANGO_ALLOWED_HOSTS=127.0.0.1,localhost DJANGO_SECURE_COOKIES=false

# The unit tier runs on both cores (pytest-xdist: it is CPU-bound and shares nothing). The
# browser tier too, each worker with its own live server and database, but its `serial`
# tests (tap pace, double-click gaps, a press within a slide) then run alone: they measure
# what a person feels. FT_BROWSER_LONG=1 adds the pace tests' other cases (make test-long).
test: venv
	$(BIN)/python -m pytest -m "not integration and not browser" -n 2
	$(MAKE) --no-print-directory test-browser
	$(MAKE) --no-print-directory test-integration

test-browser: venv
	$(BIN)/python -m pytest -m "browser and not integration and not serial" -n 2
	$(BIN)/python -m pytest -m "browser and not integration and serial"

test-long: venv
	FT_BROWSER_LONG=1 $(BIN)/python -m pytest -m "browser and not integration and serial"

# The integration tier on two workers too, a test file each at a time (a file's servers,
# workers and fault suite stay in one process): most of its time is spent waiting on the
# processes it starts. Each worker has its own test database (pytest-django) and Redis
# database (tests/support/worker_redis.py: 14 and 15).
test-integration: venv
	$(INTEGRATION_ENV) $(BIN)/python -m pytest -p tests.support.worker_redis -m integration \
		-n 2 --dist loadfile tests/integration

# The fuzz tier's long run (docs/reliability.md, "The fuzz tier"): CI fuzzes every URL
# pattern and API operation with FT_FUZZ_EXAMPLES=2; a release, or a change to a view, wants
# more (about 14 min at 25 on this 2-core machine; make test-fuzz FUZZ_EXAMPLES=25).
FUZZ_EXAMPLES ?= 200
test-fuzz: venv
	FT_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(INTEGRATION_ENV) \
		$(BIN)/python -m pytest -m integration tests/integration/test_fuzz.py

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# mypy with django-stubs over games/, leaderboards/ and ftsite/ (strict on the engine and
# the solver), then the import contracts ([tool.importlinter] in pyproject.toml).
typecheck: venv
	$(BIN)/mypy
	$(BIN)/lint-imports

fmt: venv
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Translations: refresh the Italian catalogs from the sources, then compile them. The .mo
# files are committed, so a fresh clone runs without gettext; tests/test_i18n.py checks
# that they match the .po files. The board's scripts translate through t() (see
# static/js/board/i18n.js), which xgettext is told about with --keyword=t; makemessages
# has no option for that, hence the subclass below.
MESSAGES_IGNORE := --ignore=.venv --ignore=test-results --ignore=staticfiles --ignore=node_modules
define JS_MAKEMESSAGES
import django
django.setup()
from django.core.management import call_command
from django.core.management.commands.makemessages import Command
class JsCommand(Command):
    xgettext_options = [*Command.xgettext_options, "--keyword=t"]
call_command(JsCommand(), domain="djangojs", locale=["it"],
             ignore_patterns=[".venv", "test-results", "staticfiles", "node_modules"])
endef
export JS_MAKEMESSAGES

messages: venv
	$(BIN)/python manage.py makemessages -l it $(MESSAGES_IGNORE)
	DJANGO_SETTINGS_MODULE=ftsite.settings $(BIN)/python -c "$$JS_MAKEMESSAGES"
	$(BIN)/python manage.py compilemessages -l it $(MESSAGES_IGNORE)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis .mypy_cache \
		.import_linter_cache
