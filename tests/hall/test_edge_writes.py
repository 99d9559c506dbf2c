"""cli/edge.py: the messages sent one WebSocket in one pass of the event loop go out in one write to
its socket, in order, and a close sent after them still follows them; the hall sends its messages
at once through it (``send_now``: hall/web/feed.py), a move's ack and state in one write."""

from __future__ import annotations

import asyncio
import gc
import json
import time
import weakref
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
import uvicorn
from hallkit import CHEAP_ARGON2ID, HALL_SEED, in_thread, started_room
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from parlour.cli.edge import Connections, Inbox, protocols
from parlour.games import all_games
from parlour.hall import create_app
from parlour.hall.clock import SystemClock
from parlour.hall.quotas import Limits
from parlour.hall.store import SqlStore

pytestmark = pytest.mark.timeout(60)

WRITES: list[bytes] = []  # what the server's WebSockets wrote, write by write
SENT_BY_TASK: list[Any] = []  # the messages the application sent through ASGI's send
PROTOCOLS: list[weakref.ref[Any]] = []  # the server's WebSocket protocols, as they were made


class Counted:
    """A transport whose writes are recorded (uvloop's transports take no new attributes)."""

    def __init__(self, transport: asyncio.Transport) -> None:
        self._transport = transport

    def write(self, data: bytes) -> None:
        WRITES.append(data)
        self._transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Sends three messages in one go, then one per message received until "close": "close"
    sends one more and closes at once."""
    assert scope["type"] == "websocket"
    await receive()  # connect
    await send({"type": "websocket.accept"})
    for n in (1, 2, 3):
        await send({"type": "websocket.send", "text": f"message {n}"})
    while True:
        event = await receive()
        if event["type"] == "websocket.disconnect":
            return
        if event.get("text") == "close":
            await send({"type": "websocket.send", "text": "last"})
            await send({"type": "websocket.close", "code": 4000, "reason": "done"})
            return
        await send({"type": "websocket.send", "text": f"echo {event.get('text')}"})


def served(app: Any, lifespan: str = "off") -> Iterator[int]:
    """``app`` behind cli/edge.py's protocols, its WebSockets' writes recorded, on a free port."""
    http, ws = protocols(Connections(100))

    class CountedWebSocket(ws):  # type: ignore[misc, valid-type]
        def connection_made(self, transport: Any) -> None:
            PROTOCOLS.append(weakref.ref(self))
            super().connection_made(Counted(transport))

        async def send(self, message: Any) -> None:
            if message["type"] == "websocket.send":
                SENT_BY_TASK.append(message)
            await super().send(message)

    def config(port: int) -> uvicorn.Config:
        return uvicorn.Config(app, http=http, ws=CountedWebSocket, log_level="warning", lifespan=lifespan,
                              ws_per_message_deflate=False)  # as `parlour serve` runs it

    with in_thread(config) as port:
        yield port


@pytest.fixture
def port() -> Iterator[int]:
    yield from served(app)


@pytest.fixture
def hall_port(tmp_path: Any) -> Iterator[int]:
    store = SqlStore(f"sqlite:///{tmp_path / 'hall.sqlite3'}")
    yield from served(create_app(store, all_games(), SystemClock(), limits=Limits(),
                                 password_hasher=CHEAP_ARGON2ID, seed=HALL_SEED), "on")
    store.close()


def frames(data: bytes) -> list[bytes]:
    """The payloads of the unmasked server frames in ``data``."""
    found = []
    while data:
        length, start = data[1] & 0x7F, 2
        assert length != 127  # (8-byte lengths: none in these tests)
        if length == 126:
            length, start = int.from_bytes(data[2:4]), 4
        found.append(data[start:start + length])
        data = data[start + length:]
    return found


def test_messages_of_one_pass_go_out_in_one_write_in_order(port: int) -> None:
    WRITES.clear()
    with connect(f"ws://127.0.0.1:{port}/") as ws:
        assert [ws.recv(timeout=5) for _ in range(3)] == ["message 1", "message 2", "message 3"]
        ws.send("a")
        assert ws.recv(timeout=5) == "echo a"
        ws.send("close")
        assert ws.recv(timeout=5) == "last"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd is not None and (closed.value.rcvd.code, closed.value.rcvd.reason) == (4000, "done")
    handshake, *rest = WRITES
    assert handshake.startswith(b"HTTP/1.1 101")
    assert frames(rest[0]) == [b"message 1", b"message 2", b"message 3"]  # three messages, one write
    assert frames(rest[1]) == [b"echo a"]
    assert frames(rest[2])[0] == b"last"  # and the close frame after it
    assert rest[2][len(b"last") + 2] == 0x88  # FIN + close


def test_the_hall_sends_its_messages_at_once_and_a_moves_ack_and_state_in_one_write(hall_port: int) -> None:
    with httpx.Client(base_url=f"http://127.0.0.1:{hall_port}") as rest:
        code, tokens, _ = started_room(rest)  # type: ignore[arg-type]
    WRITES.clear()
    SENT_BY_TASK.clear()
    url = f"ws://127.0.0.1:{hall_port}/ws/rooms/{code}"
    with connect(url) as ana, connect(url) as bo:
        players = [ana, bo]
        for ws, token in zip(players, tokens):
            ws.send(json.dumps({"type": "hello", "token": token}))
            assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
        latest = [json.loads(ws.recv(timeout=5)) for ws in players]  # each its state
        SENT_BY_TASK.clear()  # (a hello read before the sending task first ran is answered by the task)
        for turn in range(6):
            mover = latest[0]["to_act"][0]
            players[mover].send(json.dumps({"type": "act", "id": turn, "turn": latest[mover]["turn"],
                                            "action": {"type": "skip"}}))
            for seat, ws in enumerate(players):
                while True:
                    message = json.loads(ws.recv(timeout=5))
                    if seat == mover and message["type"] == "ack":
                        assert message == {"type": "ack", "id": turn, "turn": latest[mover]["turn"] + 1}
                        continue
                    assert message["type"] == "state", message
                    if message["turn"] > latest[seat]["turn"]:
                        latest[seat] = message
                        break
        assert latest[0]["turn"] == latest[1]["turn"] == 6
    assert SENT_BY_TASK == []  # every message of the moves went out at once, none through a task and ASGI's send
    kinds = [[json.loads(frame)["type"] for frame in frames(write)] for write in WRITES if write[:1] == b"\x81"]
    assert kinds.count(["ack", "state"]) == 6  # each move's ack and the mover's new state: one write


def test_a_closed_websocket_leaves_no_cycle_through_its_send_now(port: int) -> None:
    """Its scope offered its own ``send_now``: the protocol is let go of when the connection is."""
    PROTOCOLS.clear()
    gc.disable()
    try:
        with connect(f"ws://127.0.0.1:{port}/") as ws:
            assert ws.recv(timeout=5) == "message 1"
            ws.send("close")
            while ws.recv(timeout=5) != "last":
                pass
        deadline = time.monotonic() + 5
        while PROTOCOLS and PROTOCOLS[0]() is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert PROTOCOLS and PROTOCOLS[0]() is None
    finally:
        gc.enable()


def test_the_inbox_gives_in_order_waits_and_passes_on_a_wake_up_its_cancelled_reader_had() -> None:
    async def scenario() -> list[Any]:
        inbox = Inbox(asyncio.get_running_loop())
        got: list[Any] = []
        inbox.put_nowait("a")
        got.append(await inbox.get())  # there already: no wait
        first = asyncio.create_task(inbox.get())
        second = asyncio.create_task(inbox.get())
        await asyncio.sleep(0)  # both wait
        inbox.put_nowait("b")  # wakes the first...
        first.cancel()  # ...which is cancelled before it runs: the second gets "b"
        got.append(await second)
        assert first.cancelled() and inbox.empty()
        later = asyncio.create_task(inbox.get())
        await asyncio.sleep(0)
        inbox.put_nowait("c")
        inbox.put_nowait("d")
        got += [await later, await inbox.get()]
        assert inbox.qsize() == 0
        return got

    with ThreadPoolExecutor(1) as thread:
        assert thread.submit(asyncio.run, scenario()).result() == ["a", "b", "c", "d"]
