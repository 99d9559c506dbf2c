"""Durability: every acknowledged action is in the store before its ack, and rooms come back by
replaying (seed, options, actions) after a restart, or after the server is killed with SIGKILL."""

from __future__ import annotations

import json
import signal
import threading
import time

import httpx
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hallkit import OPEN, Socket, host, started_room
from websockets.sync.client import connect

from parlour.cli.processes import free_port, start_server
from parlour.hall import create_app
from parlour.hall.store import SqlStore, actions_table, rooms_table

SKIP = {"type": "skip"}


def test_an_ack_comes_only_after_the_action_is_in_the_store(client, db_url):
    code, tokens, _ = started_room(client)
    with Socket(client, code) as ana:
        ana.hello(tokens[0])
        ack = ana.act(SKIP)
        # a second, independent reader of the file sees the action the moment the ack arrives
        stored = {r.code: r for r in SqlStore(db_url).load()}[code]
    assert ack["turn"] == 1 and [(a.turn, a.seat, a.action) for a in stored.actions] == [(0, 0, SKIP)]


def test_a_restarted_hall_rebuilds_every_room_from_its_actions(db_url, games, clock):
    store = SqlStore(db_url)
    with TestClient(create_app(store, games, clock)) as client:
        code, tokens, host_token = started_room(client)
        waiting = client.post("/api/rooms", json={"game": "patchwork", "seats": [OPEN, OPEN]}).json()
        with Socket(client, code) as ana, Socket(client, code) as bo:
            ana.hello(tokens[0])
            bo.hello(tokens[1])
            for _ in range(6):
                for seat in (ana, bo):
                    state = seat.sync()
                    if state["legal"]:
                        assert seat.act(state["legal"][-1])["type"] == "ack"
            before = ana.sync()
    store.close()
    store = SqlStore(db_url)
    with TestClient(create_app(store, games, clock)) as client:
        assert client.get(f"/api/rooms/{waiting['code']}").json()["status"] == "waiting"
        with Socket(client, code) as ana:
            assert ana.hello(tokens[0])["seat"] == 0
            after = ana.state
            assert (after["turn"], after["view"], after["log"]) == (before["turn"], before["view"], before["log"])
            start = client.post(f"/api/rooms/{code}/start", headers=host(host_token))
            assert start.status_code == 409  # it is still the same, started room
    store.close()


class Player(threading.Thread):
    """Plays its seat's first legal action whenever it must act, recording every ack."""

    def __init__(self, url: str, token: str) -> None:
        super().__init__(daemon=True)
        self.url, self.token = url, token
        self.acked: dict[int, dict] = {}  # turn made -> action

    def run(self) -> None:
        try:
            with connect(self.url) as ws:
                ws.send(json.dumps({"type": "hello", "token": self.token}))
                pending: dict[str, dict] = {}
                while True:
                    message = json.loads(ws.recv())
                    if message["type"] == "ack":
                        self.acked[message["turn"]] = pending.pop(message["id"])
                    elif message["type"] == "state" and message["legal"] and not pending:
                        action = message["legal"][0]
                        message_id = str(message["turn"])
                        pending[message_id] = action
                        ws.send(json.dumps({"type": "act", "id": message_id, "turn": message["turn"],
                                            "action": action}))
        except Exception:  # the server was killed under us: that is the point
            return


@pytest.mark.slow
def test_sigkill_mid_game_loses_no_acknowledged_action_and_play_continues(tmp_path):
    db = tmp_path / "crash.sqlite3"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(f"sqlite:///{db}", port)
    try:
        rooms = []
        for _ in range(3):
            created = httpx.post(f"{base}/api/rooms", json={"game": "patchwork", "seats": [OPEN, OPEN]}).json()
            tokens = [httpx.post(f"{base}/api/rooms/{created['code']}/join", json={"name": name}).json()["seat_token"]
                      for name in ("Ana", "Bo")]
            httpx.post(f"{base}/api/rooms/{created['code']}/start", headers=host(created["host_token"]))
            rooms.append((created["code"], tokens))
        players = [Player(f"ws://127.0.0.1:{port}/ws/rooms/{code}", token)
                   for code, tokens in rooms for token in tokens]
        for player in players:
            player.start()
        deadline = time.monotonic() + 20
        while sum(len(p.acked) for p in players) < 30 and time.monotonic() < deadline:
            time.sleep(0.01)
        server.send_signal(signal.SIGKILL)  # in the middle of the games, moves in flight
        server.wait()
        for player in players:
            player.join(5)
        acked = {code: {**players[2 * i].acked, **players[2 * i + 1].acked} for i, (code, _) in enumerate(rooms)}
        assert sum(len(a) for a in acked.values()) >= 30
        server = start_server(f"sqlite:///{db}", port)
        stored = {record.code: record for record in SqlStore(f"sqlite:///{db}").load()}
        turns = {}
        for code, _ in rooms:
            status = httpx.get(f"{base}/api/rooms/{code}").json()
            assert status["status"] == "playing" and status["turn"] == len(stored[code].actions)
            actions = {a.turn + 1: a.action for a in stored[code].actions}
            for turn, action in acked[code].items():
                assert actions[turn] == action, f"room {code} lost acknowledged turn {turn}"
            turns[code] = status["turn"]
        # play continues where it stopped
        players = [Player(f"ws://127.0.0.1:{port}/ws/rooms/{code}", token)
                   for code, tokens in rooms for token in tokens]
        for player in players:
            player.start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not all(
                httpx.get(f"{base}/api/rooms/{code}").json()["turn"] >= turns[code] + 4 for code in turns):
            time.sleep(0.1)
        for code, turn in turns.items():
            assert httpx.get(f"{base}/api/rooms/{code}").json()["turn"] >= turn + 4, "play did not continue"
    finally:
        server.kill()
        server.wait()


def test_a_room_that_no_longer_replays_is_left_out_and_the_others_come_back(db_url, games, clock):
    store = SqlStore(db_url)
    with TestClient(create_app(store, games, clock)) as client:
        good, _, _ = started_room(client)
        broken, _, _ = started_room(client)
    store.close()
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:  # as if the rules had changed: the first action is now illegal
        conn.execute(actions_table.insert().values(code=broken, turn=0, seat=1, action='{"type": "skip"}',
                                                   by="player", at=0.0))
    engine.dispose()
    store = SqlStore(db_url)
    with TestClient(create_app(store, games, clock)) as client:
        assert client.get(f"/api/rooms/{good}").json()["status"] == "playing"
        assert client.get(f"/api/rooms/{broken}").status_code == 404
    store.close()


def test_a_room_stored_before_an_option_existed_replays_by_its_legacy_value(db_url, games, clock):
    """Rooms store every option resolved, so a stored room without Palace's `edition` was played before
    the option existed: it comes back under edition 1, the rules it was played by; a new room is edition 4."""
    store = SqlStore(db_url)
    with TestClient(create_app(store, games, clock)) as client:
        old, _, _ = started_room(client, "palace")
        assert client.get(f"/api/rooms/{old}").json()["options"] == {"edition": 4}
    store.close()
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:  # as a room created before the option existed was stored
        conn.execute(rooms_table.update().where(rooms_table.c.code == old).values(options="{}"))
    engine.dispose()
    store = SqlStore(db_url)
    with TestClient(create_app(store, games, clock)) as client:
        assert client.get(f"/api/rooms/{old}").json()["options"] == {"edition": 1}
        assert client.get(f"/api/rooms/{started_room(client, 'palace')[0]}").json()["options"] == {"edition": 4}
    store.close()
