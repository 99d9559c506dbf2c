"""Zero-downtime restarts (cli/rolling.py, hall/hall.py Hall.drain, cli/draining.py): ``parlour
cluster restart`` restarts every hall of a running 2-hall ``parlour cluster``, one after the other,
while players play through nginx and reconnect on their own; no acknowledged move is lost, every
room plays on, and the longest wait of a move (from its first try to its ack, across
reconnections) is reported."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
import sqlalchemy as sa
from clusterkit import Running

from parlour.cli import main
from parlour.cli.cluster import why_not
from parlour.cli.processes import free_port
from parlour.hall.store import make_engine

pytestmark = [pytest.mark.slow, pytest.mark.skipif(why_not() is not None, reason=f"no cluster here: {why_not()}")]

ROOMS = 6
THINK = 1.0  # seconds a player waits before each move: the games last through both restarts


class Seat:
    """A player of one seat over the room's WebSocket through nginx, who reconnects whenever the
    connection ends and tries again after a refusal, and notes each acknowledged move."""

    def __init__(self, base_ws: str, code: str, token: str) -> None:
        self.url, self.code, self.token = f"{base_ws}/ws/rooms/{code}", code, token
        self.acked: list[tuple[float, dict]] = []  # (when, action), in order
        self.waits: list[float] = []  # per acknowledged move: seconds from its first try to its ack
        self.reconnections = 0
        self.refusals: list[str] = []
        self.over = False

    async def play(self, stop: threading.Event) -> None:
        from websockets.asyncio.client import connect

        rng = random.Random(self.token)
        trying_since: float | None = None  # the move under way since then, through retries and reconnections
        number = 0
        while not stop.is_set() and not self.over:
            try:
                async with connect(self.url, open_timeout=10, close_timeout=2) as ws:
                    await ws.send(orjson.dumps({"type": "hello", "token": self.token}).decode())
                    pending: tuple[int, dict] | None = None
                    latest = None
                    while not stop.is_set():
                        try:
                            message = orjson.loads(await asyncio.wait_for(ws.recv(), 0.5))
                        except TimeoutError:
                            message = {"type": "nothing"}
                        if message["type"] == "ack" and pending is not None and message["id"] == pending[0]:
                            self.acked.append((time.monotonic(), pending[1]))
                            self.waits.append(time.monotonic() - (trying_since or time.monotonic()))
                            trying_since, pending, latest = None, None, None
                        elif message["type"] == "state":
                            latest = message
                        elif message["type"] == "error" and pending is not None and message["id"] == pending[0]:
                            self.refusals.append(message["code"])
                            pending = None  # nothing was done: try again on the newest state
                            await asyncio.sleep(0.1)
                        if latest is not None and latest["result"] is not None:
                            self.over = True
                            return
                        if pending is None and latest is not None and latest["legal"]:
                            await asyncio.sleep(THINK * rng.uniform(0.5, 1.5))
                            number += 1
                            pending = (number, rng.choice(latest["legal"]))
                            trying_since = trying_since or time.monotonic()
                            await ws.send(orjson.dumps({"type": "act", "id": number, "turn": latest["turn"],
                                                        "action": pending[1]}).decode())
            except Exception:  # closed (1012: the hall restarts), refused while nginx finds another hall...
                pass
            if not stop.is_set() and not self.over:
                self.reconnections += 1
                await asyncio.sleep(0.2)


def polite_post(client: httpx.Client, url: str, **options: Any) -> httpx.Response:
    """POST as a well-behaved client does: after a 429 it waits the Retry-After it was told (on
    a quiet machine the rooms below are made faster than the hall's 20 calls a second)."""
    for _ in range(5):
        answer = client.post(url, **options)
        if answer.status_code != 429:
            break
        time.sleep(float(answer.headers.get("Retry-After", "1")))
    assert answer.is_success, answer.text
    return answer


def rooms_of_two(base: str) -> list[tuple[str, list[str]]]:
    with httpx.Client(base_url=base, timeout=30) as client:
        made = []
        for number in range(ROOMS):
            room = polite_post(client, "/api/rooms", json={"game": "patchwork", "seats": [{"kind": "open"}] * 2}).json()
            tokens = [polite_post(client, f"/api/rooms/{room['code']}/join", json={"name": f"p{number}-{seat}"}
                                  ).json()["seat_token"] for seat in range(2)]
            polite_post(client, f"/api/rooms/{room['code']}/start",
                        headers={"Authorization": f"Bearer {room['host_token']}"})
            made.append((room["code"], tokens))
        return made


def moved_since(seats: list[Seat], since: float) -> bool:
    """Whether every room of ``seats`` had a move acknowledged after ``since`` (time.monotonic)."""
    return {seat.code for seat in seats} == {seat.code for seat in seats if any(when > since for when, _ in seat.acked)}


def until(what: str, check: Callable[[], bool], within: float = 60.0) -> None:
    deadline = time.monotonic() + within
    while not check():
        assert time.monotonic() < deadline, f"{what}: not within {within:.0f} s"
        time.sleep(0.1)


@pytest.mark.timeout(600)
def test_every_hall_of_a_cluster_restarts_under_play_and_no_acknowledged_move_is_lost(cluster_folder, capsys):
    with Running(cluster_folder, 2, free_port()) as cluster:
        cluster.wait_open()
        ws = cluster.base.replace("http://", "ws://")
        seats = [Seat(ws, code, token) for code, tokens in rooms_of_two(cluster.base) for token in tokens]
        stop = threading.Event()

        async def everyone() -> None:
            await asyncio.gather(*(seat.play(stop) for seat in seats))

        # the players in a thread of their own (an earlier test may leave an event loop in this one)
        with ThreadPoolExecutor(1) as players:
            playing = players.submit(asyncio.run, everyone())
            try:  # the players stop even when the restart fails (else the executor waits for them for good)
                until("every room played a move before the restarts", lambda: moved_since(seats, 0.0))
                began = time.monotonic()
                assert main(["cluster", "restart", "--dir", str(cluster_folder / "cluster")]) == 0
                ended = time.monotonic()
                # as strict as before: each room moves again within 4.5 s (the players think about 1 s a move)
                until("every room played a move after the restarts", lambda: moved_since(seats, ended), within=4.5)
            finally:
                stop.set()
            playing.result(timeout=60)
        said = [line for line in capsys.readouterr().out.splitlines() if "drained and stopped" in line]
        assert len(said) == 2, cluster.output()
        assert cluster.process.poll() is None, cluster.output()
        postgres = re.search(r"PostgreSQL \S+ on 127\.0\.0\.1:(\d+), database 'parlour'", cluster.output())
        engine = make_engine(f"postgresql+psycopg://postgres@127.0.0.1:{postgres[1]}/parlour")
        with engine.connect() as connection:
            stored = {(code, seat): [orjson.loads(a) for a in connection.execute(sa.text(
                "SELECT action FROM actions WHERE code = :c AND seat = :s AND by = 'player' ORDER BY turn"),
                {"c": code, "s": seat}).scalars()] for code in {s.code for s in seats} for seat in (0, 1)}
        engine.dispose()
        halls = cluster_folder / "cluster" / "halls"
        logs = "".join((halls / f"hall-{n}.log").read_text(errors="replace") for n in (1, 2))
        assert cluster.stop(signal.SIGINT) == 0, cluster.output()

    # no acknowledged move lost: each seat's acked moves are its stored moves, in order (a move
    # whose ack was lost with its connection may be stored without being acked: none here is missing)
    by_room: dict[str, list[Seat]] = {}
    for seat in seats:
        by_room.setdefault(seat.code, []).append(seat)
    for code, pair in by_room.items():
        for number, seat in enumerate(pair):
            acked = [action for _, action in seat.acked]
            moves = iter(stored[code, number])
            assert all(any(action == move for move in moves) for action in acked), (code, number)
            assert len(stored[code, number]) >= len(acked) > 0
    # every room went on after the restarts: a move acknowledged after both
    after = [code for code, pair in by_room.items() if any(when > ended for seat in pair for when, _ in seat.acked)]
    assert sorted(after) == sorted(by_room), f"rooms that never moved again: {set(by_room) - set(after)}"
    assert "gave up" in logs and "room lease(s) to the other halls" in logs  # the drain handed the leases over
    assert sum(seat.reconnections for seat in seats) > 0  # the players were moved by the restarts
    longest = max(wait for seat in seats for wait in seat.waits)
    with capsys.disabled():
        print(f"\nrestarted both halls in {ended - began:.1f} s under {len(seats)} players in {ROOMS} rooms: "
              + "; ".join(said)
              + f"; {sum(len(s.acked) for s in seats)} moves acknowledged, all stored;"
              f" {sum(s.over for s in seats) // 2} of the {ROOMS} games over by the end;"
              f" {sum(s.reconnections for s in seats)} reconnections,"
              f" refusals {sorted({r for s in seats for r in s.refusals})};"
              f" the longest wait of a move: {longest:.2f} s")


@pytest.mark.timeout(300)
def test_nginx_is_kept_to_the_halls_that_say_they_are_ready(cluster_folder):
    conf = cluster_folder / "cluster" / "nginx" / "nginx.conf"
    with Running(cluster_folder, 2, free_port()) as cluster:
        cluster.wait_open()
        halls = [int(p) for p in re.findall(r"server 127\.0\.0\.1:(\d+) max_fails", conf.read_text())]
        assert len(halls) == 2 and "fail_timeout=2s down;" not in conf.read_text()
        first = next(pid for pid in cluster.tree()
                     if f"--port\0{halls[0]}\0" in Path(f"/proc/{pid}/cmdline").read_text(errors="replace")
                     and "serve" in Path(f"/proc/{pid}/cmdline").read_text(errors="replace"))
        def nginx_workers() -> set[int]:
            found = set()
            for pid in cluster.tree():
                try:
                    if "nginx: worker" in Path(f"/proc/{pid}/cmdline").read_text(errors="replace"):
                        found.add(pid)
                except OSError:  # ended meanwhile
                    continue
            return found

        before = nginx_workers()
        os.kill(first, signal.SIGSTOP)  # it answers nothing, /readyz included
        try:
            deadline = time.monotonic() + 60
            while f"127.0.0.1:{halls[0]} max_fails=1 fail_timeout=2s down;" not in conf.read_text():
                assert time.monotonic() < deadline, conf.read_text()
                time.sleep(0.2)
            while before & nginx_workers():  # nginx reloaded: the workers that knew the old list are gone
                assert time.monotonic() < deadline, "nginx's old workers did not stop"
                time.sleep(0.2)
            assert f"127.0.0.1:{halls[1]} max_fails=1 fail_timeout=2s;" in conf.read_text()
            # every room's calls go to the hall that answers, whatever their hash
            for _ in range(5):
                made = httpx.post(f"{cluster.base}/api/rooms", timeout=20,
                                  json={"game": "patchwork", "seats": [{"kind": "open"}] * 2})
                assert made.status_code == 201, made.text
                assert httpx.get(f"{cluster.base}/api/rooms/{made.json()['code']}", timeout=20
                                 ).status_code == 200
        finally:
            os.kill(first, signal.SIGCONT)
        deadline = time.monotonic() + 60
        while "fail_timeout=2s down;" in conf.read_text():  # ready again: back in nginx
            assert time.monotonic() < deadline, conf.read_text()
            time.sleep(0.2)
        assert "halls not ready, sent nothing" in cluster.output()
        assert cluster.stop(signal.SIGINT) == 0, cluster.output()
