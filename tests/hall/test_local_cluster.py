"""``parlour cluster``: PostgreSQL, Redis and nginx in front of halls, started and stopped as a
subprocess, played through the proxy over REST and WebSocket; and ``bench hall --servers``."""

from __future__ import annotations

import asyncio
import signal
import socket
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from clusterkit import WITHIN, Running

from parlour.cli import main
from parlour.cli.bench_hall import drive
from parlour.cli.cluster import why_not
from parlour.cli.processes import descendants, free_port, processes

pytestmark = [pytest.mark.slow, pytest.mark.skipif(why_not() is not None, reason=f"no cluster here: {why_not()}")]

def left_running(pids: list[int]) -> list[str]:
    """Those of ``pids`` still running (a zombie has ended), with their command lines."""
    deadline = time.monotonic() + WITHIN  # workers of a stopped hall may take a moment to notice
    while True:
        table = processes()
        alive = [pid for pid in pids if pid in table and table[pid][0] != "Z"]
        if not alive or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    names = []
    for pid in alive:
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            names.append(f"{pid}: {command}")
        except OSError:
            pass
    return names


def command_name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return "?"


def play_to_the_end(base: str, code: str, token: str) -> dict:
    """One seat played by a random bot over the room's WebSocket until the game is over."""
    go = threading.Event()
    go.set()
    ws = base.replace("http://", "ws://")
    # in a thread of its own: an earlier test (the browser's) may leave an event loop running in this one
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(lambda: asyncio.run(drive(ws, [(code, [token])], "patchwork", "random", False, 120.0,
                                                       0.0, lambda: None, go))).result()


@pytest.mark.timeout(600)
def test_a_cluster_of_two_halls_plays_through_nginx_and_stops_leaving_nothing(cluster_folder):
    port = free_port()
    cluster = Running(cluster_folder, 2, port)
    try:
        cluster.wait_open()
        tree = cluster.tree()
        # the lobby, a game's renderer and the catalogue come through nginx
        lobby = httpx.get(f"{cluster.base}/", timeout=10)
        assert lobby.status_code == 200 and "text/html" in lobby.headers["content-type"]
        renderer = httpx.get(f"{cluster.base}/games/patchwork/static/renderer.js", timeout=10)
        assert renderer.status_code == 200 and "javascript" in renderer.headers["content-type"]
        assert "patchwork" in [game["id"] for game in httpx.get(f"{cluster.base}/api/games", timeout=10).json()]

        # a room: created, a seat taken, the other given to a bot, started, played to the end
        with httpx.Client(base_url=cluster.base, timeout=30) as client:
            room = client.post("/api/rooms", json={"game": "patchwork", "seats": [{"kind": "open"}] * 2}).json()
            code, host = room["code"], {"Authorization": f"Bearer {room['host_token']}"}
            joined = client.post(f"/api/rooms/{code}/join", json={"name": "Ana"})
            assert joined.status_code == 200, joined.text
            given = client.post(f"/api/rooms/{code}/seats/1/bot", json={"bot": "random"}, headers=host)
            assert given.status_code == 200, given.text
            assert client.post(f"/api/rooms/{code}/start", headers=host).json()["status"] == "playing"
            report = play_to_the_end(cluster.base, code, joined.json()["seat_token"])
            assert report["failed"] == 0, report["errors"]
            assert len(report["latencies"]) >= 10  # our seat's moves, each acknowledged
            status = client.get(f"/api/rooms/{code}").json()
            assert status["status"] == "over"
            replay = client.get(f"/api/rooms/{code}/replay").json()
            assert len(replay["actions"]) > len(report["latencies"])  # ours and the bot's, all stored

            # nginx overwrites the client's X-Forwarded-For with the address it saw, so no client
            # escapes its quota by writing one: after the 10 rooms a minute of 127.0.0.1, refused
            answers = [client.post("/api/rooms", json={"game": "patchwork", "seats": [{"kind": "open"}] * 2},
                                   headers={"X-Forwarded-For": f"203.0.113.{n}"}).status_code for n in range(10)]
            assert answers.count(201) == 9 and answers[-1] == 429, answers

        # every URL of the room went to one hall (its access log names them all)
        logs = [(cluster_folder / "cluster" / "halls" / f"hall-{n}.log").read_text() for n in (1, 2)]
        assert [f"/rooms/{code}" in log for log in logs].count(True) == 1, "the room's URLs went to both halls"
        assert f'"WebSocket /ws/rooms/{code}"' in "".join(logs)

        names = [command_name(pid) for pid in tree]
        halls = names.count(Path(sys.executable).name[:15])
        expected = f"expected PostgreSQL, Redis, nginx and two halls under the command: {names}"
        assert {"postgres", "redis-server", "nginx"} <= set(names) and halls >= 3, expected
        assert cluster.stop(signal.SIGINT) == 0, cluster.output()
        assert "stopping nginx, the halls, Redis and PostgreSQL" in cluster.output()
        assert left_running(tree) == [], f"left running after Ctrl-C: {left_running(tree)}"
    finally:
        cluster.kill()

    # a part that cannot start (nginx's port is taken): the command says which and why, stops the rest
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        failing = Running(cluster_folder, 1, taken.getsockname()[1])
        try:
            assert failing.process.wait(WITHIN) != 0
            said = failing.output()
            assert "nginx" in said and "Address already in use" in said, said
        finally:
            failing.kill()
        assert left_running(descendants(failing.process.pid)) == []

    # a second run reuses the folder's data: the game played above is still there
    again = Running(cluster_folder, 1, free_port())
    try:
        again.wait_open()
        tree = again.tree()
        assert httpx.get(f"{again.base}/api/rooms/{code}", timeout=30).json()["status"] == "over"
        assert again.stop(signal.SIGTERM) == 0, again.output()
        assert left_running(tree) == []
    finally:
        again.kill()


@pytest.mark.timeout(600)
def test_bench_hall_through_the_proxy_reports_each_number_of_halls_and_a_complete_store(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["bench", "hall", "--rooms", "3", "--seconds", "1.5", "--servers", "1,2"]) == 0
    out = capsys.readouterr().out
    assert out.count("every acknowledged move is in the store") == 2, out
    assert "1 hall process(es) behind nginx" in out and "2 hall process(es) behind nginx" in out
    assert "PostgreSQL" in out and "acknowledged moves/s" in out and "load average" in out
