"""Issue 27, items 2 and 13: the hall's HTTP server as ``parlour serve`` runs it (cli/edge.py), on a
real port: half-sent requests time out, connections per address are capped and other clients are
served during the attack; a flooding WebSocket the hall closed is not read on for 10 s."""

from __future__ import annotations

import base64
import os
import socket
import struct
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from hallkit import CHEAP_ARGON2ID, HALL_SEED, in_thread

from parlour.cli.edge import CLOSE_TIMEOUT, server_config
from parlour.games import all_games
from parlour.hall import create_app
from parlour.hall.clock import SystemClock
from parlour.hall.quotas import Limits
from parlour.hall.store import SqlStore

ATTACKER = "127.0.0.2"  # Linux routes all of 127/8 to the loopback: an address of its own
CAP = 20
HEADER_TIMEOUT = 1.0

pytestmark = pytest.mark.timeout(60)


class Served:
    def __init__(self, port: int) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """The hall behind the server ``parlour serve`` runs, with a short header deadline, on a free port."""
    store = SqlStore(f"sqlite:///{tmp_path / 'hall.sqlite3'}")
    app = create_app(store, all_games(), SystemClock(), limits=Limits(), password_hasher=CHEAP_ARGON2ID,
                     seed=HALL_SEED)
    def config(port: int) -> uvicorn.Config:
        return server_config(app, "127.0.0.1", port, CAP, header_timeout=HEADER_TIMEOUT, body_timeout=HEADER_TIMEOUT,
                             log_level="warning", lifespan="on")

    with in_thread(config) as port:
        yield Served(port)
    store.close()


def half_open(port: int) -> socket.socket:
    """A connection from the attacker's address that sends half of a request's headers."""
    attacker = socket.socket()
    attacker.bind((ATTACKER, 0))
    attacker.settimeout(5)
    attacker.connect(("127.0.0.1", port))
    attacker.sendall(b"GET /api/games HTTP/1.1\r\nHost: hall\r\nX-Slow: ")
    return attacker


def answer_of(conn: socket.socket, wait: float) -> bytes:
    conn.settimeout(wait)
    try:
        return conn.recv(4096)
    except TimeoutError:
        return b"(nothing)"
    except ConnectionError:
        return b""


def test_half_sent_requests_are_capped_per_address_and_timed_out_while_others_are_served(served):
    attackers = [half_open(served.port) for _ in range(CAP + 30)]
    refused = [conn for conn in attackers[CAP:] if answer_of(conn, 2).startswith(b"HTTP/1.1 503")]
    assert len(refused) == 30  # past the cap, each is answered at once in words and closed
    started = time.monotonic()
    other = httpx.get(f"{served.base}/api/games", timeout=5)  # another address (127.0.0.1) meanwhile
    assert other.status_code == 200 and time.monotonic() - started < 2
    # the ones held get 408 once their headers are late, and their places free up
    held = [answer_of(conn, HEADER_TIMEOUT + 3) for conn in attackers[:CAP]]
    assert all(text.startswith(b"HTTP/1.1 408") for text in held), held[:3]
    again = half_open(served.port)
    assert answer_of(again, 0.3) == b"(nothing)"  # admitted: its place was given back
    for conn in [*attackers, again]:
        conn.close()


def test_a_body_that_trickles_in_is_cut_at_its_deadline(served):
    slow = socket.socket()
    slow.bind((ATTACKER, 0))
    slow.connect(("127.0.0.1", served.port))
    slow.sendall(b"POST /api/rooms HTTP/1.1\r\nHost: hall\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 1000\r\n\r\n{")
    started = time.monotonic()
    text = answer_of(slow, HEADER_TIMEOUT + 3)
    assert b" 408 " in text.split(b"\r\n")[0] or text == b"", text[:100]
    assert time.monotonic() - started < HEADER_TIMEOUT + 2
    slow.close()


# -- item 13: a flood on a closed socket ---------------------------------------------------------------
def frame(payload: bytes, opcode: int = 1) -> bytes:
    """A client's masked WebSocket frame."""
    mask = os.urandom(4)
    size = len(payload)
    head = bytes([0x80 | opcode])
    head += bytes([0x80 | size]) if size < 126 else bytes([0x80 | 126]) + struct.pack("!H", size)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_a_flooding_socket_the_hall_closed_is_cut_within_its_close_timeout(served):
    room = httpx.post(f"{served.base}/api/rooms", json={"game": "patchwork", "seats": [{"kind": "open"}] * 2})
    code = room.json()["code"]
    conn = socket.create_connection(("127.0.0.1", served.port))
    key = base64.b64encode(os.urandom(16)).decode()
    conn.sendall(f"GET /ws/rooms/{code} HTTP/1.1\r\nHost: hall\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    assert b" 101 " in conn.recv(4096)
    ping = frame(b'{"type": "ping"}')
    flood = ping * 200
    state = {"closed_at": None, "ended_at": None}

    def read() -> None:
        conn.settimeout(30)
        try:
            while True:
                data = conn.recv(65536)
                if not data:
                    break
                if state["closed_at"] is None and b"\x88" in data:  # a close frame (FIN + opcode 8)
                    state["closed_at"] = time.monotonic()
        except OSError:
            pass
        state["ended_at"] = time.monotonic()

    reader = threading.Thread(target=read)
    reader.start()
    sent_after_close = 0
    try:
        while state["ended_at"] is None:
            conn.sendall(flood)  # the flood goes on after the hall said goodbye
            if state["closed_at"] is not None:
                sent_after_close += len(flood)
    except OSError:
        pass
    reader.join(30)
    assert state["closed_at"] is not None, "the hall never closed the flooding socket"
    assert state["ended_at"] - state["closed_at"] < CLOSE_TIMEOUT + 1.5  # uvicorn alone: 10 s
    conn.close()


# -- the same through `parlour cluster`'s nginx ------------------------------------------------------
def test_nginx_caps_connections_per_address_and_serves_others_meanwhile(served, tmp_path):
    from parlour.cli.nginx import CONNECTIONS_PER_ADDRESS, nginx_conf, nginx_program

    program = nginx_program()
    if program is None:
        pytest.skip("nginx is not installed")
    import subprocess

    from parlour.cli.processes import free_port

    home = tmp_path / "nginx"
    (home / "logs").mkdir(parents=True)
    (home / "tmp").mkdir()
    port = free_port()
    (home / "nginx.conf").write_text(nginx_conf(port, [served.port], "a test proxy secret"))
    nginx = subprocess.Popen([program, "-p", f"{home}/", "-c", "nginx.conf", "-e", "logs/error.log"],
                             stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        slow = []
        for _ in range(CONNECTIONS_PER_ADDRESS + 10):  # bodies that never come: each holds a connection
            conn = socket.socket()
            conn.bind((ATTACKER, 0))
            conn.connect(("127.0.0.1", port))
            conn.sendall(b"POST /api/rooms HTTP/1.1\r\nHost: hall\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 1000\r\n\r\n{")
            slow.append(conn)
        answers = [answer_of(conn, 0.5) for conn in slow]
        refused = [text for text in answers if text.startswith(b"HTTP/1.1 429")]
        assert len(refused) >= 10  # past the cap per address
        assert httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=5).status_code == 200  # others are served
        for conn in slow:
            conn.close()
    finally:
        nginx.terminate()
        nginx.wait(10)


def test_serve_raises_its_soft_limit_on_open_files_to_the_hard_one():
    import subprocess
    import sys

    script = ("import resource\n"
              "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
              "resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))\n"
              "from parlour.cli.edge import raise_descriptor_limit\n"
              "print(raise_descriptor_limit(), hard, resource.getrlimit(resource.RLIMIT_NOFILE)[0])\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split()
    raised, hard, now = out[:2], out[2], out[3]
    assert raised[0] == "(256," and now == hard  # from 256 to the hard limit (20,000 here)
