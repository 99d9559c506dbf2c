"""Bots and challenges in ``parlour cluster`` (two halls behind nginx): the bots online and the
challenges live in one hall's memory, so nginx sends ``/ws/bot``, ``/api/bots`` and
``/api/challenges`` to one hall for all, and a bot's room socket to its room's hall. A bot connected
from one address is found and challenged by people from several others (without that routing, the
hash of each person's address picks either hall, and about half of them find the bot offline)."""

from __future__ import annotations

import asyncio
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from clusterkit import Running

from parlour.cli.cluster import why_not
from parlour.cli.processes import free_port

pytestmark = [pytest.mark.slow, pytest.mark.skipif(why_not() is not None, reason=f"no cluster here: {why_not()}")]

PASSWORD = "a long enough secret"
PEOPLE = 4  # the hall's most games at once for one bot (Limits.bot_games)


def client_from(base: str, address: str) -> httpx.Client:
    """A client whose connections come from ``address`` (one of loopback's 127.x.y.z)."""
    return httpx.Client(base_url=base, timeout=30, transport=httpx.HTTPTransport(local_address=address))


async def bot_program(base: str, token: str, ready: asyncio.Event, games: list[str]) -> None:
    """A bot's program from 127.0.0.2: online, accepting every challenge, noting each game."""
    from websockets.asyncio.client import connect

    async with connect(base.replace("http://", "ws://") + "/ws/bot", additional_headers={
            "Authorization": f"Bearer {token}"}, local_addr=("127.0.0.2", 0)) as ws:
        assert json.loads(await ws.recv())["type"] == "welcome"
        await ws.send(json.dumps({"type": "ready", "games": ["patchwork"]}))
        assert json.loads(await ws.recv())["type"] == "online"
        ready.set()
        while len(games) < PEOPLE:
            message = json.loads(await ws.recv())
            if message["type"] == "challenge":
                await ws.send(json.dumps({"type": "accept", "id": message["id"]}))
            elif message["type"] == "game":
                games.append(message["code"])


@pytest.mark.timeout(600)
def test_people_from_many_addresses_find_and_challenge_a_bot_in_a_cluster(cluster_folder: Path):
    cluster = Running(cluster_folder, 2, free_port())
    try:
        cluster.wait_open()
        with client_from(cluster.base, "127.0.0.2") as owner:
            assert owner.post("/api/accounts", json={"name": "Deep", "password": PASSWORD}).status_code == 201
            token = owner.post("/api/me/bot").json()["token"]
        games: list[str] = []
        ready = threading.Event()

        def run_bot() -> None:
            async def main() -> None:
                online = asyncio.Event()
                task = asyncio.ensure_future(bot_program(cluster.base, token, online, games))
                await asyncio.wait_for(online.wait(), 60)
                ready.set()
                await asyncio.wait_for(task, 300)
            asyncio.run(main())

        with ThreadPoolExecutor(1) as thread:  # the bot's program, beside the people (its own event loop)
            running = thread.submit(run_bot)
            assert ready.wait(90) or running.result(timeout=1), "the bot never came online"
            answers = []
            for n in range(PEOPLE):
                with client_from(cluster.base, f"127.0.0.{10 + n}") as person:
                    assert person.post("/api/accounts", json={"name": f"Ana{n}", "password": PASSWORD}
                                       ).status_code == 201
                    assert "Deep" in [b["name"] for b in person.get("/api/bots").json()]
                    answers.append(person.post("/api/challenges", json={"opponent": "Deep", "game": "patchwork"}))
            running.result(timeout=120)
        assert [a.status_code for a in answers] == [201] * PEOPLE, [a.text for a in answers]
        assert sorted(games) == sorted(a.json()["code"] for a in answers)
        logs = [(cluster_folder / "cluster" / "halls" / f"hall-{n}.log").read_text() for n in (1, 2)]
        assert [("/api/challenges" in log) for log in logs].count(True) == 1, "challenges went to both halls"
    finally:
        cluster.kill()
