"""What one WebSocket connection of a room is sent (docs/protocol.md), in order, through one queue.

"The room changed" puts one marker in the queue however many changes pile up, and the marker
becomes the newest state of the connection's own seat when its turn to be sent comes, so a slow
reader costs the room nothing and never receives an outdated state after a newer one. A change the
seat cannot see sends it nothing, and each state carries only the log lines this connection lacks;
the chat likewise sends the lines it lacks, as its player filters them (blocked accounts, muted
names). What the client sends, and what it is answered, is web/socket.py's.

Who sends: where the server lets a message be sent at once (``send_now``: cli/edge.py's WebSocket
offers it), what is queued goes out from the event loop as soon as it is queued, in one callback
for all of it, and the sending task only takes over what must wait (a socket whose buffer is full,
a close); elsewhere (tests' clients) the task sends everything. Either way in the same order,
each state made when its turn comes. Waking a task and going through ASGI's send for every
message of every move was about a tenth of the hall's CPU (docs/benchmarks.md).

    feed = Feed(websocket, send_now)
    feed.push({"type": "pong"})      # an answer, in order (dropped, and ``behind`` set, past OUTBOX_MAX)
    feed.changed()                   # the room changed: its newest state goes out when its turn comes
    await feed.run(connection)       # the sending task: until the socket closes
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import HallError
from ..room import Room
from ..room.audience import LOG_SENT
from ..room.chat import Chat, visible
from ..wire import dumps
from .middleware import OUTBOX_MAX

MUTED_MAX = 50  # names one connection may mute in its room
SEND_NOW = "parlour.send_now"  # the ASGI extension (cli/edge.py) by which a text message is sent at once

# Sends text messages at once, in order, as many as the socket takes now (it is open, its buffer
# is not full): how many were sent.
SendNow = Callable[[list[str]], int]

_STATE = object()  # the room changed
_CHAT = object()  # the chat has new lines


@dataclass(frozen=True)
class _Close:
    """The socket closes with ``code`` and ``reason`` once what was queued before went out."""

    code: int
    reason: str


class Outbox:
    """What waits to go out on one connection, in order (a deque with the few calls of
    asyncio.Queue the feed and its tests make; who sends it is the feed's business)."""

    __slots__ = ("_items",)

    def __init__(self) -> None:
        self._items: deque[Any] = deque()

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)

    def put_back(self, items: list[Any]) -> None:
        """``items`` go out first, in their order (taken out, and not sent yet)."""
        self._items.extendleft(reversed(items))

    def get_nowait(self) -> Any:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    def peek(self) -> Any:
        return self._items[0]

    def qsize(self) -> int:
        return len(self._items)

    def empty(self) -> bool:
        return not self._items


class Outlet(Protocol):
    """The WebSocket, as the feed sends to it."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Viewer(Protocol):
    """Whom the feed sends the room to (web/socket.py's connection): its room, its seat (None: a
    spectator) and whether it wants its legal moves, asked when a state's turn comes."""

    room: Room | None
    seat: int | None
    legal: bool

    def unseated(self) -> dict[str, Any] | None:
        """The ``welcome`` with no seat to send first if the seat is no longer the viewer's."""
        ...


class Feed:
    """One connection's outgoing queue, and what it has been sent of its room's state and chat."""

    def __init__(self, websocket: Outlet, send_now: SendNow | None = None) -> None:
        self.websocket = websocket
        self.send_now = send_now
        self.outbox = Outbox()
        self._viewer: Viewer | None = None  # known once the sending task runs
        self._task_sends = True  # the sending task sends what is queued (else the event loop does: _pump)
        self._waiter: asyncio.Future[None] | None = None  # the sending task, waiting to be handed work
        self._pump_due = False
        self._stopped = False
        self.behind = False  # more than OUTBOX_MAX messages wait: the client does not read
        self._state_queued = False
        self._chat_queued = False
        self.shown: tuple[int, int] | None = None  # the room's and the seat's revisions last sent
        self.log_epoch = 0  # the log this connection holds: its edition and how many lines
        self.log_lines = 0
        self.log_skipped = 0  # the room's lines before this connection's log (LOG_SENT at most are sent)
        self.chat_next = 0  # the number of the next chat line to send
        self.hidden_sent = 0  # how many of the room's hidden lines this connection was told of
        self.blocked: set[int] = set()  # the accounts the signed-in player blocks (kept current by Social)
        self.muted: set[str] = set()  # the names this connection muted in this room

    def push(self, message: dict[str, Any]) -> None:
        self.push_text(dumps(message))

    def push_text(self, text: str) -> None:
        """A message already in JSON (:meth:`push`)."""
        if self.outbox.qsize() >= OUTBOX_MAX:
            # The client does not read what it asked for: let it go rather than hold its answers.
            self.behind = True
            return
        self._put(text)

    def changed(self) -> None:
        if not self._state_queued:
            self._state_queued = True
            self._put(_STATE)

    def chatted(self) -> None:
        if not self._chat_queued:
            self._chat_queued = True
            self._put(_CHAT)

    def end(self, message: dict[str, Any], code: int, reason: str) -> None:
        """``message`` goes out last (past the bound of :meth:`push`), then the socket closes with
        ``code`` and ``reason``."""
        self._put(dumps(message))
        self._put(_Close(code, reason))

    def stop(self) -> None:
        """The connection ended: nothing more is sent (and the feed lets go of its viewer, which
        holds it: no cycle is left for the collector)."""
        self._stopped = True
        self._viewer = None

    def mute(self, name: str, on: bool) -> list[str]:
        """Mutes (``on`` False: unmutes) ``name``'s chat for this connection; returns the names
        muted. :class:`HallError` past ``MUTED_MAX`` names (nothing is muted)."""
        if not on:
            self.muted.discard(name)
        elif name not in self.muted:
            if len(self.muted) >= MUTED_MAX:
                raise HallError("bad_message", f"at most {MUTED_MAX} names muted in one room: nothing was muted")
            self.muted.add(name)
        return sorted(self.muted)

    def _put(self, item: Any) -> None:
        self.outbox.put_nowait(item)
        if self._task_sends:
            self._wake()
        elif not self._pump_due:
            self._pump_due = True
            asyncio.get_running_loop().call_soon(self._pump)

    def _wake(self) -> None:
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _pump(self) -> None:
        """Sends what is queued while the socket takes it at once; hands the rest to the task."""
        self._pump_due = False
        if self._task_sends or self._stopped:
            return
        assert self.send_now is not None and self._viewer is not None
        texts: list[str] = []
        while not self.outbox.empty() and not isinstance(self.outbox.peek(), _Close):
            texts += self._texts(self.outbox.get_nowait(), self._viewer)
        sent = self.send_now(texts) if texts else 0
        if sent == len(texts) and self.outbox.empty():
            return
        self.outbox.put_back(texts[sent:])  # sent by the task once the socket takes them, then the close
        self._task_sends = True
        self._wake()

    async def run(self, viewer: Viewer) -> None:
        """Sends what is queued, in order, for as long as the connection lasts (with ``send_now``,
        only what the event loop could not send at once, then the close)."""
        self._viewer = viewer
        while True:
            if self.outbox.empty():
                self._task_sends = self.send_now is None
                self._waiter = asyncio.get_running_loop().create_future()
                await self._waiter
                continue
            item = self.outbox.get_nowait()
            if isinstance(item, _Close):
                await self.websocket.close(item.code, item.reason)
                return
            for text in self._texts(item, viewer):
                await self.websocket.send_text(text)

    def _texts(self, item: Any, viewer: Viewer) -> list[str]:
        """What ``item`` of the outbox is sent as, made now: an answer as it is; the seat's newest
        state, after a ``welcome`` with no seat if the seat is no longer the viewer's (it is told
        it watches before it is shown anything as a spectator); the chat lines it lacks; nothing
        if it has them."""
        if item is _STATE:
            self._state_queued = False
            welcome = viewer.unseated()
            texts = [] if welcome is None else [dumps(welcome)]
            assert viewer.room is not None
            state = self.newest_state(viewer.room, viewer.seat, viewer.legal)
            return texts if state is None else [*texts, state]
        if item is _CHAT:
            self._chat_queued = False
            assert viewer.room is not None
            chat = self.chat_lines(viewer.room.chat)
            return [] if chat is None else [chat]
        return [item]

    def newest_state(self, room: Room, seat: int | None, legal: bool) -> str | None:
        """``seat``'s newest state with the log lines this connection lacks; None if it has it."""
        audience = room.audience(seat)
        shown = (room.audiences.shared_revision, audience.revision)
        if shown == self.shown:
            return None
        start = self.log_lines if self.log_epoch == audience.epoch else 0
        if start == 0 or audience.count - start > LOG_SENT:
            # a log of its own from here: the newest LOG_SENT lines at most, numbered from 0 for it
            start = self.log_skipped = max(0, audience.count - LOG_SENT)
        self.shown, self.log_epoch, self.log_lines = shown, audience.epoch, audience.count
        return room.state_text(seat, legal, start, self.log_skipped)

    def chat_lines(self, chat: Chat) -> str | None:
        """The chat lines this connection has not had yet, as one message; None if none."""
        lines = chat.since(self.chat_next)
        hidden = chat.hidden[self.hidden_sent:]
        if not lines and not hidden:
            return None
        if lines:
            self.chat_next = lines[-1].n + 1
        self.hidden_sent = len(chat.hidden)
        shown = visible(lines, self.blocked, self.muted)
        message: dict[str, Any] = {"type": "chat", "lines": [line.to_json() for line in shown]}
        if hidden:
            message["hidden"] = hidden  # lines a moderator hid: the client takes them away
        return dumps(message)
