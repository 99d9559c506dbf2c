# The two set-up commands of the README. Each does all of its own set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: run test chromium

# The hall on an embedded SQLite file under ./var/; it prints the address to open.
run: $(STAMP)
	$(VENV)/bin/parlour serve --db sqlite:///var/parlour.sqlite3

test: $(STAMP) chromium
	$(PY) -m pytest

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,cluster]'
	touch $(STAMP)

# Browser tests drive Debian's Chromium; install it when it is missing and we can (root, apt).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's chromium for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "chromium is missing and cannot be installed here: browser tests will be skipped"; fi; }
