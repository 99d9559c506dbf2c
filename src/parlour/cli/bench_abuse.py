"""``parlour bench abuse``: the hall under attack while normal rooms play.

Starts ``parlour serve`` on loopback with the public hall's limits (the normal rooms' address,
127.0.0.1, exempt from the per-address quotas, since it stands for many people), starts rooms of
two WebSocket clients that play at a person's pace from one client process, then runs each
attack of issues 13 and 27 in turn, for a fixed time each, from another process bound to its own
loopback address (127.0.0.2, so that the per-address quotas count it apart). It reports the
normal rooms' send-to-ack latency (median and p99) with no attack and during each attack, the
peak memory of the server (with its bot workers) during each, and what the attacker got back.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ATTACKER = "127.0.0.2"  # a loopback address of its own: Linux routes all of 127/8 to lo
# in this order: the attacks that make rooms of their own come before the one that spends the
# attacker's quota of new rooms
ATTACKS = ("replay-names", "huge-bodies", "never-reads", "padded-actions", "deep-json", "message-flood",
           "replay-frames", "half-open", "cycling-game", "chat-reconnect",  # issue 27
           "bot-rooms", "lobby-flood", "room-flood", "sign-in-loop")
MiB = 1024 * 1024


def register(targets: argparse._SubParsersAction) -> None:
    parser = targets.add_parser("abuse", help="normal rooms' ack latency and the server's memory under each attack",
                                description="Normal rooms play while one client runs each attack of issues 13 and"
                                            " 27 in turn (docs/benchmarks.md: the goals are other rooms' p99 under"
                                            " 50 ms and the server under 500 MiB during each).")
    parser.add_argument("--rooms", type=int, default=50, help="normal rooms playing throughout (default 50)")
    parser.add_argument("--seconds", type=float, default=8.0, help="how long each attack lasts (default 8)")
    parser.add_argument("--think", type=float, default=2.5, metavar="SECONDS",
                        help="a normal player's thinking time per move, on average (default 2.5, so that a"
                             " Patchwork game of random moves, about 43 of them, outlasts the run)")
    parser.add_argument("--attack", action="append", choices=ATTACKS,
                        help="run only this attack (repeatable; default: every one)")
    parser.set_defaults(run=run)


# -- the attacks: each runs for ``seconds`` and returns what it got back ---------------------------
def http_client(base: str) -> Any:
    import httpx

    return httpx.AsyncClient(base_url=base, timeout=30, transport=httpx.AsyncHTTPTransport(local_address=ATTACKER))


async def socket(base_ws: str, code: str) -> Any:
    from websockets.asyncio.client import connect

    return await connect(f"{base_ws}/ws/rooms/{code}", max_size=None, open_timeout=30,
                         local_addr=(ATTACKER, 0))


async def hammer(seconds: float, one: Any, parallel: int = 4) -> dict[str, int]:
    """Call ``one()`` (a coroutine giving a word for what came back) again and again from
    ``parallel`` tasks for ``seconds``; counts the words."""
    counts: dict[str, int] = {}
    stop = time.monotonic() + seconds

    async def loop() -> None:
        while time.monotonic() < stop:
            try:
                word = await one()
            except Exception as error:  # noqa: BLE001  (a refusal by closing counts too)
                word = type(error).__name__
            counts[word] = counts.get(word, 0) + 1

    await asyncio.gather(*(loop() for _ in range(parallel)))
    return counts


async def patiently(send: Any, tries: int = 5) -> Any:
    """The answer of ``send()``, waiting out a quota's Retry-After (the attacks before this one
    spent the attacker's address's budget) up to ``tries`` times."""
    for _ in range(tries - 1):
        answer = await send()
        if answer.status_code != 429:
            return answer
        await asyncio.sleep(min(65.0, float(answer.headers.get("retry-after", "1"))))
    return await send()


async def own_room(client: Any, game: str = "patchwork") -> tuple[str, list[str]]:
    """A started room of the attacker's own, both seats joined by it: (code, seat tokens)."""
    answer = await patiently(lambda: client.post("/api/rooms", json={"game": game,
                                                                     "seats": [{"kind": "open"}] * 2}))
    if answer.status_code != 201:
        raise RuntimeError(f"the attacker's room was refused: {answer.text[:100]}")
    room = answer.json()
    tokens = []
    for seat in range(2):
        name = f"x{seat}"
        joined = await patiently(lambda name=name: client.post(f"/api/rooms/{room['code']}/join", json={"name": name}))
        tokens.append(joined.json()["seat_token"])
    await patiently(lambda: client.post(f"/api/rooms/{room['code']}/start",
                                        headers={"Authorization": f"Bearer {room['host_token']}"}))
    return room["code"], tokens


async def attack(name: str, base: str, seconds: float) -> dict[str, int]:
    base_ws = base.replace("http", "ws", 1)
    async with http_client(base) as client:
        if name == "replay-names":
            replay = json.dumps(played_replay()).replace('"Ana"', '"' + "A" * MiB + '"').encode()

            async def one() -> str:
                answer = await client.post("/api/replays/frames", content=replay,
                                           headers={"content-type": "application/json"})
                return str(answer.status_code)
            return await hammer(seconds, one, parallel=2)
        if name == "huge-bodies":
            body = b'{"game": "patchwork", "seats": [], "host_name": "' + b"x" * (50 * MiB) + b'"}'

            async def one() -> str:
                answer = await client.post("/api/rooms", content=body, headers={"content-type": "application/json"})
                return str(answer.status_code)
            return await hammer(seconds, one, parallel=2)
        if name == "never-reads":
            return await never_reads(base_ws, client, seconds)
        if name in ("padded-actions", "deep-json", "message-flood"):
            code, tokens = await own_room(client)
            ws = await socket(base_ws, code)
            await ws.send(json.dumps({"type": "hello", "token": tokens[0], "legal": False}))
            messages = {"padded-actions": json.dumps({"type": "act", "id": 1, "turn": 0,
                                                      "action": {"type": "skip", "pad": "x" * 60_000}}),
                        "deep-json": '{"type": "act", "id": "\\ud800", "turn": 0, "action": '
                                     + "[" * 960 + "]" * 960 + "}",
                        "message-flood": '{"type": "ping"}'}[name]
            return await send_and_read(ws, messages, seconds)
        if name == "replay-frames":
            return await replay_frames(client, seconds)
        if name == "half-open":
            return await half_open(base, seconds)
        if name == "cycling-game":
            return await cycling_game(client, base_ws, seconds)
        if name == "chat-reconnect":
            return await chat_reconnect(client, base_ws, seconds)
        if name == "room-flood":
            async def one() -> str:
                answer = await client.post("/api/rooms", json={"game": "patchwork", "seats": [{"kind": "open"}] * 2})
                return str(answer.status_code)
            return await hammer(seconds, one)
        if name == "bot-rooms":
            counts: dict[str, int] = {}
            for _ in range(12):
                answer = await client.post("/api/rooms", json={"game": "patchwork",
                                                               "seats": [{"kind": "bot", "bot": "mcts"}] * 2})
                counts[str(answer.status_code)] = counts.get(str(answer.status_code), 0) + 1
                if answer.status_code == 201:
                    room = answer.json()
                    await client.post(f"/api/rooms/{room['code']}/start",
                                      headers={"Authorization": f"Bearer {room['host_token']}"})
            await asyncio.sleep(seconds)  # the bots think meanwhile
            return counts
        if name == "sign-in-loop":
            return await sign_in_loop(client, base, seconds)
        if name == "lobby-flood":
            async def one() -> str:
                return str((await client.get("/api/rooms", params={"limit": 200})).status_code)
            return await hammer(seconds, one)
    raise ValueError(f"no attack {name!r}")


async def never_reads(base_ws: str, client: Any, seconds: float) -> dict[str, int]:
    """One socket sends 60 KB messages of an unknown type and never reads what comes back."""
    code, _ = await own_room(client)
    ws = await socket(base_ws, code)
    message, sent, stop = json.dumps({"type": "x" * 60_000}), 0, time.monotonic() + seconds
    try:
        while time.monotonic() < stop and sent < 25_000:
            await ws.send(message)
            sent += 1
    except Exception as error:  # noqa: BLE001
        return {"sent": sent, f"closed ({type(error).__name__}, code {getattr(ws.close_code, 'real', None)})": 1}
    await ws.close()
    return {"sent": sent}


async def sign_in_loop(client: Any, base: str, seconds: float, addresses: int = 8) -> dict[str, int]:
    """An account signs in with its right password again and again (each sign-in costs the hall an
    Argon2id hash), from the attacker's address and from ``addresses`` more of its loopback
    neighbours (127.0.0.10...), two requests at a time from each."""
    import httpx

    credentials = {"name": "looper", "password": "a right password, over and over"}
    made = await patiently(lambda: client.post("/api/accounts", json=credentials))
    if made.status_code not in (201, 409):
        raise RuntimeError(f"the attacker's account was refused: {made.text[:100]}")
    clients = [client, *(httpx.AsyncClient(base_url=base, timeout=30, transport=httpx.AsyncHTTPTransport(
        local_address=f"127.0.0.{10 + n}")) for n in range(addresses))]
    turn = iter(range(10 ** 9))

    async def one() -> str:
        answer = await clients[next(turn) % len(clients)].post("/api/session", json=credentials)
        return str(answer.status_code)

    try:
        return await hammer(seconds, one, parallel=2 * len(clients))
    finally:
        for other in clients[1:]:
            await other.aclose()


async def send_and_read(ws: Any, message: str, seconds: float) -> dict[str, int]:
    """Send ``message`` as fast as the socket takes it for ``seconds`` while reading the answers."""
    counts: dict[str, int] = {"sent": 0}
    stop = time.monotonic() + seconds

    async def read() -> None:
        async for text in ws:
            answer = json.loads(text)
            word = answer.get("code") or answer["type"]
            counts[word] = counts.get(word, 0) + 1

    reader = asyncio.ensure_future(read())
    try:
        while time.monotonic() < stop and not reader.done():
            await ws.send(message)
            counts["sent"] += 1
            await asyncio.sleep(0)
    except Exception:  # noqa: BLE001  (closed by the server)
        pass
    if ws.close_code is not None:
        counts[f"closed with code {ws.close_code}"] = 1
    reader.cancel()
    await ws.close()
    return counts


# -- issue 27's attacks ----------------------------------------------------------------------------
def longest_replay() -> dict[str, Any]:
    """The longest replay file the hall takes: Palace by edition 3 (before its repetition rule), its
    easy bots going round in circles (seed 1, 3 players) up to the game's cap on actions."""
    from ..core import replays
    from ..games import get

    game = get("palace")
    level = game.levels["easy"].bot
    bots = [(game.bots[level] if isinstance(level, str) else level)(game, seed=10 + s) for s in range(3)]
    state, actions = game.start(3, {"edition": 3}, 1), list[list[Any]]()
    while not game.is_over(state) and len(actions) < game.max_actions:
        seat = min(game.to_act(state))
        action = bots[seat].choose(game.view(state, seat), seat, game.legal_actions(state, seat))
        actions.append([seat, action])
        state = game.apply(state, seat, action)
    return {"format": replays.FORMAT, "game": "palace", "players": 3, "options": {"edition": 3}, "seed": 1,
            "names": ["Ana", "Bo", "Cy"], "actions": actions}


async def replay_frames(client: Any, seconds: float) -> dict[str, int]:
    """The longest replay the hall takes, its last pages asked for again and again from 4 tasks
    (the audit's 100,000 moves cost 1 GB and 14 s in one request)."""
    body = json.dumps(longest_replay()).encode()
    total = len(json.loads(body)["actions"]) + 1

    async def one() -> str:
        answer = await client.post("/api/replays/frames", params={"start": max(0, total - 200), "count": 200},
                                   content=body, headers={"content-type": "application/json"})
        return str(answer.status_code)
    counts = await hammer(seconds, one)
    counts[f"actions in the file: {total - 1}"] = 1
    return counts


async def half_open(base: str, seconds: float, connections: int = 1100) -> dict[str, int]:
    """Slowloris: ``connections`` connections that send half of a request's headers, reopened as
    the hall closes them, held for ``seconds``; counts what each got (503: refused past the cap per
    address; 408: cut at the header deadline; held to the end)."""
    port = int(base.rsplit(":", 1)[1])
    counts: dict[str, int] = {}
    stop = time.monotonic() + seconds

    async def hold() -> None:
        while time.monotonic() < stop:
            writer = None
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(ATTACKER, 0))
                writer.write(b"GET /api/games HTTP/1.1\r\nHost: hall\r\nX-Slow: ")
                await writer.drain()
                answer = await asyncio.wait_for(reader.read(64), max(0.1, stop - time.monotonic()))
                word = answer.split(b"\r\n")[0].decode(errors="replace")[9:12] or "closed"
            except TimeoutError:
                word = "held to the end"
            except OSError as error:
                word = type(error).__name__
            counts[word] = counts.get(word, 0) + 1
            if writer is not None:
                writer.close()
            await asyncio.sleep(0.2)  # then again: a refused or cut connection is opened anew

    await asyncio.gather(*(hold() for _ in range(connections)))
    return counts


async def cycling_game(client: Any, base_ws: str, seconds: float) -> dict[str, int]:
    """Palace played as fast as it goes by its easy bots (which went round in circles for ever
    before the repetition rule), both seats the attacker's; a new room when a game ends."""
    counts: dict[str, int] = {"moves": 0}
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        try:
            code, tokens = await own_room(client, "palace")
        except RuntimeError:
            counts["room refused"] = counts.get("room refused", 0) + 1
            break
        sockets = [await socket(base_ws, code) for _ in tokens]
        for ws, token in zip(sockets, tokens):
            await ws.send(json.dumps({"type": "hello", "token": token}))
        try:
            await play_palace(sockets, stop, counts)
        except TimeoutError:
            counts["stuck"] = counts.get("stuck", 0) + 1
        for ws in sockets:
            await ws.close()
    return counts


async def play_palace(sockets: list[Any], stop: float, counts: dict[str, int]) -> None:
    """Both seats of a Palace room played by easy bots until the game ends or ``stop``."""
    from ..games import get

    game = get("palace")
    level = game.levels["easy"].bot
    bots = [(game.bots[level] if isinstance(level, str) else level)(game, seed=s) for s in range(2)]
    newest: list[dict[str, Any] | None] = [None, None]
    acted: list[dict[str, Any] | None] = [None, None]  # the state each seat last acted on
    changed = asyncio.Event()

    async def read(seat: int) -> None:  # every socket is read throughout, or the hall closes it
        async for text in sockets[seat]:
            message = json.loads(text)
            if message["type"] == "state":
                newest[seat] = message
                changed.set()
            elif message["type"] == "error":  # refused (its rate, mostly): the same state again after a pause
                counts[message["code"]] = counts.get(message["code"], 0) + 1
                await asyncio.sleep(1)
                newest[seat] = newest[seat] or acted[seat]
                changed.set()

    readers = [asyncio.ensure_future(read(seat)) for seat in range(2)]
    try:
        while time.monotonic() < stop:
            await asyncio.wait_for(changed.wait(), 10)
            changed.clear()
            for seat, state in enumerate(newest):
                if state is None:
                    continue
                if state["result"] is not None:
                    word = "ended by repetition" if state["result"]["details"].get("repetition") else "ended"
                    counts[word] = counts.get(word, 0) + 1
                    return
                if seat in state["to_act"] and state["legal"]:
                    newest[seat], acted[seat] = None, state
                    action = bots[seat].choose(state["view"], seat, state["legal"])
                    await sockets[seat].send(json.dumps({"type": "act", "id": 1, "turn": state["turn"],
                                                         "action": action}))
                    counts["moves"] += 1
    finally:
        for reader in readers:
            reader.cancel()


async def chat_reconnect(client: Any, base_ws: str, seconds: float) -> dict[str, int]:
    """A seated player says chat lines as fast as it can, reconnecting after each refusal (a
    reconnection started the count again before), from 4 tasks in 4 rooms."""
    counts: dict[str, int] = {}
    stop = time.monotonic() + seconds

    async def talk() -> None:
        code, tokens = await own_room(client)
        while time.monotonic() < stop:
            ws = await socket(base_ws, code)
            await ws.send(json.dumps({"type": "hello", "token": tokens[0], "chat": True}))
            try:
                while time.monotonic() < stop:
                    said = f"buy gold {time.monotonic()}"
                    await ws.send(json.dumps({"type": "chat", "text": said}))
                    while True:  # its own line back, or a refusal
                        message = json.loads(await asyncio.wait_for(ws.recv(), 5))
                        if message["type"] == "error" or (message["type"] == "chat" and any(
                                line["text"] == said for line in message["lines"])):
                            break
                    if message["type"] == "error":
                        counts[message["code"]] = counts.get(message["code"], 0) + 1
                        break  # refused: reconnect and try again
                    counts["said"] = counts.get("said", 0) + 1
            except Exception as error:  # noqa: BLE001
                counts[type(error).__name__] = counts.get(type(error).__name__, 0) + 1
            await ws.close()

    await asyncio.gather(*(talk() for _ in range(4)))
    return counts


def played_replay() -> dict[str, Any]:
    """A whole Patchwork game of random legal moves as a replay file, with the names Ana and Bo."""
    import random

    from ..core import replays
    from ..games import get

    game, rng = get("patchwork"), random.Random(5)
    state, actions = game.start(2, {}, 5), []
    while not game.is_over(state):
        seat = min(game.to_act(state))
        action = game.random_action(state, seat, rng)
        actions.append([seat, action])
        state = game.apply(state, seat, action)
    return {"format": replays.FORMAT, "game": "patchwork", "players": 2, "options": {}, "seed": 5,
            "names": ["Ana", "Bo"], "actions": actions}


def attacker_process(name: str, base: str, seconds: float, out: Any) -> None:
    try:
        out.send(asyncio.run(attack(name, base, seconds)))
    except Exception as error:  # noqa: BLE001  (reported, the bench goes on)
        out.send({f"attack failed: {type(error).__name__}: {error}"[:200]: 1})
    out.close()


# -- memory ----------------------------------------------------------------------------------------
def resident(pid: int) -> int:
    """Resident memory (bytes) of process ``pid`` and its children (the bot workers)."""
    total = 0
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    for each in [str(pid), *children]:
        try:
            status = Path(f"/proc/{each}/status").read_text()
        except OSError:
            continue
        line = next((text for text in status.splitlines() if text.startswith("VmRSS:")), "VmRSS: 0 kB")
        total += int(line.split()[1]) * 1024
    return total


def watch_memory(pid: int, stop: float) -> int:
    """The peak of :func:`resident` sampled every 50 ms until ``stop`` (monotonic)."""
    peak = 0
    while time.monotonic() < stop:
        peak = max(peak, resident(pid))
        time.sleep(0.05)
    return peak


# -- the command -----------------------------------------------------------------------------------
def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from ..core import ParlourError
    from .bench import machine
    from .bench_hall import client_process, create_rooms
    from .processes import free_port, start_server

    attacks = args.attack or list(ATTACKS)
    if args.rooms < 1 or args.seconds <= 0 or args.think <= 0:
        raise ParlourError("--rooms, --seconds and --think must be positive")
    console = Console(highlight=False)
    # The public hall's limits; the normal rooms all come from 127.0.0.1, which stands for as many
    # people at as many addresses, so no per-address quota counts it. The attacker is not exempt.
    options = ("--limit", "exempt=127.0.0.1")
    phases: list[tuple[str, float, float, int, dict[str, int]]] = []
    with tempfile.TemporaryDirectory(prefix="parlour-abuse-") as folder:
        port = free_port()
        server = start_server(f"sqlite:///{Path(folder) / 'abuse.sqlite3'}", port, options)
        base = f"http://127.0.0.1:{port}"
        try:
            with ThreadPoolExecutor(1) as thread:
                rooms = thread.submit(lambda: asyncio.run(create_rooms(base, "patchwork", 2, args.rooms))).result()
            total = args.seconds * (len(attacks) + 1) + 2
            context = multiprocessing.get_context("spawn")
            go = context.Event()
            receive, send = context.Pipe(duplex=False)
            players = context.Process(target=client_process, args=(
                f"ws://127.0.0.1:{port}", rooms, "patchwork", "random", False, total, args.think, go, send))
            players.start()
            if receive.recv() != "connected":
                raise ParlourError("the normal rooms could not connect")
            load_before = os.getloadavg()
            go.set()
            start = time.monotonic()
            stop = start + args.seconds
            phases.append(("no attack", start, stop, watch_memory(server.pid, stop), {}))
            for name in attacks:
                begin = time.monotonic()
                into, out = context.Pipe(duplex=False)
                attacker = context.Process(target=attacker_process, args=(name, base, args.seconds, out))
                attacker.start()
                peak = watch_memory(server.pid, begin + args.seconds)
                while attacker.is_alive() and not into.poll(0.05):
                    peak = max(peak, resident(server.pid))
                got = into.recv() if into.poll(30) else {"no report": 1}
                attacker.join(30)
                phases.append((name, begin, time.monotonic(), peak, got))
            load_after = os.getloadavg()
            report = receive.recv()
            players.join()
        finally:
            server.terminate()
            server.wait(30)
    acks = list(zip(report["acked_at"], report["latencies"]))
    console.print(f"{args.rooms} normal Patchwork rooms (2 WebSocket clients each, {args.think:g} s of thought"
                  f" per move on average) while one client at {ATTACKER} attacks, {args.seconds:g} s per attack;"
                  " one server process with the public hall's limits (the normal players' address exempt from"
                  " the per-address quotas: it stands for as many people)")
    worst = 0.0
    for name, begin, end, peak, got in phases:
        latencies = sorted(latency for at, latency in acks if begin <= at < end)
        if latencies:
            p50 = statistics.median(latencies) * 1000
            p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] * 1000
            worst = max(worst, p99)
            figures = f"{len(latencies):5d} acks, p50 {p50:6.1f} ms, p99 [bold]{p99:6.1f} ms[/bold]"
        else:
            figures = "no ack in this phase"
        answers = ", ".join(f"{word}: {count}" for word, count in got.items())
        console.print(f"{name:15s} {figures}; server peak memory [bold]{peak / MiB:5.0f} MiB[/bold]"
                      + (f"; attacker got {answers}" if answers else ""))
    failed = report["failed"]
    if failed:
        console.print(f"[red]{failed} normal connections failed[/red]: {report['errors']}")
    console.print(f"worst p99 {worst:.1f} ms (goal: under 50 ms); peak memory"
                  f" {max(p[3] for p in phases) / MiB:.0f} MiB (goal: under 500 MiB)")
    console.print(machine(), style="dim")
    console.print("load average during the run: " + ", ".join(f"{x:.2f}" for x in load_before)
                  + " -> " + ", ".join(f"{x:.2f}" for x in load_after), style="dim")
    return 0 if not failed else 1
