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

# PyICU (names compared by their confusable skeleton, hall/text.py) builds against ICU's headers:
# install them (and pkg-config, a C++ compiler) when they are missing and we can (root, apt).
icu:
	@{ pkg-config --exists icu-i18n 2>/dev/null && command -v g++ >/dev/null 2>&1; } || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's libicu-dev, pkg-config and g++ to build PyICU"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libicu-dev pkg-config g++ >/dev/null; \
	  else echo "libicu-dev, pkg-config or g++ is missing and cannot be installed here: PyICU will not build"; fi; }

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

# The multi-process hall's tests start a throwaway Redis of their own (and, later, nginx in front of
# several halls); install Debian's when they are missing and we can (root, apt).
redis:
	@command -v redis-server >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's redis-server for the multi-process hall's tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null; \
	  else echo "redis-server is missing and cannot be installed here: its tests will be skipped"; fi; }

nginx:
	@command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's nginx for the multi-process hall's tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null; \
	  else echo "nginx is missing and cannot be installed here: its tests will be skipped"; fi; }

# The cg-live: tests compile the CodinGame level-5 boss (../shared/anchors/cg-patchwork/Boss5.java)
# with Java 17; install Debian's JDK when it is missing and we can (root, apt).
java:
	@command -v javac >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's openjdk-17-jdk-headless for the cg-live: tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jdk-headless >/dev/null; \
	  else echo "javac is missing and cannot be installed here: the CodinGame boss tests will be skipped"; fi; }

# The metrics test scrapes a hall with a real Prometheus (tests/hall/test_metrics.py); install
# Debian's when it is missing and we can (root, apt).
prometheus:
	@command -v prometheus >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's prometheus for the metrics test"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq prometheus >/dev/null; \
	  else echo "prometheus is missing and cannot be installed here: its test will be skipped"; fi; }

# The image's test builds the Containerfile with podman on a Debian base made by mmdebstrap (no
# registry needed) and runs it with runc (tests/hall/test_container.py); install them when missing
# and we can (root, apt).
containers:
	@{ command -v podman && command -v mmdebstrap && command -v runc; } >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's podman, mmdebstrap and runc for the image's test"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman mmdebstrap runc >/dev/null; \
	  else echo "podman, mmdebstrap or runc is missing and cannot be installed here: the image's test will be skipped"; fi; }
