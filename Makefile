# The two set-up commands of the README. Each does all of its own set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: run test chromium postgresql

# The hall on an embedded SQLite file under ./var/; it prints the address to open.
run: $(STAMP)
	$(VENV)/bin/parlour serve --db sqlite:///var/parlour.sqlite3

test: $(STAMP) chromium postgresql
	$(PY) -m pytest

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,cluster,postgres,rl]'
	touch $(STAMP)

# Browser tests drive Debian's Chromium; install it when it is missing and we can (root, apt).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's chromium for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "chromium is missing and cannot be installed here: browser tests will be skipped"; fi; }

# The PostgreSQL store tests start a throwaway server of their own from PostgreSQL's programs;
# install them when they are missing and we can (root, apt).
postgresql:
	@ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's postgresql for the store's tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	  else echo "PostgreSQL is missing and cannot be installed here: its store tests will be skipped"; fi; }
