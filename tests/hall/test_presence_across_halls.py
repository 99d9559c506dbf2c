"""Issue 28: who is connected to a room counts at every process of a cluster (hall/cluster/presence.py),
as real `parlour serve --redis` processes on a throwaway PostgreSQL and Redis: a person connected
through hall B keeps a room hall A applies listed in the lobby and its game alive, and once everyone
has left, the lobby drops the room and the game ends by itself after the (here shortened) time."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from hallkit import OPEN, bot, host
from redis_server import RedisServer
from test_postgres import empty_database
from test_several_halls import WITHIN, Client, Halls, stored

from parlour.hall.cluster.presence import ALIVE
from parlour.hall.store import rooms_table
from parlour.hall.tokens import new_token, token_hash

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]
# seconds, for `parlour serve --abandoned-after` (an hour by default): above presence.ALIVE (6 s, how long a
# process's word holds), so a game is kept alive by a connection at another hall only while that hall
# tells of it; 12 s where a killed hall's word must be seen to expire before the game may end (a tick
# and ALIVE after the kill, and the game ends ABANDONED_AFTER after the last tick)
ABANDONED_AFTER = 12.0
KEPT_AFTER = 8.0


@pytest.fixture
def halls(postgres_url: str, redis_server: RedisServer, tmp_path: Path) -> Iterator[Halls]:
    running = Halls(empty_database(postgres_url), redis_server.url, tmp_path)
    yield running
    running.close()


def eventually(what: str, check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WITHIN
    while not check():
        assert time.monotonic() < deadline, f"{what}: not within {WITHIN}s"
        time.sleep(0.25)


def at_a(halls: Halls, code: str) -> dict[str, Any]:
    """The room's status as hall A (the first, which applies it) shows it."""
    answer: dict[str, Any] = httpx.get(f"{halls.base(0)}/api/rooms/{code}", timeout=WITHIN).json()
    return answer


def judged_at_a(halls: Halls, code: str) -> dict[str, Any]:
    """The same once hall A judged who is connected to the room (its lobby reads that first; else
    a room nobody watches at A is read there every 30 s)."""
    httpx.get(f"{halls.base(0)}/api/rooms", params={"status": "playing"}, timeout=WITHIN).raise_for_status()
    return at_a(halls, code)


def waiting_codes(halls: Halls, hall: int) -> dict[str, dict[str, Any]]:
    rooms = httpx.get(f"{halls.base(hall)}/api/rooms", params={"status": "waiting"}, timeout=WITHIN).json()
    return {room["code"]: room for room in rooms}


def old_waiting_room(halls: Halls) -> tuple[str, str]:
    """A waiting room of three seats made an hour ago (no longer new: the lobby lists it only while
    someone is in it), Ana's seat 0 the host's; (its code, Ana's seat token)."""
    code, token = "PRSNCE", new_token()
    seats = [{"kind": "human", "name": "Ana", "bot": None, "token": token_hash(token), "host": True},
             {"kind": "open", "name": None, "bot": None, "token": None},
             {"kind": "open", "name": None, "bot": None, "token": None}]
    engine = sa.create_engine(halls.db_url)
    try:
        with engine.begin() as connection:
            connection.execute(rooms_table.insert().values(
                code=code, game="patchwork", players=3, options="{}", seed=7, status="waiting", turn_timer=None,
                host_token=token_hash(new_token()), seats=json.dumps(seats), created=time.time() - 3600))
    finally:
        engine.dispose()
    return code, token


def test_a_host_connected_through_another_hall_keeps_the_waiting_room_listed_until_they_leave(halls):
    halls.start(2)
    code, ana_token = old_waiting_room(halls)
    joined = httpx.post(f"{halls.base(0)}/api/rooms/{code}/join", json={"name": "Bo", "seat": 1}, timeout=WITHIN)
    assert joined.status_code == 200, joined.text
    assert halls.owner(code)[0] == 0  # hall A applies the room
    for hall in (0, 1):  # nobody is in it: nobody could start it
        assert code not in waiting_codes(halls, hall), f"hall {hall} lists a room nobody is in"
    ana = Client(halls.ws(1, code), ana_token)  # the host, through hall B
    try:
        eventually("hall A lists the room its host is in through hall B",
                   lambda: code in waiting_codes(halls, 0) and waiting_codes(halls, 0)[code]["host_here"])
        assert code in waiting_codes(halls, 1)
        status = at_a(halls, code)
        assert status["seats"][0]["connected"] and not status["host_away"]
        time.sleep(5)  # several rounds of telling and reading: still listed
        assert code in waiting_codes(halls, 0)
    finally:
        ana.close()
    eventually("both halls drop the room once its host left",
               lambda: code not in waiting_codes(halls, 0) and code not in waiting_codes(halls, 1))
    assert not at_a(halls, code)["seats"][0]["connected"]


def test_a_game_played_through_another_hall_stays_alive_and_ends_by_itself_once_everyone_left(halls):
    assert KEPT_AFTER > ALIVE  # the other hall's word must be renewed to keep the game: it is told again and again
    halls.start(2, ("--abandoned-after", str(KEPT_AFTER)))
    room = httpx.post(f"{halls.base(0)}/api/rooms", timeout=WITHIN, json={
        "game": "patchwork", "seats": [OPEN, bot("greedy")], "host_name": "Ana", "take_seat": 0}).json()
    code = room["code"]
    started = httpx.post(f"{halls.base(0)}/api/rooms/{code}/start", headers=host(room["host_token"]), timeout=WITHIN)
    assert started.status_code == 200, started.text
    assert halls.owner(code)[0] == 0  # hall A applies the room; Ana plays through hall B
    ana = Client(halls.ws(1, code), room["seat_token"])
    try:
        ana.until(lambda state: bool(state["legal"]))  # her turn: nobody moves while she thinks
        until = time.monotonic() + KEPT_AFTER * 2  # twice the time (by the clock), without a move: she is here
        while time.monotonic() < until:
            time.sleep(min(1.0, max(0.0, until - time.monotonic())))
            assert at_a(halls, code)["status"] == "playing"
        playing = httpx.get(f"{halls.base(0)}/api/rooms", params={"status": "playing"}, timeout=WITHIN).json()
        assert code in [r["code"] for r in playing]
    finally:
        ana.close()
        left = time.time()
    eventually("the game nobody plays any more ends by itself",
               lambda: at_a(halls, code)["status"] == "over")
    assert time.time() - left >= KEPT_AFTER - 0.5  # not before she was gone that long
    record = stored(halls, code)
    assert record.status == "over" and record.seats[0]["left"] == "abandoned"


def test_the_presence_a_killed_hall_told_of_expires_and_the_game_it_kept_alive_ends_by_itself(halls):
    halls.start(2, ("--abandoned-after", str(ABANDONED_AFTER)))
    room = httpx.post(f"{halls.base(0)}/api/rooms", timeout=WITHIN, json={
        "game": "patchwork", "seats": [OPEN, bot("greedy")], "host_name": "Ana", "take_seat": 0}).json()
    code = room["code"]
    assert httpx.post(f"{halls.base(0)}/api/rooms/{code}/start", headers=host(room["host_token"]),
                      timeout=WITHIN).status_code == 200
    ana = Client(halls.ws(1, code), room["seat_token"])  # through hall B
    ana.until(lambda state: bool(state["legal"]))
    eventually("hall A shows Ana connected through hall B",
               lambda: judged_at_a(halls, code)["seats"][0]["connected"])
    halls.kill(1)  # SIGKILL: hall B tells nobody that Ana's connection is gone
    killed = time.time()
    eventually("hall A no longer counts the connection the killed hall told of",
               lambda: not judged_at_a(halls, code)["seats"][0]["connected"])
    assert at_a(halls, code)["status"] == "playing"
    eventually("the game nobody plays any more ends by itself",
               lambda: at_a(halls, code)["status"] == "over")
    assert time.time() - killed >= ABANDONED_AFTER - 3  # counted from when she was last seen there (one tick)
    assert stored(halls, code).seats[0]["left"] == "abandoned"
