"""``parlour bench hall``: the hall under load, end to end.

Starts ``parlour serve`` as its own process on loopback with a fresh SQLite file, creates the
rooms over REST, then drives two WebSocket clients per room from another process (so they do not
share the server's core): each client plays its seat with a bot as soon as it must act. It
reports acknowledged moves per second and the latency from sending an ``act`` to receiving its
``ack`` (median and 99th percentile), then checks in the store that every acknowledged move is
there.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable


def register(targets: argparse._SubParsersAction) -> None:
    parser = targets.add_parser("hall", help="moves/s and ack latency of the hall under WebSocket load",
                                description="Rooms of two bot-driven WebSocket clients against one server process.")
    parser.add_argument("game", nargs="?", default="patchwork", help="the game's id (default patchwork)")
    parser.add_argument("--rooms", type=int, default=500, help="rooms played at once (default 500)")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="how long to measure, at most (default 20; it stops earlier when every game is over)")
    parser.add_argument("--bot", default="random", help="the bot the clients play with (default random)")
    parser.add_argument("--clients", type=int, default=1, help="client processes (default 1)")
    parser.add_argument("--think", type=float, default=0.0, metavar="SECONDS",
                        help="how long each player thinks before sending a move, on average: each pause is"
                             " drawn from 0 to 2 times it, so that the rooms do not move in step"
                             " (default 0: as fast as the"
                             " acks come, which saturates the server and measures its queue, not a room's wait)")
    parser.add_argument("--legal", action="store_true",
                        help="ask the server for each seat's legal actions, as the browser does (default:"
                             " the bots work their moves out from the view, hello with legal: false)")
    parser.set_defaults(run=run)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db_url: str, port: int, options: tuple[str, ...] = ("--no-client-quotas",),
                 log: Path | None = None) -> subprocess.Popen[bytes]:
    """``parlour serve`` on 127.0.0.1:``port`` as a process of its own, once it answers; by
    default without per-address quotas, since every room comes from this one machine. ``log``:
    a file for what it writes on stderr (by default a temporary one, read if it fails to start)."""
    import httpx

    # a file, not a pipe: nobody reads it while the server runs
    errors = tempfile.TemporaryFile() if log is None else open(log, "w+b")
    server = subprocess.Popen([sys.executable, "-m", "parlour.cli", "serve", "--host", "127.0.0.1",
                               "--port", str(port), "--db", db_url, "--quiet", *options],
                              stdout=subprocess.DEVNULL, stderr=errors)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return server
        except httpx.TransportError:
            if server.poll() is not None:
                errors.seek(0)
                raise RuntimeError(f"the server did not start: {errors.read().decode(errors='replace')}") from None
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("the server did not answer within 30 seconds")


async def create_rooms(base: str, game: str, players: int, rooms: int) -> list[tuple[str, list[str]]]:
    """``rooms`` started rooms of ``players`` open seats, joined: (code, seat tokens)."""
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        gate = asyncio.Semaphore(20)

        async def one(number: int) -> tuple[str, list[str]]:
            async with gate:
                room = (await client.post("/api/rooms", json={"game": game, "seats": [{"kind": "open"}] * players})).json()
                tokens = []
                for seat in range(players):
                    answer = await client.post(f"/api/rooms/{room['code']}/join", json={"name": f"bench-{number}-{seat}"})
                    tokens.append(answer.json()["seat_token"])
                await client.post(f"/api/rooms/{room['code']}/start",
                                  headers={"Authorization": f"Bearer {room['host_token']}"})
                return room["code"], tokens

        return await asyncio.gather(*(one(n) for n in range(rooms)))


# -- the client process ------------------------------------------------------------------------

class Window:
    """When the measured run starts and stops: every seat connects first, then all begin at once."""

    def __init__(self, seats: int) -> None:
        self.waiting = seats
        self.connected = asyncio.Event()  # every seat has said hello
        self.go = asyncio.Event()
        self.stop_at = 0.0

    def ready(self) -> None:
        self.waiting -= 1
        if self.waiting <= 0:
            self.connected.set()


async def play_seat(url: str, token: str, game_id: str, bot_name: str, with_legal: bool, window: Window,
                    latencies: list[float], done: list[int], think: float = 0.0,
                    acked_at: list[float] | None = None) -> None:
    """Connect, wait for the window to open, then play one seat until the game ends or the
    window closes; record send-to-ack latencies."""
    from orjson import dumps, loads
    from websockets.asyncio.client import connect

    from .. import bots
    from ..games import get

    game = get(game_id)
    async with connect(url, max_size=None, open_timeout=60) as ws:
        await ws.send(dumps({"type": "hello", "token": token, "legal": with_legal}).decode())
        welcome = loads(await ws.recv())
        window.ready()
        await window.go.wait()
        stop_at = window.stop_at
        seat = welcome["seat"]
        bot = bots.create(game, bot_name, seed=seat)
        rng = random.Random(token)  # each seat its own pace and moves
        sent: dict[int, float] = {}
        latest: dict[str, Any] | None = None
        number = 0
        while True:
            wait = stop_at - time.perf_counter() if not sent else 30.0
            if wait <= 0:
                break
            try:
                async with asyncio.timeout(wait):
                    message = loads(await ws.recv())
            except TimeoutError:
                if sent:
                    raise RuntimeError("no ack within 30 s") from None
                break
            kind = message["type"]
            if kind == "ack":
                latencies.append(time.perf_counter() - sent.pop(message["id"]))
                if acked_at is not None:  # when, on the machine's monotonic clock (for phases)
                    acked_at.append(time.monotonic())
                latest = None  # states read before the ack predate the move; the next one shows it
            elif kind == "state":
                latest = message
            elif kind == "error":
                raise RuntimeError(f"the server refused a move: {message}")
            if sent or latest is None:
                continue
            if latest["result"] is not None or time.perf_counter() >= stop_at:
                break
            if seat in latest["to_act"]:
                view = latest["view"]
                if with_legal:
                    action = bot.choose(view, seat, latest["legal"])
                else:  # work the move out from the view alone
                    state = game.sample(view, seat, rng)
                    action = (game.random_action(state, seat, rng) if bot_name == "random"
                              else bot.choose(view, seat, game.legal_actions(state, seat)))
                if think:  # people do not all click at the same moment, nor at the same pace
                    await asyncio.sleep(think * rng.uniform(0.0, 2.0))
                number += 1
                sent[number] = time.perf_counter()
                await ws.send(dumps({"type": "act", "id": number, "turn": latest["turn"], "action": action}).decode())
                latest = None
        done.append(1)


async def drive(base_ws: str, rooms: list[tuple[str, list[str]]], game: str, bot: str, with_legal: bool,
                seconds: float, think: float, connected: Callable[[], None], go: Any) -> dict[str, Any]:
    """Connect every seat, say ``connected()``, wait for ``go`` (a process-shared event) and play."""
    latencies: list[float] = []
    acked_at: list[float] = []
    done: list[int] = []
    window = Window(sum(len(tokens) for _, tokens in rooms))
    tasks = [asyncio.ensure_future(play_seat(f"{base_ws}/ws/rooms/{code}", token, game, bot, with_legal, window,
                                             latencies, done, think, acked_at))
             for code, tokens in rooms for token in tokens]
    finished = asyncio.ensure_future(asyncio.wait(tasks))  # a seat that failed to connect ends early
    await asyncio.wait([finished, asyncio.ensure_future(window.connected.wait())],
                       timeout=120, return_when=asyncio.FIRST_COMPLETED)
    connected()
    await asyncio.get_running_loop().run_in_executor(None, go.wait)  # every client process is connected
    begin, cpu = time.perf_counter(), time.process_time()
    window.stop_at = begin + seconds
    window.go.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.perf_counter() - begin
    errors = [repr(r) for r in results if isinstance(r, BaseException)]
    return {"latencies": latencies, "acked_at": acked_at, "elapsed": elapsed, "errors": errors[:5], "failed": len(errors),
            "cpu": time.process_time() - cpu}


def client_process(base_ws: str, rooms: list[tuple[str, list[str]]], game: str, bot: str, with_legal: bool,
                   seconds: float, think: float, go: Any, out: Any) -> None:
    try:
        import uvloop
        uvloop.install()
    except ImportError:
        pass
    from .. import bots, games  # noqa: F401  (loaded before the collector is settled)
    from .serve import settle_collector

    settle_collector()  # like the server: a full collection would stall every client at once
    report = asyncio.run(drive(base_ws, rooms, game, bot, with_legal, seconds, think,
                               lambda: out.send("connected"), go))
    out.send(report)
    out.close()


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) used so far by process ``pid``; 0 where /proc is missing."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# -- the command -------------------------------------------------------------------------------

def run(args: argparse.Namespace) -> int:
    import sqlalchemy as sa
    from rich.console import Console

    from ..core import ParlourError
    from ..games import get
    from ..hall.store import actions_table, make_engine
    from .bench import machine

    if args.rooms < 1 or args.seconds <= 0 or args.clients < 1:
        raise ParlourError("--rooms, --seconds and --clients must be positive")
    if args.think < 0:
        raise ParlourError("--think cannot be negative")
    game = get(args.game)
    console = Console(highlight=False)
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as folder:
        db_url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        port = free_port()
        server = start_server(db_url, port)
        try:
            console.print(f"server on 127.0.0.1:{port}, store {db_url}; creating {args.rooms} rooms...")
            # in a thread of its own: the caller may already run an event loop (tests, notebooks)
            with ThreadPoolExecutor(1) as thread:
                rooms = thread.submit(lambda: asyncio.run(create_rooms(
                    f"http://127.0.0.1:{port}", game.id, game.min_players, args.rooms))).result()
            shares = [rooms[i::args.clients] for i in range(args.clients)]
            context = multiprocessing.get_context("spawn")
            go = context.Event()
            pipes, processes = [], []
            for share in shares:
                receive, send = context.Pipe(duplex=False)
                process = context.Process(target=client_process, args=(
                    f"ws://127.0.0.1:{port}", share, game.id, args.bot, args.legal, args.seconds, args.think, go, send))
                process.start()
                pipes.append(receive)
                processes.append(process)
            for pipe in pipes:  # every seat of every client process has said hello
                if pipe.recv() != "connected":
                    raise ParlourError("a client process could not connect its seats")
            load_before, cpu_before = os.getloadavg(), cpu_seconds(server.pid)
            go.set()
            time.sleep(args.seconds)  # the server's CPU over the window, not the goodbyes after it
            load_after, server_cpu = os.getloadavg(), cpu_seconds(server.pid) - cpu_before
            reports = [pipe.recv() for pipe in pipes]
            for process in processes:
                process.join()
        finally:
            server.terminate()
            server.wait(30)
        engine = make_engine(db_url)
        with engine.connect() as conn:
            stored = conn.execute(sa.select(sa.func.count()).select_from(actions_table)).scalar_one()
        engine.dispose()
    latencies = sorted(x for r in reports for x in r["latencies"])
    elapsed = max(r["elapsed"] for r in reports)
    failed = sum(r["failed"] for r in reports)
    if not latencies:
        raise ParlourError(f"no move was acknowledged; client errors: {[r['errors'] for r in reports]}")
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] * 1000
    console.print(f"{game.name}: {args.rooms} rooms x {game.min_players} WebSocket clients ({args.bot} bots),"
                  f" {args.clients} client process(es), one server process;"
                  f" {'legal actions sent by the server' if args.legal else 'moves worked out by the clients'};"
                  f" {f'{args.think:g} s of thought before each move on average' if args.think else 'no thinking time'}")
    console.print(f"[bold]{len(latencies) / elapsed:,.0f} acknowledged moves/s[/bold]"
                  f" ({len(latencies):,} moves in {elapsed:.1f} s); send-to-ack latency"
                  f" median [bold]{p50:.1f} ms[/bold], p99 [bold]{p99:.1f} ms[/bold], max {latencies[-1] * 1000:.1f} ms")
    verdict = ("every acknowledged move is in the store" if stored == len(latencies) else
               "more than were acknowledged: some acks were lost with failed connections" if stored > len(latencies)
               else "MOVES ARE MISSING")
    console.print(f"store: {stored:,} actions committed, {len(latencies):,} acknowledged: {verdict}")
    moves = len(latencies)
    client_cpu = sum(r["cpu"] for r in reports)
    console.print(f"CPU time: server {server_cpu:.1f} s ({server_cpu / moves * 1000:.2f} ms a move, so"
                  f" {moves / server_cpu:,.0f} moves per server CPU-second), clients {client_cpu:.1f} s"
                  if server_cpu > 0 else "CPU time: not measured on this system")
    if failed:
        console.print(f"[red]{failed} client connections failed[/red]: {reports[0]['errors']}")
    console.print(machine(), style="dim")
    console.print("load average during the run: " + ", ".join(f"{x:.2f}" for x in load_before)
                  + " -> " + ", ".join(f"{x:.2f}" for x in load_after), style="dim")
    return 0 if stored >= len(latencies) and not failed else 1
