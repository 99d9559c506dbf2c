"""``parlour bench hall``: the hall under load, end to end.

Starts ``parlour serve`` as its own process on loopback with a fresh SQLite file, creates the
rooms over REST, then drives two WebSocket clients per room from another process (so they do not
share the server's core): each client plays its seat with a bot as soon as it must act. It
reports acknowledged moves per second and the latency from sending an ``act`` to receiving its
``ack`` (median and 99th percentile), then checks in the store that every acknowledged move is
there. The client processes do not run Python's collector during the window (their own pauses
would count as the hall's latency); where the acks over 5 ms waited is read off the hall itself
(cli/bench_stalls.py).

``--servers 1,2`` runs the same load through nginx in front of one, then two halls on PostgreSQL
and Redis, started as ``parlour cluster`` starts them (each run on a database of its own), and adds
the CPU time of PostgreSQL, Redis and nginx to the halls', with PostgreSQL's write transactions,
Redis's commands and the halls' memory a room.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import multiprocessing
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .bench_alongside import finished_games
from .bench_stalls import Counts, difference, hall_histograms, histograms, said
from .cluster import MAX_SERVERS, Cluster
from .processes import cpu_seconds, free_port, resident_bytes, start_server

# The hall under test: no quota per address (every room comes from this machine) and no rate per
# connection either: with few rooms, a client of a bot with no thinking time moves more than 30
# times a second (a person's bound), and a refusal would end the measurement, not slow it.
SERVE_OPTIONS = ("--no-client-quotas", "--limit", "connection_messages=1000000/second")


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
    parser.add_argument("--analyses", type=int, default=0, metavar="N",
                        help="N games played to their end by bots first, whose analyses the hall is asked to"
                             " make during the window (one hall only; default 0): do they slow the rooms?")
    parser.add_argument("--servers", type=servers_list, metavar="N[,N...]",
                        help="through nginx in front of N halls on PostgreSQL and Redis (parlour cluster),"
                             " each N in turn, e.g. --servers 1,2 (default: one hall on SQLite, no proxy)")
    parser.set_defaults(run=run)


def servers_list(text: str) -> list[int]:
    """``1,2`` -> [1, 2]; refused in words unless each is a whole number of halls in range."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--servers takes numbers of halls separated by commas, e.g. 1,2; not {text!r}"
                                         ) from None
    if not all(1 <= n <= MAX_SERVERS for n in counts) or len(counts) > 8:
        raise argparse.ArgumentTypeError(f"--servers takes up to 8 numbers of halls, each 1 to {MAX_SERVERS};"
                                         f" not {text!r}")
    return counts


async def create_rooms(base: str, game: str, players: int, rooms: int) -> list[tuple[str, list[str]]]:
    """``rooms`` started rooms of ``players`` open seats, joined: (code, seat tokens)."""
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        gate = asyncio.Semaphore(20)

        async def one(number: int) -> tuple[str, list[str]]:
            async with gate:
                asked = {"game": game, "seats": [{"kind": "open"}] * players}
                room = (await client.post("/api/rooms", json=asked)).json()
                tokens = []
                for seat in range(players):
                    answer = await client.post(f"/api/rooms/{room['code']}/join",
                                               json={"name": f"bench-{number}-{seat}"})
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
                    acked_at: list[float] | None = None, retried: list[int] | None = None) -> None:
    """Connect, wait for the window to open, then play one seat until the game ends or the
    window closes; record send-to-ack latencies. A move answered ``retry`` (with several halls,
    the room changed hands while it was on its way: nothing was done) is chosen again from the
    newest state, as docs/protocol.md asks a client to do, and counted in ``retried``."""
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
        acted_on: dict[str, Any] | None = None  # the newest state when the move in flight was sent
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
            elif kind == "error" and message.get("code") == "retry" and message.get("id") in sent:
                sent.pop(message["id"])
                latest = latest or acted_on  # nothing was done: choose again from the newest state
                if retried is not None:
                    retried.append(1)
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
                acted_on, latest = latest, None
        done.append(1)


async def drive(base_ws: str, rooms: list[tuple[str, list[str]]], game: str, bot: str, with_legal: bool,
                seconds: float, think: float, connected: Callable[[], None], go: Any) -> dict[str, Any]:
    """Connect every seat, say ``connected()``, wait for ``go`` (a process-shared event) and play."""
    from ..hall import observe  # its samplers, on the client process (cli/bench_stalls.py)

    latencies: list[float] = []
    acked_at: list[float] = []
    done: list[int] = []
    retried: list[int] = []
    window = Window(sum(len(tokens) for _, tokens in rooms))
    observe.watch_collector()
    watching = asyncio.ensure_future(observe.watch_loop())
    tasks = [asyncio.ensure_future(play_seat(f"{base_ws}/ws/rooms/{code}", token, game, bot, with_legal, window,
                                             latencies, done, think, acked_at, retried))
             for code, tokens in rooms for token in tokens]
    finished = asyncio.ensure_future(asyncio.wait(tasks))  # a seat that failed to connect ends early
    await asyncio.wait([finished, asyncio.ensure_future(window.connected.wait())],
                       timeout=120, return_when=asyncio.FIRST_COMPLETED)
    connected()
    await asyncio.get_running_loop().run_in_executor(None, go.wait)  # every client process is connected
    # The clients do not collect during the window: a pass of theirs (20-50 ms each, docs/benchmarks.md)
    # would be counted as the hall's latency. What they leave meanwhile is collected afterwards.
    gc.collect()
    gc.freeze()
    gc.disable()
    begin, cpu, stalls = time.perf_counter(), time.process_time(), histograms(observe.REGISTRY.collect())
    window.stop_at = begin + seconds
    window.go.set()
    try:
        results = await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        gc.enable()
    elapsed = time.perf_counter() - begin
    watching.cancel()
    errors = [repr(r) for r in results if isinstance(r, BaseException)]
    return {"latencies": latencies, "acked_at": acked_at, "elapsed": elapsed, "errors": errors[:5],
            "failed": len(errors), "retried": len(retried), "cpu": time.process_time() - cpu,
            "stalls": difference(histograms(observe.REGISTRY.collect()), stalls)}


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


# -- the command -------------------------------------------------------------------------------

@dataclass
class Run:
    """One measured window: what the clients saw, and the CPU time of each part of the server."""

    latencies: list[float]  # send-to-ack, seconds, sorted
    elapsed: float
    failed: int  # client connections that failed
    errors: list[str]
    client_cpu: float
    cpu: dict[str, float]  # CPU seconds over the window, by part ("server", "halls", "PostgreSQL", ...)
    load: tuple[tuple[float, ...], tuple[float, ...]]  # load averages before and after
    counted: dict[str, int] = field(default_factory=dict)  # growth of counters over the window
    retried: int = 0  # moves answered ``retry`` and chosen again (several halls: a room changed hands)
    memory: tuple[int, int] = (0, 0)  # the halls' resident bytes before the rooms, at the window's end
    stored: int = 0  # actions in the store once the clients are done
    rooms: int = 0
    alongside: str = ""  # what ran beside the play (--analyses)
    stalls: str = ""  # where acks over 5 ms waited (one hall only: cli/bench_stalls.py)

    @property
    def moves_per_second(self) -> float:
        return len(self.latencies) / self.elapsed

    def percentile(self, share: float) -> float:
        """Milliseconds."""
        return self.latencies[min(len(self.latencies) - 1, int(share * len(self.latencies)))] * 1000


def measure(args: argparse.Namespace, game: Any, port: int, parts: dict[str, list[int]],
            counters: Callable[[], dict[str, int]] = dict, analyses: Sequence[str] = (),
            hall: int | None = None) -> Run:
    """Create the rooms through 127.0.0.1:``port``, play them from ``args.clients`` client
    processes for ``args.seconds``, and take over that time the CPU time of each part's processes
    and the growth of ``counters()``; the first part's resident memory is taken before the rooms
    are made and at the end of the window. ``analyses``: finished games whose analyses are asked
    for during the window (cli/bench_alongside.py); ``hall``: the port of the one hall whose
    ``/metrics`` tell where slow acks waited (cli/bench_stalls.py)."""
    from ..core import ParlourError
    from .bench_alongside import Analysing

    memory_before = sum(resident_bytes(pid) for pid in next(iter(parts.values())))

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
        send.close()  # the child's copy is the only one left: a child that dies ends the pipe
        pipes.append(receive)
        processes.append(process)
    try:
        for pipe in pipes:  # every seat of every client process has said hello
            if pipe.recv() != "connected":
                raise ParlourError("a client process could not connect its seats")
    except EOFError:
        raise ParlourError("a client process ended before its seats were connected") from None

    def cpu() -> dict[str, float]:
        return {name: sum(cpu_seconds(pid) for pid in pids) for name, pids in parts.items()}

    load_before, cpu_before, counted = os.getloadavg(), cpu(), counters()
    inside_before = hall_histograms(hall) if hall is not None else None
    with Analysing(f"http://127.0.0.1:{port}", list(analyses)) as analysing:
        go.set()
        time.sleep(args.seconds)  # the server's CPU over the window, not the goodbyes after it
        load_after, cpu_after = os.getloadavg(), cpu()
    counted = {name: value - counted[name] for name, value in counters().items()}
    inside = None if hall is None or inside_before is None else difference(hall_histograms(hall), inside_before)
    memory_after = sum(resident_bytes(pid) for pid in next(iter(parts.values())))
    try:
        reports = [pipe.recv() for pipe in pipes]
    except EOFError:
        raise ParlourError("a client process ended without its report") from None
    for process in processes:
        process.join()
    return Run(latencies=sorted(x for r in reports for x in r["latencies"]),
               elapsed=max(r["elapsed"] for r in reports), failed=sum(r["failed"] for r in reports),
               retried=sum(r["retried"] for r in reports),
               errors=[e for r in reports for e in r["errors"]][:5], client_cpu=sum(r["cpu"] for r in reports),
               cpu={name: cpu_after[name] - cpu_before[name] for name in parts}, load=(load_before, load_after),
               counted=counted, memory=(memory_before, memory_after), rooms=len(rooms),
               alongside=analysing.said() if analyses else "",
               stalls=said(inside, clients_together([r["stalls"] for r in reports])) if inside is not None else "")


def clients_together(readings: list[Counts]) -> Counts:
    """The client processes' histograms added up."""
    together: Counts = {}
    for reading in readings:
        for name, by_key in reading.items():
            for key, buckets in by_key.items():
                mine = together.setdefault(name, {}).setdefault(key, {})
                for bound, value in buckets.items():
                    mine[bound] = mine.get(bound, 0.0) + value
    return together


def stored_actions(db_url: str) -> int:
    import sqlalchemy as sa

    from ..hall.store import actions_table, make_engine

    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            return conn.execute(sa.select(sa.func.count()).select_from(actions_table)).scalar_one()
    finally:
        engine.dispose()


def cluster_runs(console: Any, args: argparse.Namespace, game: Any) -> list[tuple[int, Run]]:
    """The same load through nginx in front of each number of halls of ``args.servers``: a
    cluster started as ``parlour cluster`` starts it (:class:`~parlour.cli.cluster.Cluster`), in a
    temporary folder whose PostgreSQL the next number of halls reuses, with a database of its own
    (no room of the run before is loaded)."""
    runs = []
    with tempfile.TemporaryDirectory(prefix="parlour-bench-cluster-") as folder:
        os.chmod(folder, 0o755)  # PostgreSQL runs as its own user when this runs as root
        for number, servers in enumerate(args.servers, 1):
            with Cluster(Path(folder), servers, free_port(), hall_options=("--quiet", *SERVE_OPTIONS), per_address=None,
                         say=lambda line: console.print(line, style="dim"), database=f"bench_{number}") as cluster:
                pids = cluster.pids()
                parts = {"halls": [pids[f"hall {n}"] for n in range(1, servers + 1)],
                         **{name: [pids[name]] for name in ("PostgreSQL", "Redis", "nginx")}}
                console.print(f"{servers} hall(s) behind nginx at {cluster.address}; creating {args.rooms} rooms...")
                with cluster_counters(cluster) as counters:
                    result = measure(args, game, cluster.port, parts, counters)
                result.stored = stored_actions(cluster.db_url)
            runs.append((servers, result))
    return runs


@contextmanager
def cluster_counters(cluster: Any) -> Iterator[Callable[[], dict[str, int]]]:
    """What PostgreSQL and Redis have done so far: write transactions (transaction ids given out,
    read at once, where PostgreSQL's statistics lag by seconds) and commands Redis processed."""
    import redis
    import sqlalchemy as sa

    from ..hall.store import make_engine

    engine = make_engine(cluster.db_url)
    client = redis.Redis.from_url(cluster.redis_url)
    reads = itertools.count()

    def read() -> dict[str, int]:
        with engine.connect() as conn:
            next_id = conn.execute(sa.text("SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint")).scalar_one()
        commands = int(client.info("stats")["total_commands_processed"]) - next(reads)  # less our own INFOs
        return {"PostgreSQL write transactions": next_id, "Redis commands": commands}

    try:
        yield read
    finally:
        client.close()
        engine.dispose()


def report(console: Any, args: argparse.Namespace, game: Any, result: Run, server: str) -> bool:
    """Print one run's figures; whether it was clean (every acknowledged move stored, no failure)."""
    from ..core import ParlourError
    from .bench import machine

    latencies = result.latencies
    if not latencies:
        raise ParlourError(f"no move was acknowledged; client errors: {result.errors}")
    thinking = f"{args.think:g} s of thought before each move on average" if args.think else "no thinking time"
    console.print(f"{game.name}: {args.rooms} rooms x {game.min_players} WebSocket clients ({args.bot} bots),"
                  f" {args.clients} client process(es), {server};"
                  f" {'legal actions sent by the server' if args.legal else 'moves worked out by the clients'};"
                  f" {thinking}")
    console.print(f"[bold]{result.moves_per_second:,.0f} acknowledged moves/s[/bold]"
                  f" ({len(latencies):,} moves in {result.elapsed:.1f} s); send-to-ack latency"
                  f" median [bold]{statistics.median(latencies) * 1000:.1f} ms[/bold],"
                  f" p99 [bold]{result.percentile(0.99):.1f} ms[/bold], max {latencies[-1] * 1000:.1f} ms")
    verdict = ("every acknowledged move is in the store" if result.stored == len(latencies) else
               "more than were acknowledged: some acks were lost with failed connections"
               if result.stored > len(latencies) else "MOVES ARE MISSING")
    console.print(f"store: {result.stored:,} actions committed, {len(latencies):,} acknowledged: {verdict}")
    moves = len(latencies)
    server_cpu = sum(result.cpu.values())
    parts = ", ".join(f"{name} {seconds:.1f} s ({seconds / moves * 1000:.3f} ms)"
                      for name, seconds in result.cpu.items())
    console.print(f"CPU time: server {server_cpu:.1f} s ({server_cpu / moves * 1000:.2f} ms a move, so"
                  f" {moves / server_cpu:,.0f} moves per server CPU-second)"
                  + (f" = {parts}" if len(result.cpu) > 1 else "") + f"; clients {result.client_cpu:.1f} s"
                  if server_cpu > 0 else "CPU time: not measured on this system")
    if result.counted:
        console.print("; ".join(f"{name}: {count:,} over the window ({moves / count:.1f} moves each)" if count else
                                f"{name}: none over the window" for name, count in result.counted.items()))
    before, after = result.memory
    if after:
        console.print(f"resident memory of the {next(iter(result.cpu))}: {before / 2**20:.0f} MiB before the rooms,"
                      f" {after / 2**20:.0f} MiB at the end of the window, so"
                      f" {(after - before) / result.rooms / 1024:.0f} KiB a room (its game, its seats' connections)")
    if result.retried:
        console.print(f"{result.retried} moves answered `retry` (the room changed hands between halls; nothing"
                      " was done) and chosen again from the newest state")
    if result.failed:
        console.print(f"[red]{result.failed} client connections failed[/red]: {result.errors}")
    if result.alongside:
        console.print(result.alongside)
    if result.stalls:
        console.print(result.stalls)
    console.print(machine(), style="dim")
    console.print("load average during the run: " + ", ".join(f"{x:.2f}" for x in result.load[0])
                  + " -> " + ", ".join(f"{x:.2f}" for x in result.load[1]), style="dim")
    return result.stored >= len(latencies) and not result.failed


def summary(console: Any, runs: list[tuple[int, Run]]) -> None:
    """The runs side by side: one line per number of halls."""
    from rich.table import Table

    from .shared import print_table

    table = Table(title="through nginx: CPU in ms a move, moves per PostgreSQL write, memory a room")
    for heading in ("halls", "moves/s", "p50 ms", "p99 ms", "CPU halls", "PostgreSQL", "Redis", "nginx", "all",
                    "moves/write", "Redis cmd/move", "KiB/room"):
        table.add_column(heading, justify="right")
    for servers, result in runs:
        moves = len(result.latencies)
        writes = result.counted.get("PostgreSQL write transactions", 0)
        before, after = result.memory
        median = statistics.median(result.latencies) * 1000
        table.add_row(str(servers), f"{result.moves_per_second:,.0f}", f"{median:.1f}",
                      f"{result.percentile(0.99):.1f}",
                      *(f"{result.cpu[name] / moves * 1000:.3f}" for name in ("halls", "PostgreSQL", "Redis", "nginx")),
                      f"{sum(result.cpu.values()) / moves * 1000:.3f}", f"{moves / writes:.1f}" if writes else "-",
                      f"{result.counted.get('Redis commands', 0) / moves:.2f}",
                      f"{(after - before) / result.rooms / 1024:.0f}")
    print_table(console, table)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from ..core import ParlourError
    from ..games import get

    if args.rooms < 1 or args.seconds <= 0 or args.clients < 1:
        raise ParlourError("--rooms, --seconds and --clients must be positive")
    if args.think < 0:
        raise ParlourError("--think cannot be negative")
    if args.analyses < 0 or args.analyses and args.servers is not None:
        raise ParlourError("--analyses takes a number of games, 0 or more, and one hall (not --servers)")
    game = get(args.game)
    console = Console(highlight=False)
    if args.servers is None:
        with tempfile.TemporaryDirectory(prefix="parlour-bench-") as folder:
            db_url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
            port = free_port()
            server = start_server(db_url, port, SERVE_OPTIONS)
            try:
                console.print(f"server on 127.0.0.1:{port}, store {db_url}; creating {args.rooms} rooms...")
                codes = finished_games(f"http://127.0.0.1:{port}", game.id, game.min_players, args.analyses)
                before = stored_actions(db_url) if codes else 0  # the bots' games analysed alongside
                result = measure(args, game, port, {"server": [server.pid]}, analyses=codes, hall=port)
            finally:
                server.terminate()
                server.wait(30)
            result.stored = stored_actions(db_url) - before
        return 0 if report(console, args, game, result, "one server process") else 1
    runs = cluster_runs(console, args, game)
    clean = [report(console, args, game, result, f"{servers} hall process(es) behind nginx, store on PostgreSQL")
             for servers, result in runs]
    summary(console, runs)
    return 0 if all(clean) else 1
