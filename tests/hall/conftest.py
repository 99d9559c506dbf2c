"""Fixtures for the hall's tests: an app on a fresh SQLite file with a hand-moved clock.

With PARLOUR_TEST_HALL=cluster, every app is instead one of several hall processes (docs/scaling.md)
on a throwaway PostgreSQL and Redis, and tests/hall runs all its tests that way:

    PARLOUR_TEST_HALL=cluster .venv/bin/python -m pytest tests/hall

(test_on_postgres_and_redis.py runs a part of them that way in every run.)
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent))

from hallkit import CHEAP_ARGON2ID, CLUSTER_SECRET, HALL_SEED  # noqa: E402
from postgres_server import throwaway_postgres, why_not  # noqa: E402
from redis_server import RedisServer, throwaway_redis  # noqa: E402
from redis_server import why_not as why_no_redis  # noqa: E402
from secret_game import SECRETS  # noqa: E402

from parlour.games import all_games  # noqa: E402
from parlour.hall import create_app  # noqa: E402
from parlour.hall.notify import NotifyConfig  # noqa: E402
from parlour.hall.quotas import Limits  # noqa: E402
from parlour.hall.store import SqlStore  # noqa: E402

pytestmark = pytest.mark.timeout(30)


class FakeClock:
    """Time that moves only when a test says so."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.time = now

    def now(self) -> float:
        return self.time

    def advance(self, seconds: float) -> None:
        self.time += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def games() -> dict[str, Any]:
    return dict(all_games(), secrets=SECRETS)


@pytest.fixture
def hall_redis(request: pytest.FixtureRequest) -> str | None:
    """Redis's URL when the hall's apps are to be processes of a cluster, on PostgreSQL and Redis
    (PARLOUR_TEST_HALL=cluster, or a module that overrides this fixture); None: a single process
    on SQLite."""
    if os.environ.get("PARLOUR_TEST_HALL") != "cluster":
        return None
    return request.getfixturevalue("session_redis").url


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite store brought up to date once for the session, closed: each test's store starts as a
    copy of it, the same schema, without running every migration again for every app (about a tenth
    of a second each, mostly fsyncs; tests/hall/test_migrations.py runs them on stores of its own)."""
    path = tmp_path_factory.mktemp("migrated") / "hall.sqlite3"
    SqlStore(f"sqlite:///{path}").close()
    assert [file.name for file in path.parent.iterdir()] == [path.name]  # no WAL left beside it
    return path


@pytest.fixture
def db_url(tmp_path: Path, hall_redis: str | None, request: pytest.FixtureRequest) -> str:
    if hall_redis is not None:
        from test_postgres import empty_database

        return empty_database(request.getfixturevalue("postgres_url"))
    shutil.copyfile(request.getfixturevalue("migrated_sqlite"), tmp_path / "hall.sqlite3")
    return f"sqlite:///{tmp_path / 'hall.sqlite3'}"


@pytest.fixture
def make_client(db_url: str, games: dict[str, Any], clock: FakeClock, hall_redis: str | None
                ) -> Iterator[Callable[[], TestClient]]:
    """Open a client on the app (its lifespan runs); each call is a fresh app on the same file,
    as after a restart. As a process of a cluster (``hall_redis``), the app before is stopped
    first: a restart, which gives up its rooms' leases (two apps of a test cannot forward to each
    other: they listen on no port)."""
    opened: list[tuple[TestClient, SqlStore]] = []

    def make(limits: Limits | None = None, notify: NotifyConfig | None = None) -> TestClient:
        cluster = None
        store = SqlStore(db_url)
        if hall_redis is not None:
            from parlour.hall.cluster.node import Node

            while opened:
                before, its_store = opened.pop()
                before.__exit__(None, None, None)
                its_store.close()
            cluster = Node(store, hall_redis, "testserver:80", secret=CLUSTER_SECRET)
        client = TestClient(create_app(store, games, clock, limits=limits, password_hasher=CHEAP_ARGON2ID,
                                       seed=HALL_SEED, cluster=cluster, notify=notify))
        client.__enter__()
        opened.append((client, store))
        return client

    yield make
    for client, store in reversed(opened):
        client.__exit__(None, None, None)
        store.close()


@pytest.fixture
def client(make_client: Callable[[], TestClient]) -> TestClient:
    return make_client()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL database for the store's tests: PARLOUR_TEST_POSTGRES_URL's if set, else a
    throwaway server started here for the session (skipped, with the reason, when none can be)."""
    given = os.environ.get("PARLOUR_TEST_POSTGRES_URL")
    if given:
        yield given
        return
    reason = why_not()
    if reason is not None:
        pytest.skip(f"no PostgreSQL for the store's tests: {reason}")
    with throwaway_postgres() as url:
        yield url


def _redis() -> Iterator[RedisServer]:
    """A throwaway Redis; the test is skipped, with the reason, when none can start here."""
    reason = why_no_redis()
    if reason is not None:
        pytest.skip(f"no Redis for the multi-process hall's tests: {reason}")
    with throwaway_redis() as server:
        yield server


@pytest.fixture(scope="session")
def session_redis() -> Iterator[RedisServer]:
    """A throwaway Redis for the session's hall apps that run as processes of a cluster."""
    yield from _redis()


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """A throwaway Redis of this test's own (it may restart it)."""
    yield from _redis()


@pytest.fixture
def cluster_folder() -> Iterator[Path]:
    """A folder for ``parlour cluster`` (tests/hall/clusterkit.py) that PostgreSQL's own user can
    reach (pytest's tmp_path is private to root)."""
    path = Path(tempfile.mkdtemp(prefix="parlour-cluster-test-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)
