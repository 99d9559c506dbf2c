"""GET /healthz and /readyz (hall/web/health.py), and a hall that drains (Hall.drain, SIGTERM):
not ready, no move taken, a new socket told to reconnect (1012)."""

from __future__ import annotations

import time

import pytest
from hallkit import Socket, started_room
from starlette.websockets import WebSocketDisconnect


def test_a_running_hall_is_alive_and_ready(client):
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200, ready.text
    assert ready.json()["ready"] is True and ready.json()["rooms"] == "restored" and ready.json()["store"] == "answers"


def test_a_store_that_does_not_answer_makes_the_hall_not_ready(client, monkeypatch):
    hall = client.app.state.hall

    async def away() -> None:
        raise ConnectionError("the database is away")

    monkeypatch.setattr(hall.store, "ping", away)
    answer = client.get("/readyz")
    assert answer.status_code == 503 and answer.json()["store"] == "does not answer (ConnectionError)"
    assert client.get("/healthz").status_code == 200  # the process itself still answers


def test_a_draining_hall_is_not_ready_takes_no_move_and_sends_new_sockets_away(client):
    code, tokens, _ = started_room(client)
    with Socket(client, code) as seat:
        seat.hello(tokens[0])
        state = seat.state
        client.portal.call(client.app.state.drain)  # what SIGTERM does first (cli/draining.py)
        answer = client.get("/readyz")
        assert answer.status_code == 503 and answer.json()["draining"] is True
        seat.send({"type": "act", "id": 1, "turn": state["turn"], "action": {"type": "skip"}})
        refused = seat.expect("error")
        assert refused["code"] == "retry" and "restarting" in refused["message"], refused
    late = client.websocket_connect(f"/ws/rooms/{code}")
    with pytest.raises(WebSocketDisconnect) as closed, late as ws:
        ws.receive_text()
    assert closed.value.code == 1012
    assert client.app.state.hall.rooms[code].turn == 0  # nothing was applied


@pytest.mark.timeout(120)
def test_a_hall_of_a_cluster_without_redis_is_ready_but_says_it_runs_degraded(postgres_url, redis_server, games,
                                                                               clock):
    from fastapi.testclient import TestClient
    from hallkit import CHEAP_ARGON2ID, CLUSTER_SECRET
    from test_postgres import empty_database

    from parlour.hall import create_app
    from parlour.hall.cluster.node import Node
    from parlour.hall.store import SqlStore

    store = SqlStore(empty_database(postgres_url))
    app = create_app(store, games, clock, password_hasher=CHEAP_ARGON2ID,
                     cluster=Node(store, redis_server.url, "testserver:80", secret=CLUSTER_SECRET))
    try:
        with TestClient(app) as client:
            deadline = time.monotonic() + 30  # the hall connects to Redis in the background as it starts
            while (ready := client.get("/readyz").json())["redis"] == "not connected to Redis yet":
                assert time.monotonic() < deadline, ready
                time.sleep(0.1)
            assert ready["ready"] is True and ready["redis"] == "answers" and ready["degraded"] is False
            redis_server.stop()
            answer = client.get("/readyz")
            assert answer.status_code == 200, answer.text
            assert answer.json()["degraded"] is True and "Redis does not answer" in answer.json()["redis"]
            metrics = TestClient(app, client=("127.0.0.1", 50000)).get("/metrics").text
            assert "parlour_cluster_leases_held 0.0" in metrics
    finally:
        store.close()
