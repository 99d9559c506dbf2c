"""``parlour serve --log-format json`` (cli/logs.py): one JSON object a line, with a line per
acknowledged move (room, seat, latency), and no secret in any line: passwords, seat, host and
session tokens, cookies, token hashes, a database URL's password, another seat's hidden cards."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import orjson
import pytest

from parlour.cli.logs import SECRET, redact
from parlour.cli.processes import free_port, hall_answers, serve_command
from parlour.hall.tokens import new_token, token_hash

PASSWORD = "correct horse battery"


def test_redact_takes_out_every_kind_of_secret():
    token = new_token()
    lines = {
        f"Authorization: Bearer {token}": token,
        f"GET /api/rooms/ABCDEF?token={token}&x=1": token,
        f'{{"password": "{PASSWORD}"}}': PASSWORD,
        f"password={PASSWORD.replace(' ', '')}": PASSWORD.replace(" ", ""),
        "cookie: parlour_session=abc.def-ghi": "abc.def-ghi",
        "postgresql+psycopg://hall:s3cr3t-pw@db:5432/parlour": "s3cr3t-pw",
        "[SQL: INSERT INTO accounts VALUES (?, ?)] [parameters: ('Ana', '$argon2id$v=19$m=65536$abc$def')]":
            "argon2id",
        f"seat token {token} in words": token,
        f"hash {token_hash(token)}": token_hash(token),
    }
    for line, secret in lines.items():
        cleaned = redact(line)
        assert secret not in cleaned and SECRET in cleaned, (line, cleaned)
    # what is not a secret stays: room codes, games, numbers, words
    plain = "room KMXTAP: patchwork move acknowledged in 0.004 s by seat 1 (turn 12)"
    assert redact(plain) == plain


def sign_up_and_play(base: str) -> dict[str, object]:
    """A signed-up player, a Palace room of two with seat tokens, a move and a refusal on its
    WebSocket, a request with a token in its query; returns the secrets that went by."""
    from websockets.asyncio.client import connect

    secrets: dict[str, object] = {"password": PASSWORD}
    with httpx.Client(base_url=base, timeout=30) as client:
        assert client.post("/api/accounts", json={"name": "Ana", "password": PASSWORD}).status_code == 201
        secrets["cookie"] = client.cookies["parlour_session"]
        assert client.post("/api/session", json={"name": "Ana", "password": "wrong password!"}).status_code == 401
        room = client.post("/api/rooms", json={"game": "palace", "seats": [{"kind": "open"}] * 2,
                                               "take_seat": 0}).json()
        code, secrets["host"], secrets["seat0"] = room["code"], room["host_token"], room["seat_token"]
        secrets["seat1"] = httpx.post(f"{base}/api/rooms/{code}/join", json={"name": "Bo"}).json()["seat_token"]
        started = client.post(f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {room['host_token']}"})
        assert started.status_code == 200, started.text
        client.get(f"/api/rooms/{code}", params={"token": secrets["seat1"]})
        client.get("/api/rooms/NOSUCH", headers={"Authorization": f"Bearer {secrets['seat0']}"})

    async def play() -> list:
        hands, acked = [], 0
        for seat in (0, 1):
            async with connect(f"{base.replace('http', 'ws')}/ws/rooms/{code}") as ws:
                await ws.send(orjson.dumps({"type": "hello", "token": secrets[f"seat{seat}"]}).decode())
                state = None
                while state is None:
                    message = orjson.loads(await ws.recv())
                    state = message if message["type"] == "state" else None
                hands.append(state["view"]["players"][seat]["hand"])
                await ws.send(orjson.dumps({"type": "act", "id": 1, "turn": state["turn"],
                                            "action": {"type": "nonsense", "token": secrets["seat1"]}}).decode())
                while orjson.loads(await ws.recv())["type"] != "error":
                    pass
                if state["legal"]:
                    await ws.send(orjson.dumps({"type": "act", "id": 2, "turn": state["turn"],
                                                "action": state["legal"][0]}).decode())
                    while orjson.loads(await ws.recv())["type"] != "ack":
                        pass
                    acked += 1
        assert acked >= 1
        return hands

    with ThreadPoolExecutor(1) as thread:  # a loop of its own: an earlier test may leave one running here
        secrets["hands"] = thread.submit(asyncio.run, play()).result()
    secrets["code"] = code
    return secrets


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_the_json_log_has_a_line_an_event_and_no_secret(tmp_path):
    port = free_port()
    log = tmp_path / "hall.log"
    with open(log, "wb") as out:
        hall = subprocess.Popen([sys.executable, *serve_command(f"sqlite:///{tmp_path / 'hall.sqlite3'}", port,
                                                                ("--log-format", "json", "--bot-workers", "1"))],
                                stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not hall_answers(port):
            assert hall.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        secrets = sign_up_and_play(f"http://127.0.0.1:{port}")
    finally:
        hall.send_signal(signal.SIGTERM)
        hall.wait(60)
    text = log.read_text()
    lines = [json.loads(line) for line in text.splitlines()]  # every line is one JSON object
    assert all({"time", "level", "event", "logger"} <= line.keys() for line in lines)
    moves = [line for line in lines if line["event"] == "move acknowledged"]
    assert moves and moves[0]["room"] == secrets["code"] and moves[0]["seat"] in (0, 1)
    assert isinstance(moves[0]["latency"], float) and isinstance(moves[0]["turn"], int)
    requests = [line for line in lines if line["event"] == "request"]
    assert any(line["path"].startswith(f"/api/rooms/{secrets['code']}?token=") for line in requests)
    assert any("draining" in line["event"] for line in lines)  # SIGTERM drained before it stopped
    for name in ("password", "cookie", "host", "seat0", "seat1"):
        secret = str(secrets[name])
        assert secret not in text, f"the {name} is in the log"
        assert token_hash(secret) not in text, f"the {name}'s hash is in the log"
    for hand in secrets["hands"]:  # each seat's hidden hand, as its view has it
        assert orjson.dumps(hand).decode() not in text and json.dumps(hand) not in text
    assert '"hand"' not in text
