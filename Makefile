# The two set-up commands of the README. Each does all of its own set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
BASE_STAMP := $(VENV)/.base-stamp

.PHONY: run cluster test check chromium postgresql redis nginx icu java prometheus containers
SERVERS ?= 2

# The hall on an embedded SQLite file under ./var/; it prints the address to open. Playing needs only
# the base package: the extras (tests, cluster, PostgreSQL, learning agents) come with make test.
run: $(BASE_STAMP)
	$(VENV)/bin/parlour serve --db sqlite:///var/parlour.sqlite3

# A local cluster: PostgreSQL, Redis and nginx in front of $(SERVERS) halls, everything under
# ./var/cluster/ (make cluster SERVERS=3); Ctrl-C stops it all. It prints the address to open.
cluster: $(STAMP) postgresql redis nginx
	$(VENV)/bin/parlour cluster --servers $(SERVERS) --dir var/cluster

test: check chromium postgresql redis nginx java prometheus containers
	$(PY) -m pytest

# What the code declares, checked: ruff's rules, mypy's types and the import contracts (pyproject.toml).
check: $(STAMP)
	$(VENV)/bin/ruff check src tests examples
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

# What playing needs: the base package alone (make run); PyICU in it builds against ICU's headers.
$(BASE_STAMP): pyproject.toml | icu
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $(BASE_STAMP)

# Everything else too: the tests, the cluster, PostgreSQL and the learning agents' libraries.
$(STAMP): $(BASE_STAMP)
	$(PY) -m pip install --quiet -e '.[test,cluster,postgres,rl,notify]'
	touch $(STAMP)

# The Debian packages some tests need, installed when they are missing and we can (root, apt); else
# those tests are skipped. $(call debian,CHECK,PACKAGES,INSTALLING,MISSING): CHECK is the shell test
# that they are there, INSTALLING and MISSING what is said either way ($(comma) for a comma).
comma := ,
define debian
@$(1) || { \
  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
    echo "$(3)"; \
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2) >/dev/null; \
  else echo "$(4)"; fi; }
endef

# PyICU (names compared by their confusable skeleton, hall/text.py) builds against ICU's headers.
icu:
	$(call debian,{ pkg-config --exists icu-i18n 2>/dev/null && command -v g++ >/dev/null 2>&1; },libicu-dev pkg-config g++,installing Debian's libicu-dev$(comma) pkg-config and g++ to build PyICU,libicu-dev$(comma) pkg-config or g++ is missing and cannot be installed here: PyICU will not build)

# Browser tests drive Debian's Chromium.
chromium:
	$(call debian,command -v chromium >/dev/null 2>&1,chromium,installing Debian's chromium for the browser tests,chromium is missing and cannot be installed here: browser tests will be skipped)

# The PostgreSQL store tests start a throwaway server of their own from PostgreSQL's programs.
postgresql:
	$(call debian,ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1,postgresql,installing Debian's postgresql for the store's tests,PostgreSQL is missing and cannot be installed here: its store tests will be skipped)

# The multi-process hall's tests start a throwaway Redis of their own, and nginx in front of several halls.
redis:
	$(call debian,command -v redis-server >/dev/null 2>&1,redis-server,installing Debian's redis-server for the multi-process hall's tests,redis-server is missing and cannot be installed here: its tests will be skipped)

nginx:
	$(call debian,command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx,nginx,installing Debian's nginx for the multi-process hall's tests,nginx is missing and cannot be installed here: its tests will be skipped)

# The cg-live: tests compile the CodinGame level-5 boss (../shared/anchors/cg-patchwork/Boss5.java) with Java 17.
java:
	$(call debian,command -v javac >/dev/null 2>&1,openjdk-17-jdk-headless,installing Debian's openjdk-17-jdk-headless for the cg-live: tests,javac is missing and cannot be installed here: the CodinGame boss tests will be skipped)

# The metrics test scrapes a hall with a real Prometheus (tests/hall/test_metrics.py).
prometheus:
	$(call debian,command -v prometheus >/dev/null 2>&1,prometheus,installing Debian's prometheus for the metrics test,prometheus is missing and cannot be installed here: its test will be skipped)

# The image's test builds the Containerfile with podman on a Debian base made by mmdebstrap (no
# registry needed) and runs it with runc (tests/hall/test_container.py).
containers:
	$(call debian,{ command -v podman && command -v mmdebstrap && command -v runc; } >/dev/null 2>&1,podman mmdebstrap runc,installing Debian's podman$(comma) mmdebstrap and runc for the image's test,podman$(comma) mmdebstrap or runc is missing and cannot be installed here: the image's test will be skipped)
