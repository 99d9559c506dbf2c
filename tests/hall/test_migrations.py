"""The store's schema is versioned: a database made before migrations (main at 655da15, the
fixtures of tests/hall/fixtures/) is brought up to date, on SQLite and on PostgreSQL, and the
hall finds every room and every action in it."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from hallkit import Socket
from test_postgres import empty_database

from parlour.cli import main as parlour
from parlour.hall.store import SqlStore, make_engine, metadata, migrations
from parlour.hall.store.migrations import SchemaError

FIXTURES = Path(__file__).parent / "fixtures"
# What the fixture holds (tests/hall/fixtures/make_old_store.py made it)
ROOMS = {"KUYWKA": ("patchwork", "over", 38), "JXDNKJ": ("dinosaurs", "over", 74),
         "AHCENV": ("patchwork", "playing", 2), "JRMKYY": ("palace", "waiting", 0)}


def rows(url: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    engine = make_engine(url)
    with engine.connect() as connection:
        # the fixture's columns: later revisions add some (0005: rematch), and these must stay as they were
        rooms = [tuple(r) for r in connection.execute(sa.text(
            "SELECT code, game, players, options, seed, status, turn_timer, host_token, seats, created"
            " FROM rooms ORDER BY code"))]
        actions = [tuple(r) for r in connection.execute(sa.text("SELECT * FROM actions ORDER BY code, turn"))]
    engine.dispose()
    return rooms, actions


@pytest.fixture(params=["sqlite", "postgresql"])
def old_store(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a database as main at 655da15 left it."""
    if request.param == "sqlite":
        path = tmp_path / "old.sqlite3"
        shutil.copy(FIXTURES / "store-655da15.sqlite3", path)
        return f"sqlite:///{path}"
    url = empty_database(request.getfixturevalue("postgres_url"))
    dump = (FIXTURES / "store-655da15.postgres.sql").read_text(encoding="utf-8")
    # psql's own commands (\restrict) are not SQL; the dump's search_path stays on its connection
    sql = "\n".join(line for line in dump.splitlines() if not line.startswith("\\"))
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        connection.exec_driver_sql(sql)
    engine.dispose()
    return url


@pytest.fixture
def db_url(old_store: str) -> str:
    return old_store


def test_an_old_store_is_upgraded_and_keeps_every_room_and_action(old_store: str,
                                                                  make_client: Callable[[], Any]):
    before = rows(old_store)
    assert {row[0]: (row[1], row[5]) for row in before[0]} == {code: room[:2] for code, room in ROOMS.items()}
    store = SqlStore(old_store)
    assert store.upgraded == migrations.revisions()[1:]  # stamped at 0001, then upgraded
    loaded = {room.code: room for room in store.load()}
    store.close()
    assert rows(old_store) == before
    assert {code: (r.game, r.status, len(r.actions)) for code, r in loaded.items()} == ROOMS
    assert [(a.turn, a.seat, a.by) for a in loaded["AHCENV"].actions] == [(0, 0, "player"), (1, 1, "timer")]
    engine = make_engine(old_store)
    with engine.connect() as connection:
        assert migrations.current(connection) == migrations.head()
    engine.dispose()

    client = make_client()  # the hall on the upgraded store: every room replays
    for code, (game, status, actions) in ROOMS.items():
        room = client.get(f"/api/rooms/{code}").json()
        assert (room["game"], room["status"]) == (game, status)
        if status == "over":
            assert len(client.get(f"/api/rooms/{code}/replay").json()["actions"]) == actions
    assert [seat["name"] for seat in client.get("/api/rooms/AHCENV").json()["seats"]] == ["Zoë", "Bo <b>"]
    with Socket(client, "JRMKYY") as someone:  # the lobby lists a waiting room with someone in it
        someone.hello()
        assert "JRMKYY" in [room["code"] for room in client.get("/api/rooms").json()]


def test_an_old_store_is_refused_in_words_when_not_to_be_upgraded(old_store: str, capsys):
    before = rows(old_store)
    with pytest.raises(SchemaError, match="parlour db upgrade"):
        SqlStore(old_store, upgrade=False)
    assert parlour(["serve", "--no-upgrade", "--db", old_store]) == 2
    assert "run `parlour db upgrade --db URL` first" in capsys.readouterr().err
    assert rows(old_store) == before
    engine = make_engine(old_store)
    with engine.connect() as connection:
        assert migrations.current(connection) is None
    engine.dispose()


def test_a_store_of_a_newer_parlour_is_refused(db_url: str):
    SqlStore(db_url).close()
    engine = make_engine(db_url)
    with engine.begin() as connection:
        connection.execute(sa.text("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(SchemaError, match="a newer Parlour made it"):
        SqlStore(db_url)
    engine.dispose()


def test_foreign_tables_without_a_version_are_left_alone(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(sa.text("CREATE TABLE rooms (code TEXT PRIMARY KEY, colour TEXT)"))
    with pytest.raises(SchemaError, match="left alone"):
        SqlStore(url)
    with engine.connect() as connection:
        assert sa.inspect(connection).get_table_names() == ["rooms"]
    engine.dispose()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_migrations_make_exactly_the_tables_of_the_code(backend: str, tmp_path: Path,
                                                             request: pytest.FixtureRequest):
    """A new database made by the migrations has the tables, columns and types the code uses,
    so no change to the tables can land without its revision."""
    url = (f"sqlite:///{tmp_path / 'new.sqlite3'}" if backend == "sqlite"
           else empty_database(request.getfixturevalue("postgres_url")))
    SqlStore(url).close()
    engine = make_engine(url)
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection, opts={"compare_type": True}),
                                       metadata)
    engine.dispose()
    assert differences == []
