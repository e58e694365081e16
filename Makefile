# Developer entry points.  Everything runs from the project's own virtualenv in .venv.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv node_modules lock lock-check bundle run test test-js test-browser test-long test-integration \
	test-fuzz lint typecheck fmt clean messages

venv: $(STAMP)

# Every install comes from the lock files (docs/install.md): requirements.lock holds what the
# site runs on, requirements-dev.lock the same pins plus the tools and test libraries, each
# package pinned with the hashes of its files, so pip refuses anything else. Re-install only
# when a lock is newer than the stamp; the project itself goes in last, without its
# dependencies and without a build environment of its own (setuptools comes from the lock).
# setup.py builds the solver's compiled core (games/solver/csrc): a change to it, or to any C
# file or header there, reinstalls.
$(STAMP): requirements-dev.lock pyproject.toml setup.py $(wildcard games/solver/csrc/*.c games/solver/csrc/*.h)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r requirements-dev.lock
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	$(BIN)/python -m pip check
	touch $(STAMP)

# The board's JavaScript tools (package.json: tsc, eslint), installed the same way: only what
# package-lock.json names, each package checked against its integrity hash (npm ci), again
# only when the lock is newer than the stamp. npm comes with Node (20.19 or later).
NODE_STAMP := node_modules/.installed

node_modules: $(NODE_STAMP)

NODE_CHECK := const [major, minor] = process.versions.node.split(".").map(Number); \
	if (major < 20 || (major === 20 && minor < 19)) { \
	console.error("Node " + process.version + " is too old: eslint and tsc need 20.19 or later"); \
	process.exit(1); }

$(NODE_STAMP): package-lock.json package.json
	@node -e '$(NODE_CHECK)'
	npm ci --no-audit --no-fund
	touch $(NODE_STAMP)

# Refresh the lock files from pyproject.toml's ranges: `make lock` keeps every pin that still
# fits (a new dependency is added, nothing else moves); `make lock UPGRADE=1` takes the newest
# release each range allows. `make lock-check` (CI) fails when pyproject.toml and the locks
# disagree, and prints what a refresh would change without failing on it.
lock: venv
	UV=$(BIN)/uv .ci/lock compile $(if $(UPGRADE),--upgrade) .

lock-check: venv
	UV=$(BIN)/uv .ci/lock check

run: venv
	$(BIN)/python manage.py migrate --noinput
	# No beat runs here: open (and certify) today's deal and this week's challenge first.
	$(BIN)/python manage.py open_daily
	$(BIN)/python manage.py open_weekly
	# A few proven deals of every difficulty, so "winnable deals only" works at once.
	$(BIN)/python manage.py fill_practice_pool --starter
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
	$(MAKE) --no-print-directory test-js
	$(MAKE) --no-print-directory test-browser
	$(MAKE) --no-print-directory test-integration

# The board's pure modules' unit tests (tests/js) under Node's own runner; the browser tier
# runs the same files in Chromium (tests/browser/test_js_cases.py).
test-js: node_modules
	node --test tests/js/*.test.js

test-browser: venv
	$(BIN)/python -m pytest -m "browser and not integration and not serial" -n 2 --durations=15
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

lint: venv node_modules
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	npx --no-install eslint .

# mypy with django-stubs over games/, leaderboards/ and ftsite/ (strict on the engine and
# the solver), then the import contracts ([tool.importlinter] in pyproject.toml), then tsc
# over the board's scripts from their JSDoc types (tsconfig.json: checkJs, no output).
typecheck: venv node_modules
	$(BIN)/mypy
	$(BIN)/lint-imports
	npx --no-install tsc --noEmit -p .

fmt: venv
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Translations: refresh the Italian catalogs from the sources, then compile them. The .mo
# files are committed, so a fresh clone runs without gettext; tests/test_i18n.py checks
# that they match the .po files. The board's scripts translate through t() and, for
# plurals, tn() (see static/js/board/i18n.js), which xgettext is told about with
# --keyword=t and --keyword=tn:1,2; makemessages has no option for that, hence the
# subclass below. The JS tests' t() calls (tests/js) are no text of the site's.
MESSAGES_IGNORE := --ignore=.venv --ignore=test-results --ignore=staticfiles --ignore=node_modules
define JS_MAKEMESSAGES
import django
django.setup()
from django.core.management import call_command
from django.core.management.commands.makemessages import Command
class JsCommand(Command):
    xgettext_options = [*Command.xgettext_options, "--keyword=t", "--keyword=tn:1,2"]
from django.conf import settings
call_command(JsCommand(), domain="djangojs",
             locale=[code for code, _name in settings.LANGUAGES if code != "en"],
             ignore_patterns=[".venv", "test-results", "staticfiles", "node_modules", "tests"])
endef
export JS_MAKEMESSAGES

# Every language of settings.LANGUAGES but English (the source language) has a catalog: a
# new language is a line in LANGUAGES, its catalogs and its glossary (docs/glossary-*.md).
LOCALES = $(shell $(BIN)/python -c "import ftsite.settings as s; print(' '.join('-l ' + c for c, _ in s.LANGUAGES if c != 'en'))")

messages: venv
	$(BIN)/python manage.py makemessages $(LOCALES) $(MESSAGES_IGNORE)
	DJANGO_SETTINGS_MODULE=ftsite.settings $(BIN)/python -c "$$JS_MAKEMESSAGES"
	$(BIN)/python manage.py compilemessages $(LOCALES) $(MESSAGES_IGNORE)

# The play table's one script and one stylesheet, and every other page's one stylesheet
# (static/dist, committed, so `make run` needs
# no Node): esbuild bundles static/js/bundles/table.js and static/css/bundles/table.css with
# what they import, minified (the sources stay served under /static/js for the browser's
# tools: no source map is committed). Run after changing
# static/js or static/css; tests/test_bundle.py fails when static/dist is not what this makes.
BUNDLE_DIR ?= static/dist
ESBUILD := npx --no-install esbuild --bundle --minify --log-level=warning \
	--target=es2022,chrome100,firefox100,safari15 --legal-comments=none --external:*.svg --external:*.png

bundle: node_modules
	$(ESBUILD) --format=esm static/js/bundles/table.js --outfile=$(BUNDLE_DIR)/table.js
	$(ESBUILD) --format=esm static/js/bundles/duel.js --outfile=$(BUNDLE_DIR)/duel.js
	$(ESBUILD) static/css/bundles/table.css --outfile=$(BUNDLE_DIR)/table.css
	$(ESBUILD) static/css/bundles/site.css --outfile=$(BUNDLE_DIR)/site.css

clean:
	rm -rf $(VENV) node_modules staticfiles .pytest_cache .ruff_cache .hypothesis .mypy_cache \
		.import_linter_cache
