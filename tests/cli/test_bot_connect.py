"""``parlour bot connect``: an arena bot plays a real hall as a bot account, through the room's own
WebSocket protocol, accepts a person's challenge, and resumes its game after the hall restarts."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from parlour.cli.processes import free_port, start_server, stop_process

pytestmark = pytest.mark.timeout(240)
PASSWORD = "correct horse battery"
BOSS = Path(__file__).resolve().parents[3] / "shared" / "anchors" / "cg-patchwork" / "Boss5.java"
if not BOSS.exists():
    BOSS = Path("/work/shared/anchors/cg-patchwork/Boss5.java")


class Hall:
    """``parlour serve`` on a free port and a SQLite file; restartable on the same ones."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.db = folder / "hall.sqlite3"
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = start_server(f"sqlite:///{self.db}", self.port, ("--no-client-quotas", "--seed", "7"))

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process, within=20)
            self.process = None


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[Hall]:
    server = Hall(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def account(base: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=30)
    assert client.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
    return client


@contextlib.contextmanager
def bot_connect(base: str, token: str, bot: str, logs: Path) -> Iterator[subprocess.Popen[bytes]]:
    with open(logs / "connect.log", "wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "parlour.cli", "bot", "connect", "--hall", base,
                                    "--games", "patchwork", "--logs", str(logs), "--", bot],
                                   stdout=subprocess.DEVNULL, stderr=log,
                                   env={**os.environ, "PARLOUR_BOT_TOKEN": token})
    try:
        yield process
    finally:
        stop_process(process, signal.SIGINT)


def wait_online(ana: httpx.Client, name: str) -> None:
    for _ in range(900):  # a loaded machine may take a while to start a Python program
        if any(b["name"] == name for b in ana.get("/api/bots").json()):
            return
        time.sleep(0.1)
    raise AssertionError(f"{name} never came online")


def play(base: str, code: str, seat_token: str, moves: int | None = None) -> dict[str, Any] | None:
    """Ana plays her seat (the last legal action: SKIP when she may) for ``moves`` moves, or to the end;
    the result once the game is over."""
    url = "ws" + base[4:] + f"/ws/rooms/{code}"
    made = 0
    with connect(url, max_size=1 << 22) as ws:
        ws.send(json.dumps({"type": "hello", "token": seat_token}))
        acted = -1
        while True:
            message = json.loads(ws.recv(timeout=90))
            if message["type"] != "state":
                assert message["type"] in ("welcome", "ack"), message
                continue
            if message["result"] is not None:
                return dict(message["result"])
            if message["legal"] and message["turn"] != acted:
                if moves is not None and made >= moves:
                    return None
                acted = message["turn"]
                ws.send(json.dumps({"type": "act", "id": "a", "turn": acted, "action": message["legal"][-1]}))
                made += 1


def bots(tmp_path: Path) -> list[str]:
    found = ["builtin:greedy"]
    if shutil.which("javac") and BOSS.exists():
        folder = tmp_path / "boss"
        folder.mkdir()
        shutil.copy(BOSS, folder / "Player.java")
        subprocess.run(["javac", "-d", str(folder), str(folder / "Player.java")], check=True, timeout=300)
        found.append(f"cg-live:java -cp {folder} Player")
    return found


def test_an_arena_bot_accepts_a_challenge_plays_and_resumes_after_the_hall_restarts(hall, tmp_path):
    owner = account(hall.base, "Deep")
    token = owner.post("/api/me/bot").json()["token"]
    ana = account(hall.base, "Ana")
    programs = bots(tmp_path)
    for n, bot in enumerate(programs):
        logs = tmp_path / f"logs{n}"
        logs.mkdir()
        with bot_connect(hall.base, token, bot, logs) as connected:
            wait_online(ana, "Deep")
            answer = ana.post("/api/challenges", json={"opponent": "Deep", "game": "patchwork"})
            assert answer.status_code == 201, answer.text
            room = answer.json()
            assert play(hall.base, room["code"], room["seat_token"], moves=3) is None
            turn_before = ana.get(f"/api/rooms/{room['code']}").json()["turn"]
            hall.stop()  # the hall goes away mid-game; the bot's client reconnects when it is back
            hall.start()
            ana = httpx.Client(base_url=hall.base, timeout=30)
            assert ana.post("/api/session", json={"name": "Ana", "password": PASSWORD}).status_code == 200
            wait_online(ana, "Deep")
            result = play(hall.base, room["code"], room["seat_token"])
            assert result is not None and "forfeit" not in result.get("details", {}), result
            assert connected.poll() is None, "bot connect stopped"
        status = ana.get(f"/api/rooms/{room['code']}").json()
        assert status["status"] == "over" and status["turn"] > turn_before
        bot_seat = status["seats"][1 - room["seat"]]
        assert bot_seat["kind"] == "human" and bot_seat.get("bot_account") is True, bot_seat  # never forfeited
        log = (logs / "connect.log").read_text()
        assert "accepted Ana's challenge to patchwork" in log and "game is over" in log, log
    games = owner.get("/api/me/games").json()["finished"]
    assert len(games) == len(programs) and all(g["rank"] in (1, 2) for g in games)
