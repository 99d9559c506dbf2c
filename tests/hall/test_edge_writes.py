"""cli/edge.py: the messages sent one WebSocket in one pass of the event loop go out in one write to
its socket, in order, and a close sent after them still follows them."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from parlour.cli.edge import Connections, protocols

pytestmark = pytest.mark.timeout(60)

WRITES: list[bytes] = []  # what the server's WebSockets wrote, write by write


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


@pytest.fixture
def port() -> Iterator[int]:
    http, ws = protocols(Connections(100))

    class CountedWebSocket(ws):  # type: ignore[misc, valid-type]
        def connection_made(self, transport: Any) -> None:
            super().connection_made(Counted(transport))

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, http=http, ws=CountedWebSocket, log_level="warning", lifespan="off",
                            ws_per_message_deflate=False)  # as `parlour serve` runs it
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    yield listener.getsockname()[1]
    server.should_exit = True
    thread.join(20)
    listener.close()


def frames(data: bytes) -> list[bytes]:
    """The payloads of the unmasked server frames in ``data`` (short ones: this test's)."""
    found = []
    while data:
        length = data[1] & 0x7F
        assert length < 126
        found.append(data[2:2 + length])
        data = data[2 + length:]
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
