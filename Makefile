# Two entry points: `make run` starts the bot, `make test` runs every check.
# Both create .venv and install the project on first use.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# Every benchmark script, run as `python -m bench.NAME` (see bench/README.md).
BENCHES := engine service clicks load starts backends store_clicks crashes pictures solver boards posts shards pars hints hints_load activity wakes

.PHONY: run test lint bench bench-quick screens clean catalogs client

# The languages' catalogs (language/locale, docs/languages.md): each .po compiled to its .mo, which
# is not committed (a build product; bot.i18n compiles a missing or older one in memory).
LOCALE := language/locale
PO := $(wildcard $(LOCALE)/*/LC_MESSAGES/messages.po)
MO := $(PO:.po=.mo)

# The native searches (setup.py) are compiled by the install: a changed C file reinstalls.
NATIVE := $(wildcard rules/*/_native.c)

$(STAMP): pyproject.toml setup.py $(NATIVE)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP) $(MO) client
	$(BIN)/python -m bot

test: $(STAMP) $(MO) client
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports

# The Activity's browser table (web/client, docs/activity-client.md), built into web/dist (not
# committed): npm ci when node_modules is missing or older than the lock (the packages only;
# nothing the built page loads comes from the network), then tsc --noEmit and esbuild, then
# the card faces (tools/faces.py). Needs Node.js 18+ and npm.
CLIENT := web/client
CLIENT_STAMP := $(CLIENT)/node_modules/.installed
CLIENT_SOURCES := $(shell find $(CLIENT)/src -type f 2>/dev/null) $(CLIENT)/build.mjs \
	$(CLIENT)/tsconfig.json
CLIENT_BUILT := web/dist/index.html
FACES_BUILT := web/dist/faces/.built

$(CLIENT_STAMP): $(CLIENT)/package.json $(CLIENT)/package-lock.json
	cd $(CLIENT) && npm ci --no-audit --no-fund
	touch $@

$(CLIENT_BUILT): $(CLIENT_STAMP) $(CLIENT_SOURCES)
	cd $(CLIENT) && npm run --silent build

$(FACES_BUILT): $(STAMP) tools/faces.py bot/pictures/faces.py
	$(BIN)/python -m tools.faces
	touch $@

# Without npm the bot still runs and the tests still run (the browser tests skip, or fail under
# REQUIRE_BROWSER=1 as in CI): only the Activity's page is missing, and this says how to build it.
ifneq ($(shell command -v npm 2>/dev/null),)
client: $(CLIENT_BUILT) $(FACES_BUILT)
else
client:
	@echo "npm not found: the Activity's page (web/dist) is not built; everything else works." \
		"To build it, install Node.js 18+ and npm (Debian: sudo apt-get install nodejs npm)," \
		"then make client."
endif

bench: $(STAMP)
	@set -e; for name in $(BENCHES); do \
		echo "== python -m bench.$$name"; $(BIN)/python -m bench.$$name; done

# Each benchmark at a tiny size (seconds): CI runs this so that none can break unseen.
bench-quick: $(STAMP)
	@set -e; for name in $(BENCHES); do \
		echo "== python -m bench.$$name --quick"; $(BIN)/python -m bench.$$name --quick; done

# docs/screens/: every screen as Discord draws it, at desktop and phone width (tools/screens),
# and docs/screens/activity/: each game's table in the Activity at both widths, taken by the
# browser tests (tests/client/test_screens.py) from the built page on the real server.
# Needs Debian's Chromium: installed here with apt when missing and running as root.
screens: $(STAMP) client
	@if [ ! -x /usr/bin/chromium ] && ! command -v chromium >/dev/null; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update && apt-get install -y chromium fonts-noto-core fonts-noto-color-emoji; \
		else \
			echo "Chromium is missing: sudo apt-get install chromium fonts-noto-core fonts-noto-color-emoji"; \
			exit 2; \
		fi; \
	fi
	$(BIN)/python -m tools.screens
	$(BIN)/python -m tools.screens --lang fr
	UPDATE_SCREENS=1 $(BIN)/python -m pytest -q tests/client/test_screens.py

$(LOCALE)/%/LC_MESSAGES/messages.mo: $(LOCALE)/%/LC_MESSAGES/messages.po $(STAMP)
	$(BIN)/pybabel compile -D messages -i $< -o $@ -l $*

# Extract every marked string and the slash commands' strings into messages.pot, bring every
# language's .po up to date with it (new messages empty, changed ones fuzzy, gone ones
# dropped: tests/bot/test_catalogs.py fails until each is translated), then compile them.
catalogs: $(STAMP)
	$(BIN)/python -m tools.catalogs
	$(BIN)/pybabel update -D messages -i $(LOCALE)/messages.pot -d $(LOCALE) \
		--ignore-obsolete --width 100
	$(MAKE) $(MO)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis .import_linter_cache web/dist \
		$(CLIENT)/node_modules
