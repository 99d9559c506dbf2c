"""Helpers for driving the hall in tests: rooms over REST, a seat or a spectator over WebSocket."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

# Argon2id still, at a cost the small shared test machine can pay dozens of times a test
CHEAP_ARGON2ID = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
CLUSTER_SECRET = "the test cluster's forwarding secret"  # kept outside the store (hall/cluster/node.py)
# Every test's hall deals its rooms from this seed, so a test meets the same deals every run
HALL_SEED = 2026

OPEN = {"kind": "open"}


def bot(name: str = "greedy") -> dict[str, str]:
    return {"kind": "bot", "bot": name}


def host(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_room(client: TestClient, game: str = "patchwork", seats: list[dict] | None = None, **body: Any) -> dict:
    answer = client.post("/api/rooms", json={"game": game, "seats": seats or [OPEN, OPEN], **body})
    assert answer.status_code == 201, answer.text
    return answer.json()


def started_room(client: TestClient, game: str = "patchwork", names: tuple[str, ...] = ("Ana", "Bo"),
                 **body: Any) -> tuple[str, list[str], str]:
    """A started room with every seat a person: (code, seat tokens, host token)."""
    room = new_room(client, game, [OPEN] * len(names), **body)
    tokens = [join(client, room["code"], name, seat)["seat_token"] for seat, name in enumerate(names)]
    answer = client.post(f"/api/rooms/{room['code']}/start", headers=host(room["host_token"]))
    assert answer.status_code == 200, answer.text
    return room["code"], tokens, room["host_token"]


def join(client: TestClient, code: str, name: str, seat: int | None = None) -> dict:
    answer = client.post(f"/api/rooms/{code}/join", json={"name": name, "seat": seat})
    assert answer.status_code == 200, answer.text
    return answer.json()


def finished_bot_game(client: TestClient) -> str:
    """A game of Patchwork between two bots, watched to its end: its code."""
    room = new_room(client, seats=[bot("greedy"), bot("random")])
    code = room["code"]
    with Socket(client, code) as watcher:
        watcher.hello(None)
        assert client.post(f"/api/rooms/{code}/start", headers=host(room["host_token"])).status_code == 200
        watcher.until(lambda s: s["result"] is not None)
    return code


class Socket:
    """One WebSocket connection to a room, remembering every message it received."""

    def __init__(self, client: TestClient, code: str) -> None:
        self._context = client.websocket_connect(f"/ws/rooms/{code}")
        self.ws = self._context.__enter__()
        self.received: list[dict[str, Any]] = []  # every message as it came
        self.texts: list[str] = []
        self.state: dict[str, Any] | None = None  # the newest state, its log made whole
        self.log: list[dict[str, Any]] = []  # the log lines put together, as a client keeps them

    def close(self) -> None:
        self._context.__exit__(None, None, None)

    def send(self, message: Any) -> None:
        self.ws.send_json(message)

    def receive(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        self.texts.append(text)
        message = json.loads(text)
        self.received.append(message)
        if message["type"] == "state":
            assert 0 <= message["log_start"] <= len(self.log), message["log_start"]
            self.log = self.log[:message["log_start"]] + message["log"]
            self.state = {**message, "log": list(self.log)}
        return message

    def expect(self, kind: str) -> dict[str, Any]:
        """The next message that is not a state push; it must be of ``kind``."""
        while True:
            message = self.receive()
            if message["type"] != "state" or kind == "state":
                assert message["type"] == kind, message
                return message

    def until(self, done: Callable[[dict[str, Any]], bool], limit: int = 2000) -> dict[str, Any]:
        """Read state pushes until one satisfies ``done``; returns it with its log made whole."""
        for _ in range(limit):
            message = self.receive()
            if message["type"] == "state" and done(self.state):
                return self.state
        raise AssertionError(f"no state satisfied the condition in {limit} messages")

    def hello(self, token: str | None = None) -> dict[str, Any]:
        self.send({"type": "hello", "token": token})
        welcome = self.expect("welcome")
        self.expect("state")
        return welcome

    def act(self, action: dict[str, Any], turn: int | None = None, message_id: str = "a") -> dict[str, Any]:
        """Send ``action`` at ``turn`` (default: the last state's) and return the ack or error."""
        assert self.state is not None
        self.send({"type": "act", "id": message_id, "turn": self.state["turn"] if turn is None else turn,
                   "action": action})
        while True:
            message = self.receive()
            if message["type"] in ("ack", "error") and message.get("id") == message_id:
                return message

    def sync(self) -> dict[str, Any]:
        """Read up to the newest state (a ping's pong marks the end of what was queued)."""
        self.send({"type": "ping"})
        while self.receive()["type"] != "pong":
            pass
        assert self.state is not None
        return self.state

    def __enter__(self) -> Socket:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


@contextmanager
def in_thread(config: Callable[[int], uvicorn.Config]) -> Iterator[int]:
    """A uvicorn server of ``config(port)`` on a free loopback port, run in a thread until the block
    ends: the port, once the server has started."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    server = uvicorn.Server(config(listener.getsockname()[1]))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    try:
        yield listener.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(20)
        listener.close()
