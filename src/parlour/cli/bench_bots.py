"""``parlour bench bots``: many bot accounts connected to one hall at once, played by people.

Starts ``parlour serve`` as its own process on loopback with a fresh SQLite file, makes ``--bots``
bot accounts (each with its API token) and ``--bots x --games`` people's accounts over REST, then,
in this process, connects every bot as ``parlour bot connect`` does (its :class:`BotClient`, one
``/ws/bot`` each, one room WebSocket per game, ``--bot`` choosing the moves) and lets the people
challenge them: each bot plays ``--games`` games at once, ``--rounds`` games in a row. Each person
plays their seat with random legal moves through the room's WebSocket.

It reports the challenges' answer time (a POST /api/challenges: asking the bot, its accept, the room
made and started), the people's moves' send-to-ack latency, how long a person waited for the bot's
reply, the games finished and any forfeit (a bot whose clock ran out) or failure, and the server's
CPU time and memory. Speed is never asserted in tests; the test runs it small and checks that every
game ended with no forfeit.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .processes import cpu_seconds, free_port, resident_bytes, start_server

PASSWORD = "bench bots' password"
PROXY = "127.0.0.1"  # the server believes this process's X-Forwarded-For: each account from an address of its own
# A connection for each request: one kept while a person plays (longer than the server keeps an idle
# one) may be closed by the server just as the next request goes out on it (httpx's ReadError).
FRESH = {"max_keepalive_connections": 0}


def register(targets: argparse._SubParsersAction) -> None:
    parser = targets.add_parser("bots", help="bot accounts connected at once, challenged and played by people",
                                description="Bot accounts connected to one hall on loopback at once (as parlour bot"
                                            " connect connects them), each challenged by people to several games"
                                            " at once: challenge time, move latency, the bots' replies, forfeits.")
    parser.add_argument("game", nargs="?", default="patchwork", help="the game's id (default patchwork)")
    parser.add_argument("--bots", type=int, default=8, help="bot accounts connected at once (default 8)")
    parser.add_argument("--games", type=int, default=2, help="games each bot plays at once (default 2)")
    parser.add_argument("--rounds", type=int, default=1, help="games each person plays in a row (default 1)")
    parser.add_argument("--bot", default="builtin:random",
                        help="what chooses the bots' moves, as parlour bot connect takes it (default builtin:random)")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    parser.set_defaults(run=run)


@dataclass
class Seen:
    """What the people saw, in seconds."""

    challenges: list[float] = field(default_factory=list)  # POST /api/challenges to its 201
    acks: list[float] = field(default_factory=list)  # a person's act to its ack
    replies: list[float] = field(default_factory=list)  # a person's ack to their next turn, the bot having moved
    rooms: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # challenges not accepted, in the hall's words
    errors: list[str] = field(default_factory=list)


def percentile(values: list[float], share: float) -> float:
    """Milliseconds; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


async def make_accounts(base: str, bots: int, people: int) -> tuple[list[tuple[str, str]], list[Any]]:
    """``bots`` bot accounts (name, API token) and ``people`` signed-in people's clients."""
    import httpx

    async def sign_up(name: str, number: int) -> httpx.AsyncClient:
        # one address each (the server believes this process's X-Forwarded-For): sign-ups are counted by address
        address = f"10.77.{number // 250}.{number % 250 + 1}"
        client = httpx.AsyncClient(base_url=base, timeout=60, limits=httpx.Limits(**FRESH),
                                   headers={"X-Forwarded-For": address})
        answer = await client.post("/api/accounts", json={"name": name, "password": PASSWORD})
        if answer.status_code != 201:
            raise RuntimeError(f"signing up {name}: {answer.status_code} {answer.text}")
        return client

    gate = asyncio.Semaphore(4)  # password hashing is the slow part; the hall hashes one at a time anyway

    async def bot(number: int) -> tuple[str, str]:
        async with gate:
            name = f"bench-bot-{number + 1}"
            client = await sign_up(name, number)
        try:
            answer = await client.post("/api/me/bot")
        finally:
            await client.aclose()
        if answer.status_code != 201:
            raise RuntimeError(f"making {name} a bot account: {answer.status_code} {answer.text}")
        return name, str(answer.json()["token"])

    async def person(number: int) -> Any:
        async with gate:
            return await sign_up(f"bench-person-{number + 1}", bots + number)

    return list(await asyncio.gather(*(bot(n) for n in range(bots)))), list(
        await asyncio.gather(*(person(n) for n in range(people))))


async def play_person(url: str, token: str, seen: Seen) -> None:
    """Plays one person's seat with random legal moves until the game ends."""
    from websockets.asyncio.client import connect

    rng = random.Random(token)
    async with connect(url, max_size=None, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent = acked = 0.0
        acked_turn = -1
        while True:
            async with asyncio.timeout(120):  # the bot's turn timer is 60 s: something comes before this
                message = json.loads(await ws.recv())
            kind = message["type"]
            if kind == "ack":
                acked = time.perf_counter()
                seen.acks.append(acked - sent)
                sent = 0.0
            elif kind == "error":
                raise RuntimeError(f"the hall refused a move: {message.get('message')}")
            elif kind == "state":
                if message["result"] is not None:
                    return
                if sent or not message.get("legal"):
                    continue
                if acked and message["turn"] > acked_turn + 1:  # the bot moved in between
                    seen.replies.append(time.perf_counter() - acked)
                acked, acked_turn = 0.0, message["turn"]
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "id": message["turn"], "turn": message["turn"],
                                          "action": rng.choice(message["legal"])}))


async def challenger(client: Any, ws_base: str, bot: str, game: str, rounds: int, seen: Seen) -> None:
    try:
        for _ in range(rounds):
            began = time.perf_counter()
            answer = await client.post("/api/challenges", json={"opponent": bot, "game": game})
            if answer.status_code != 201:
                seen.refused.append(f"{answer.status_code} {answer.json().get('detail', answer.text)}")
                continue
            seen.challenges.append(time.perf_counter() - began)
            room = answer.json()
            seen.rooms.append(room["code"])
            try:
                await play_person(f"{ws_base}/ws/rooms/{room['code']}", room["seat_token"], seen)
            except Exception as error:  # counted and shown; the other games go on
                seen.errors.append(f"{room['code']}: {type(error).__name__}: {error}")
    finally:
        await client.aclose()


async def load(base: str, args: argparse.Namespace, logs: Path, server: int) -> tuple[Seen, float, int, int, float]:
    """The whole run: (what the people saw, seconds, bots online, forfeits, the server's CPU seconds
    while the games were played: the accounts' password hashing before is not counted)."""
    import httpx

    from .bot_connect import BotClient

    ws_base = "ws" + base[4:]
    bots, people = await make_accounts(base, args.bots, args.bots * args.games)
    clients = [BotClient(base, token, args.bot, [args.game], args.games, str(logs)) for _, token in bots]
    tasks = [asyncio.ensure_future(c.run()) for c in clients]
    seen = Seen()
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=httpx.Limits(**FRESH)) as look:
        names = {name for name, _ in bots}
        deadline = time.monotonic() + 60
        online = 0
        while time.monotonic() < deadline:  # every bot says "ready" before the people come
            online = len(names & {b["name"] for b in (await look.get("/api/bots")).json()})
            if online == len(names):
                break
            await asyncio.sleep(0.2)
        began, cpu = time.perf_counter(), cpu_seconds(server)
        await asyncio.gather(*(challenger(person, ws_base, bots[n % len(bots)][0], args.game, args.rounds, seen)
                               for n, person in enumerate(people)))
        elapsed, cpu = time.perf_counter() - began, cpu_seconds(server) - cpu
        forfeits = 0
        for code in seen.rooms:
            status = (await look.get(f"/api/rooms/{code}")).json()
            forfeits += sum(seat.get("left") == "timed_out" for seat in status["seats"])
            if status["status"] != "over":
                seen.errors.append(f"{code}: still {status['status']}")
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return seen, elapsed, online, forfeits, cpu


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from ..games import get
    from .bench import machine

    game = get(args.game)
    if not 1 <= args.bots <= 200 or not 1 <= args.games <= 20 or not 1 <= args.rounds <= 100:
        raise SystemExit("parlour bench bots: --bots 1 to 200, --games 1 to 20, --rounds 1 to 100")
    console = Console()
    with tempfile.TemporaryDirectory(prefix="parlour-bench-bots-") as scratch:
        port = free_port()
        options = ("--no-client-quotas", "--proxy", PROXY, "--limit", f"bot_games={max(4, args.games)}")
        server = start_server(f"sqlite:///{scratch}/bench.sqlite3", port, options, log=Path(scratch) / "server.log")
        try:
            load_before = _load()
            with open(Path(scratch) / "bots.log", "w") as said, contextlib.redirect_stderr(said):
                seen, elapsed, online, forfeits, cpu = asyncio.run(
                    load(f"http://127.0.0.1:{port}", args, Path(scratch), server.pid))
            memory = resident_bytes(server.pid)
        finally:
            server.terminate()
            server.wait(timeout=30)
    report = {
        "game": game.id, "bots": args.bots, "online": online, "games_at_once": args.bots * args.games,
        "games": len(seen.rooms), "forfeits": forfeits, "refused": seen.refused[:5], "errors": seen.errors[:5],
        "failed": len(seen.errors) + len(seen.refused), "seconds": round(elapsed, 2),
        "challenge_ms": {"median": percentile(seen.challenges, 0.5), "p95": percentile(seen.challenges, 0.95),
                         "max": percentile(seen.challenges, 1.0)},
        "ack_ms": {"median": percentile(seen.acks, 0.5), "p99": percentile(seen.acks, 0.99), "moves": len(seen.acks)},
        "bot_reply_ms": {"median": percentile(seen.replies, 0.5), "p95": percentile(seen.replies, 0.95),
                         "replies": len(seen.replies)},
        "server_cpu_seconds": round(cpu, 2), "server_resident_mib": round(memory / 2**20),
        "machine": machine(), "load_before": load_before, "load_after": _load()}
    if args.json:
        print(json.dumps(report))
        return 0 if report["failed"] == 0 and forfeits == 0 else 1
    console.print(f"{game.name}: {online} of {args.bots} bot accounts online at once ({args.bot}), each"
                  f" playing {args.games} game(s) at once against people, {args.rounds} in a row:"
                  f" {len(seen.rooms)} games in {elapsed:.1f} s")
    ms = report["challenge_ms"]
    console.print(f"challenges (asked, accepted, room made and started): median {ms['median']:.0f} ms,"
                  f" p95 {ms['p95']:.0f} ms, most {ms['max']:.0f} ms")
    ms = report["ack_ms"]
    console.print(f"people's moves, send to ack: median {ms['median']:.1f} ms, p99 {ms['p99']:.1f} ms"
                  f" ({ms['moves']:,} moves)")
    ms = report["bot_reply_ms"]
    console.print(f"the bots' replies (a person's ack to their next turn): median {ms['median']:.0f} ms,"
                  f" p95 {ms['p95']:.0f} ms ({ms['replies']:,})")
    verdict = "[green]none[/green]" if forfeits == 0 else f"[red]{forfeits}[/red]"
    console.print(f"forfeits (a bot's clock ran out): {verdict}; challenges refused: {len(seen.refused)}"
                  f" {seen.refused[:3]}; games that failed: {len(seen.errors)} {seen.errors[:3]}")
    console.print(f"server: {cpu:.1f} CPU seconds while the games were played, {memory / 2**20:.0f} MiB"
                  " resident at the end")
    console.print(machine(), style="dim")
    return 0 if report["failed"] == 0 and forfeits == 0 else 1


def _load() -> list[float]:
    import os

    return [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else []
