"""``parlour db backup`` and ``parlour db restore`` (hall/store/backup.py) on SQLite and on PostgreSQL:
a backup taken while bots play is consistent, a restore into an empty store gives back every row of
every table and a hall serves it, a restore into a store with data is refused unless --replace."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from parlour.cli import main
from parlour.cli.processes import free_port, start_server
from parlour.hall.store import make_engine, metadata

sys.path.insert(0, str(Path(__file__).parent))

from postgres_server import why_not  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]
BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
ROOMS = 4


@pytest.fixture(params=["sqlite", "postgresql"])
def stores(request, tmp_path) -> Iterator[tuple[str, str, str]]:
    """Three stores of one engine: the hall's, an empty one, and one more."""
    if request.param == "sqlite":
        yield tuple(f"sqlite:///{tmp_path / name}.sqlite3" for name in ("hall", "empty", "other"))
        return
    if why_not() is not None:
        pytest.skip(f"no PostgreSQL here: {why_not()}")
    import psycopg

    url = request.getfixturevalue("postgres_url")
    names = [f"backup_{name}_{int(time.time() * 1000) % 10**8}" for name in ("hall", "empty", "other")]
    admin = sa.engine.make_url(url)
    with psycopg.connect(host=admin.query["host"], port=admin.query.get("port", "5432"), user=admin.username,
                         dbname=admin.database, autocommit=True) as connection:
        for name in names:
            connection.execute(f"CREATE DATABASE {name}")
    yield tuple(admin.set(database=name).render_as_string(hide_password=False) for name in names)


def rows(url: str) -> dict[str, list[tuple]]:
    """Every row of every table of the store, in a fixed order."""
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return {table.name: sorted(tuple(map(repr, row)) for row in connection.execute(sa.select(table)))
                    for table in metadata.sorted_tables}
    finally:
        engine.dispose()


def play(base: str) -> list[str]:
    """ROOMS rooms started where bots play on their own: in the first, Ana (signed up) against a
    bot, which she then resigns (a rated game, which she forfeits); two bots in the others."""
    with httpx.Client(base_url=base, timeout=30) as client:
        signed = client.post("/api/accounts", json={"name": "Ana", "password": "a long secret"})
        assert signed.status_code == 201, signed.text
        codes = []
        for number in range(ROOMS):
            seats = [{"kind": "open"}, BOTS[1]] if number == 0 else BOTS
            room = client.post("/api/rooms", json={"game": "patchwork", "seats": seats,
                                                   **({"take_seat": 0} if number == 0 else {})}).json()
            host = {"Authorization": f"Bearer {room['host_token']}"}
            started = client.post(f"/api/rooms/{room['code']}/start", headers=host)
            assert started.status_code == 200, started.text
            if number == 0:
                # she resigns: a bot plays her seat on (a seat may be given away only once its
                # player has been gone two minutes: room/leaving.py)
                given = client.post(f"/api/rooms/{room['code']}/resign",
                                    headers={"Authorization": f"Bearer {room['seat_token']}"})
                assert given.status_code == 200, given.text
            codes.append(room["code"])
        return codes


def all_over(base: str, codes: list[str]) -> bool:
    return all(httpx.get(f"{base}/api/rooms/{code}", timeout=10).json()["status"] == "over" for code in codes)


def test_a_backup_while_bots_play_restores_every_row_and_a_hall_serves_it(stores, tmp_path, capsys):
    hall_url, empty_url, other_url = stores
    port = free_port()
    hall = start_server(hall_url, port)
    try:
        base = f"http://127.0.0.1:{port}"
        codes = play(base)
        # online: the bots go on playing while the backup is taken
        assert main(["db", "backup", "--db", hall_url, str(tmp_path / "during.backup")]) == 0
        during = httpx.get(f"{base}/api/rooms/{codes[0]}", timeout=10).json()
        deadline = time.monotonic() + 120
        while not all_over(base, codes):
            assert time.monotonic() < deadline, "the bots' games did not end"
            time.sleep(0.5)
        assert main(["db", "backup", "--db", hall_url, str(tmp_path / "after.backup")]) == 0
        said = capsys.readouterr().out
        assert f"into {tmp_path / 'after.backup'}" in said and " rooms" in said and " actions" in said, said
        source = rows(hall_url)
    finally:
        hall.terminate()
        hall.wait(30)
    assert not list(tmp_path.glob("*.partial"))

    # the backup taken during play is one instant of the store: every room's turns from 0, none missing
    assert main(["db", "restore", "--db", other_url, str(tmp_path / "during.backup")]) == 0
    engine = make_engine(other_url)
    with engine.connect() as connection:
        for code in codes:
            turns = list(connection.execute(sa.text("SELECT turn FROM actions WHERE code = :c ORDER BY turn"),
                                            {"c": code}).scalars())
            assert turns == list(range(len(turns)))
    engine.dispose()
    assert during["status"] in ("playing", "over")

    # the backup taken after play: every row of every table comes back, a hall serves the rooms
    assert main(["db", "restore", "--db", empty_url, str(tmp_path / "after.backup")]) == 0
    restored = rows(empty_url)
    assert restored == source
    assert all(restored[table] for table in ("actions", "accounts", "ratings", "chat_lines", "room_players"))
    port = free_port()
    hall = start_server(empty_url, port)
    try:
        room = httpx.get(f"http://127.0.0.1:{port}/api/rooms/{codes[-1]}", timeout=10).json()
        assert room["status"] == "over"
        replay = httpx.get(f"http://127.0.0.1:{port}/api/rooms/{codes[-1]}/replay", timeout=10).json()
        assert len(replay["actions"]) == sum(1 for row in source["actions"] if repr(codes[-1]) in row[0])
        profile = httpx.get(f"http://127.0.0.1:{port}/api/players/Ana", timeout=10)
        assert profile.status_code == 200, profile.text
    finally:
        hall.terminate()
        hall.wait(30)

    # a store with data: refused in words, and nothing changes; --replace throws it away first
    before = rows(other_url)
    assert main(["db", "restore", "--db", other_url, str(tmp_path / "after.backup")]) == 2
    refusal = capsys.readouterr().err
    assert "is not empty" in refusal and "--replace" in refusal and "nothing was restored" in refusal, refusal
    assert rows(other_url) == before
    assert main(["db", "restore", "--db", other_url, str(tmp_path / "after.backup"), "--replace"]) == 0
    assert rows(other_url) == source


def test_a_backup_of_one_engine_is_refused_by_the_other_and_nonsense_is_refused(tmp_path, capsys):
    store = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    assert main(["db", "upgrade", "--db", store]) == 0
    assert main(["db", "backup", "--db", store, str(tmp_path / "a.backup")]) == 0
    assert main(["db", "restore", "--db", "postgresql+psycopg://nobody:hidden@127.0.0.1:1/x",
                 str(tmp_path / "a.backup")]) == 2
    said = capsys.readouterr().err
    assert "is a backup of a SQLite store" in said and "hidden" not in said, said
    (tmp_path / "junk").write_bytes(b"hello")
    assert main(["db", "restore", "--db", f"sqlite:///{tmp_path / 'b.sqlite3'}", str(tmp_path / "junk")]) == 2
    assert "is not a backup of a store" in capsys.readouterr().err
    assert main(["db", "backup", "--db", store]) == 2
    assert "say where the backup is" in capsys.readouterr().err
    assert main(["db", "backup", "--db", f"sqlite:///{tmp_path / 'none.sqlite3'}", str(tmp_path / "x")]) == 2
    assert "there is no SQLite store" in capsys.readouterr().err
