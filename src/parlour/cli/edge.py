"""The hall's HTTP server at its edge: uvicorn with the bounds it lacks on its own (issue 27).

uvicorn waits for ever for a request's headers and body, and takes any number of connections from
one address: 1,100 half-sent requests from one address used up a hall's descriptors and every other
client failed (slowloris). :func:`server_config` is uvicorn's configuration with:

- a deadline on a request's headers (``HEADER_TIMEOUT`` from its first byte, or from the connection's
  opening) and on its body (``BODY_TIMEOUT`` from the end of its headers): past it the request gets
  ``408`` and the connection is closed;
- a cap on the connections open at once from one address, WebSockets included (``Limits.connections``;
  the exempt addresses, such as a proxy in front, are not counted): one more gets ``503`` in words
  and is closed before anything of it is read;
- a WebSocket the hall closed (a flood, a client that does not read) read no more than
  ``CLOSE_READ`` bytes and ``CLOSE_TIMEOUT`` seconds while its client answers the close, its
  messages dropped unread (uvicorn read on for 10 s);

and two things it does for speed: the hall may send messages at once, without a task and ASGI's
send (``send_now``, offered in the scope's extensions as ``parlour.send_now``: hall/web/feed.py);
and the messages it sends one WebSocket together (a move's acknowledgement and its state, say), or
through ASGI in one pass of the event loop, go out in one write to the socket, not one write each
(the writes were a sixth of the hall's CPU at saturation: docs/benchmarks.md);

and :func:`raise_descriptor_limit` lifts the soft limit on open files to the hard one.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from collections.abc import Collection
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState

from ..hall.web.feed import SEND_NOW

HEADER_TIMEOUT = 10.0  # seconds for a request's headers, from its first byte (a new connection: its opening)
BODY_TIMEOUT = 30.0  # seconds for a request's body once its headers are in (a 4 MiB replay on a slow line)
CLOSE_TIMEOUT = 2.0  # seconds a WebSocket the hall closed waits for its client's close before it is cut
LOOPBACK = {"127.0.0.1", "::1"}  # the addresses of a proxy on this machine (nginx in front of a cluster's halls)
CLOSE_READ = 64 * 1024  # bytes read from a WebSocket the hall closed before it is cut at once

log = logging.getLogger("parlour.edge")


class Connections:
    """The connections open at once by address, capped at ``cap`` (``exempt`` addresses are not
    counted: a proxy stands for many people)."""

    def __init__(self, cap: int, exempt: Collection[str] = ()) -> None:
        self.cap = cap
        self.exempt = frozenset(exempt)
        self.open: dict[str, int] = {}

    def admit(self, address: str) -> bool:
        """One more connection from ``address``; False (and not counted) past the cap."""
        if address in self.exempt:
            return True
        count = self.open.get(address, 0)
        if count >= self.cap:
            return False
        self.open[address] = count + 1
        return True

    def release(self, address: str) -> None:
        if address in self.exempt:
            return
        count = self.open.get(address, 0) - 1
        if count > 0:
            self.open[address] = count
        else:
            self.open.pop(address, None)


def _answer(status: bytes, words: str) -> bytes:
    body = words.encode()
    return (b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: "
            + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body)


class BoundedWebSocket(WebSocketsSansIOProtocol):
    """A WebSocket the HTTP protocol below handed its connection to (and its place in the count).
    Its messages are framed as they are sent, and written to the socket together at the end of the
    event loop's pass (anything else uvicorn writes, a close or a pong, takes them first, in order)."""

    per_address: Connections
    close_after: float = CLOSE_TIMEOUT
    close_read: int = CLOSE_READ

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.close_timeout = self.close_after
        self.counted: str | None = None
        self.read_after_close = 0
        self.flush_due = False  # a write of what was framed is to come in this pass of the loop

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        if self.response.status_code == 101:  # the application may send text at once (hall/web/feed.py)
            self.scope["extensions"][SEND_NOW] = {"send": self.send_now}

    def send_now(self, texts: list[str]) -> int:
        """Sends ``texts`` as messages now, in one write with whatever was framed before, if the
        socket takes them (it is open and its buffer is not full); how many were sent (0: none)."""
        if not self.writable.is_set() or self.disconnected or not self.handshake_complete or self.close_sent:
            return 0
        sent = 0
        try:
            for text in texts:
                self.conn.send_text(text.encode())
                sent += 1
        except InvalidState:
            pass
        self.flush()
        return sent

    async def send(self, message: Any) -> None:
        if message["type"] != "websocket.send":
            return await super().send(message)
        await self.writable.wait()  # as uvicorn's own send: the socket's buffer is not too full
        if self.disconnected or not self.handshake_complete or self.close_sent or self.initial_response is not None:
            return await super().send(message)  # what uvicorn says then (ClientDisconnected, a RuntimeError)
        data, text = message.get("bytes"), message.get("text")
        try:
            if data is not None:
                self.conn.send_binary(data)
            elif text is not None:
                self.conn.send_text(text.encode())
        except InvalidState:
            raise ClientDisconnected() from None
        if not self.flush_due:
            self.flush_due = True
            self.loop.call_soon(self.flush)

    def flush(self) -> None:
        """Writes what was framed since the last write, in one piece."""
        self.flush_due = False
        output = self.conn.data_to_send()
        if output and not self.transport.is_closing():
            self.transport.write(b"".join(output))

    def data_received(self, data: bytes) -> None:
        if self.close_sent:
            self.read_after_close += len(data)
            if self.read_after_close > self.close_read:
                self.transport.abort()  # it floods on after the close: no more of it is read
                return
        super().data_received(data)

    def handle_text(self, event: Any) -> None:
        if not self.close_sent:  # after the close nobody reads the messages: drop them
            super().handle_text(event)

    def handle_bytes(self, event: Any) -> None:
        if not self.close_sent:
            super().handle_bytes(event)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.counted is not None:
            self.per_address.release(self.counted)
            self.counted = None
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"].pop(SEND_NOW, None)  # it holds this protocol: no cycle is left behind
        super().connection_lost(exc)


class BoundedHttp(HttpToolsProtocol):
    """An HTTP connection with deadlines on its requests' headers and bodies, counted by address."""

    per_address: Connections
    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.counted: str | None = None
        self.deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else "unknown"
        if not self.per_address.admit(address):
            transport.write(_answer(b"503 Service Unavailable", f"at most {self.per_address.cap} connections from"
                                    " one address at once: close one and try again"))
            transport.close()
            return
        self.counted = address
        self._arm(self.header_timeout, "headers")

    def _arm(self, seconds: float, what: str) -> None:
        self._disarm()
        self.deadline = self.loop.call_later(seconds, self._too_slow, what, seconds)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _too_slow(self, what: str, seconds: float) -> None:
        self.deadline = None
        log.debug("%s: the request's %s took over %g s: closed", self.client, what, seconds)
        if not self.transport.is_closing():
            if self.cycle is None or self.cycle.response_complete or not self.cycle.response_started:
                self.transport.write(_answer(b"408 Request Timeout", f"the request's {what} took more than"
                                             f" {seconds:g} s: closed"))
            if self.cycle is not None:
                self.cycle.disconnected = True
                self.cycle.message_event.set()
            self.transport.close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.deadline is None:  # the next request on a kept-alive connection
            self._arm(self.header_timeout, "headers")

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self._arm(self.body_timeout, "body")

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        counted, self.counted = self.counted, None
        super().handle_websocket_upgrade()
        socket = self.transport.get_protocol()
        if isinstance(socket, BoundedWebSocket):
            socket.counted = counted  # the WebSocket gives its place back when it closes
        elif counted is not None:
            self.per_address.release(counted)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self.counted is not None:
            self.per_address.release(self.counted)
            self.counted = None
        super().connection_lost(exc)


def protocols(connections: Connections, header_timeout: float = HEADER_TIMEOUT, body_timeout: float = BODY_TIMEOUT,
              close_timeout: float = CLOSE_TIMEOUT, close_read: int = CLOSE_READ) -> tuple[type[Any], type[Any]]:
    """uvicorn's HTTP and WebSocket protocol classes with these bounds, counting in ``connections``
    (each server its own)."""
    http = type("Http", (BoundedHttp,), {"per_address": connections, "header_timeout": header_timeout,
                                         "body_timeout": body_timeout})
    ws = type("WebSocket", (BoundedWebSocket,), {"per_address": connections, "close_after": close_timeout,
                                                 "close_read": close_read})
    return http, ws


def server_config(app: Any, host: str, port: int, cap: int, exempt: Collection[str] = (),
                  header_timeout: float = HEADER_TIMEOUT, body_timeout: float = BODY_TIMEOUT,
                  **options: Any) -> uvicorn.Config:
    """uvicorn's configuration for ``app`` with the hall's bounds (the module's docstring);
    ``options``: uvicorn's own (ws_max_size, log_level...)."""
    http, ws = protocols(Connections(cap, exempt), header_timeout, body_timeout)
    return uvicorn.Config(app, host=host, port=port, http=http, ws=ws, **options)


def raise_descriptor_limit() -> tuple[int, int]:
    """The soft limit on open files raised to the hard one, where the machine allows: (before, now)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft >= hard:
        return soft, soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ValueError, OSError):
        return soft, soft
    return soft, hard
