"""The WebSocket of a room (docs/protocol.md): one connection, one seat or one spectator.

Reading and writing are two tasks. This module reads: it admits the connection, bounds what the
client sends (rate, size, JSON), says who the connection is (its seat, its player) and turns each
message into a command for the room. What the connection is sent goes out through its
:class:`~.feed.Feed` (web/feed.py), in order, each state holding only what its seat lacks.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any, Literal

from fastapi import APIRouter
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import observe
from ..accounts import SESSION_COOKIE, Account, Accounts
from ..botaccounts import refuse_bot_account
from ..errors import HallError
from ..hall import Hall
from ..moderation import Moderation
from ..quotas import Guard, RateLimited
from ..room import Room
from ..room.chat import chat_key
from ..room.commands import Act, Say
from ..room.seats import Seat
from ..social import Social
from ..text import clip, reason
from ..tokens import token_hash
from ..wire import BadJson, dumps, read_json
from .deps import AccountsDep, GuardDep, HallDep, ModerationDep, SocialDep, SocketAccount
from .feed import SEND_NOW, Feed, Outbox, SendNow
from .middleware import ID_MAX, MAX_MESSAGE, OUTBOX_MAX, client_address
from .signed_in import RECHECK, SignedInSockets

# WebSocket close codes of the hall (4000-4999 are the application's own).
CLOSE_RESTARTING = 1012  # the hall is stopping or restarting: reconnect (what uvicorn sends its sockets then)
CLOSE_UNKNOWN_ROOM = 4404  # no such room
CLOSE_BEHIND = 4408  # the client fell too far behind in reading: reconnect
CLOSE_FLOOD = 4429  # the client kept sending past its rate limit
CLOSE_TOO_MANY_SOCKETS = 4430  # too many connections from one address
CLOSE_SIGNED_OUT = 4401  # the session the connection was opened with ended (signed out)
SIGNED_OUT = "your session ended (signed out): this connection is closed and holds no seat"


def error(code: str, message: str, message_id: Any = None) -> dict[str, Any]:
    observe.refused(code)
    return {"type": "error", "id": message_id, "code": code, "message": reason(message)}


def good_id(value: Any) -> bool:
    """Whether ``value`` may be a message's ``id``: none, text of at most ``ID_MAX`` characters or a
    whole number within 2^53."""
    if value is None:
        return True
    if isinstance(value, str):
        return len(value) <= ID_MAX
    return isinstance(value, int) and not isinstance(value, bool) and -2 ** 53 < value < 2 ** 53


def ack_text(message_id: Any, turn: int) -> str:
    """``{"type": "ack", "id": message_id, "turn": turn}`` as the hall sends it, without the dict."""
    return '{"type":"ack","id":%s,"turn":%d}' % (dumps(message_id), turn)


def id_of(message: Any) -> Any:
    """The ``id`` of a received WebSocket message, if it has a good one (a refusal names it)."""
    text = message.get("text")
    if not isinstance(text, str) or len(text) > MAX_MESSAGE:
        return None
    try:
        data = read_json(text.encode(errors="surrogatepass"))
    except BadJson:
        return None
    found = data.get("id") if isinstance(data, dict) else None
    return found if good_id(found) else None


def send_now(websocket: WebSocket) -> SendNow | None:
    """How the server lets a text message be sent at once, if it does (cli/edge.py's WebSocket)."""
    extension = getattr(websocket, "scope", {}).get("extensions", {}).get(SEND_NOW)  # a test's fake has no scope
    return extension.get("send") if isinstance(extension, dict) else None


class Connection:
    """One client of a room: who it is (its seat, its player), what it sends, and its feed."""

    def __init__(self, websocket: WebSocket, guard: Guard, address: str) -> None:
        self.websocket = websocket
        self.guard = guard
        self.address = address
        self.rate = guard.own_rate("connection_messages")  # this connection's own message rate
        self.feed = Feed(websocket, send_now(websocket))  # what it is sent (web/feed.py)
        self.refused = 0  # messages refused for rate in a row
        self.hall: Hall | None = None
        self.room: Room | None = None
        self.account: Account | None = None  # the player signed in on this connection, if any
        self.seat: int | None = None
        self.held: Seat | None = None  # the record of the seat last found to be its player's
        self.token: str | None = None  # the seat token it said hello with
        self.greeted = False
        self.legal = True
        self.social: Social | None = None
        self.moderation: Moderation | None = None
        self.session: str | None = None  # the session cookie it was opened with, when signed in
        self.accounts: Accounts | None = None
        self.session_checked = 0.0  # when the session was last found alive (time.monotonic())
        self.ended = False  # its session ended: it is being closed

    @property
    def outbox(self) -> Outbox:
        return self.feed.outbox

    @property
    def behind(self) -> bool:
        """More than OUTBOX_MAX messages wait: the client does not read (it is closed)."""
        return self.feed.behind

    def push(self, message: dict[str, Any]) -> None:
        self.feed.push(message)

    async def send_loop(self) -> None:
        await self.feed.run(self)

    def signed_out(self, message_id: Any = None) -> None:
        """Its session ended: it acts no more, is told so (naming ``message_id``, the message that
        found out) and is closed, its seat let go, as soon as can be."""
        if not self.ended:
            self.ended = True
            self.feed.end(error("signed_out", SIGNED_OUT, message_id), CLOSE_SIGNED_OUT, "signed out")

    async def session_alive(self, message_id: Any) -> bool:
        """A signed-in connection asks the store again whether its session is alive (at most every
        ``RECHECK`` seconds): a sign-out in another hall process of a cluster ends it too."""
        if self.session is None or self.accounts is None or time.monotonic() - self.session_checked < RECHECK:
            return not self.ended
        if await self.accounts.by_session(self.session) is None:
            self.signed_out(message_id)
            return False
        self.session_checked = time.monotonic()
        return not self.ended

    def still_seated(self) -> None:
        """A seat that is no longer this connection's player's (they resigned: a bot plays it; or
        left it before the start) is not theirs to see or play: the connection watches from then
        on, and is told so (a ``welcome`` with no seat)."""
        welcome = self.unseated()
        if welcome is not None:
            self.push(welcome)

    def unseated(self) -> dict[str, Any] | None:
        """The ``welcome`` with no seat of :meth:`still_seated`, to send, if the seat went now."""
        assert self.room is not None
        if self.seat is None:
            return None
        # a seat's holder changes only by a new Seat record (room/seats.py): one found held is not
        # checked again (hashing the token) before every state and every move
        current = self.room.seats[self.seat]
        if current is self.held or self.room.seats.holds(self.seat, self.token, self.account):
            self.held = current
            return None
        left, self.seat = self.seat, None
        self.room.disconnect(left)
        self.room.connect(None)
        return {"type": "welcome", "seat": None, "room": self.room.status_json(None)}

    async def receive_loop(self) -> tuple[int, str] | None:
        """Read until the client goes; returns the close code and reason when the hall ends it."""
        while True:
            if self.behind:
                return CLOSE_BEHIND, f"more than {OUTBOX_MAX} messages waited for you to read them: reconnect"
            if self.refused > self.guard.limits.flood:
                return CLOSE_FLOOD, "too many messages past the rate limit"
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect" or self.ended:
                return None
            try:
                self.guard.message(self.rate, self.address)
            except RateLimited as refused:
                self.refused += 1
                self.push(error("rate_limited", f"{refused}; nothing was done", id_of(message)))
                continue
            self.refused = 0
            text = message.get("text")
            data = message.get("bytes") or b"" if text is None else text.encode(errors="surrogatepass")
            if len(data) > MAX_MESSAGE:
                self.push(error("too_large", f"messages are limited to {MAX_MESSAGE} bytes"
                                             f" ({len(data)} sent): nothing was done"))
                continue
            await self.handle(data)

    async def handle(self, data: bytes) -> None:
        try:
            message = read_json(data)
        except BadJson as problem:
            self.push(error("bad_message", f"{problem}: nothing was done"))
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            self.push(error("bad_message", 'a message must be a JSON object with a "type"'))
            return
        message_id = message.get("id")
        if not (message_id is None or isinstance(message_id, (str, int)) and not isinstance(message_id, bool)):
            self.push(error("bad_message", '"id" must be a string or a whole number'))
            return
        if not good_id(message_id):
            self.push(error("bad_message", f'"id" is at most {ID_MAX} characters, or a whole number'
                            " within 2^53"))
            return
        kind = message["type"]
        try:
            if kind == "hello":
                await self.hello(message)
            elif kind in ("act", "chat") and not await self.session_alive(message_id):
                return  # told, and being closed
            elif kind == "act":
                await self.act(message, message_id)
            elif kind == "chat":
                await self.chat(message)
            elif kind == "ping":
                self.push({"type": "pong"})
            elif kind == "mute":
                self.mute(message)
            else:
                self.push(error("bad_message", f"unknown message type {clip(kind)!r}: the types are hello,"
                                " act, chat, mute and ping", message_id))
        except HallError as refused:
            self.push(error(refused.code, str(refused), message_id))

    async def hello(self, message: dict[str, Any]) -> None:
        assert self.room is not None
        if self.greeted:
            raise HallError("bad_message", "hello is said once per connection")
        token = message.get("token")
        if token is not None and not isinstance(token, str):
            raise HallError("bad_message", '"token" must be a seat token (text) or null')
        # no token: a signed-in player's seat follows them (hall/accounts.py); else a spectator
        seat = self.room.seat_for_token(token) if token else self.room.seat_of(self.account)
        self.legal = message.get("legal", True) is not False
        self.greeted, self.seat, self.token = True, seat, token
        self.feed.hidden_sent = len(self.room.chat.hidden)  # what the store gives it is without them
        if self.account is not None and self.social is not None:
            self.feed.blocked = await self.social.blocked_set(self.account.id)
        self.push({"type": "welcome", "seat": seat, "room": self.room.status_json(seat)})
        assert self.hall is not None
        self.hall.broadcast.subscribe(self.room.code, self.feed.changed)
        self.feed.changed()
        if message.get("chat") is True:  # the chat so far (its newest lines), then each new line
            self.feed.chat_next = next((line.n for line in await self.room.chat.load()), 0)
            self.hall.broadcast.subscribe(chat_key(self.room.code), self.feed.chatted)
            self.feed.chatted()
        self.room.connect(seat)
        self.hall.looked(self.room, seat)

    async def chat(self, message: dict[str, Any]) -> None:
        assert self.room is not None
        if not self.greeted:
            raise HallError("not_a_player", "say hello first")
        refuse_bot_account(self.account, "chat")
        name = message.get("name")
        if name is not None and not isinstance(name, str):
            raise HallError("bad_message", '"name" must be text')
        try:  # counted by who speaks and from where, so that reconnecting does not start it again
            self.guard.take("chat", self.speaker())
            self.guard.take("chat_address", self.address)
        except RateLimited as refused:
            raise HallError("rate_limited", f"{refused}; nothing was said") from None
        kind: Literal["player", "spectator"] = "player" if self.seat is not None else "spectator"
        assert self.hall is not None
        if self.moderation is not None:  # muted, banned, or a room a moderator closed: refused in words
            await self.moderation.check_chat(self.account, self.address, self.room.code)
        account = self.account.id if self.account is not None else None
        await self.hall.run(self.room, Say(kind, message.get("text"), self.seat, name, account))

    def mute(self, message: dict[str, Any]) -> None:
        """Mutes (``"on": false``: unmutes) one name's chat in this room, for this connection only."""
        name, on = message.get("name"), message.get("on", True)
        if not isinstance(name, str) or not 0 < len(name) <= 64 or not isinstance(on, bool):
            raise HallError("bad_message", 'a mute needs "name" (the name shown, at most 64 characters)'
                            ' and "on" (true or false)')
        self.push({"type": "muted", "names": self.feed.mute(name, on)})

    def speaker(self) -> str:
        """Who a chat line is counted against: the signed-in player, else the room's seat, else
        (a spectator) the address."""
        assert self.room is not None
        if self.account is not None:
            return f"account {self.account.id}"
        return f"{self.room.code} seat {self.seat}" if self.seat is not None else self.address

    async def act(self, message: dict[str, Any], message_id: Any) -> None:
        assert self.room is not None
        if not self.greeted:
            raise HallError("not_a_player", "say hello with your seat token first")
        self.still_seated()
        if self.seat is None:
            raise HallError("not_a_player", "spectators watch; only a seat's player can act")
        if "action" not in message:
            raise HallError("bad_message", 'an act needs an "action"')
        if self.moderation is not None:  # banned since the connection opened: refused in words
            await self.moderation.check_play(self.account, self.address)
        assert self.hall is not None
        arrived, room, seat = time.perf_counter(), self.room, self.seat

        def acknowledge(turn: int) -> None:
            self.feed.push_text(ack_text(message_id, turn))
            observe.acknowledged(room.code, seat, turn, time.perf_counter() - arrived)

        await self.hall.run(self.room, Act(self.seat, message.get("turn"), message["action"]), on_commit=acknowledge)


router = APIRouter()


@router.websocket("/ws/rooms/{code}")
async def live(websocket: WebSocket, code: str, hall: HallDep, guard: GuardDep, account: SocketAccount,
               accounts: AccountsDep, social: SocialDep, moderation: ModerationDep) -> None:
    session = websocket.cookies.get(SESSION_COOKIE) if account is not None else None
    await room_socket(websocket, hall, guard, code, account, session, accounts, social, moderation)


async def admitted(websocket: WebSocket, hall: Hall, guard: Guard) -> str | None:
    """Accepts ``websocket`` and returns its client's address, or closes it, saying why, and returns
    None: the hall is restarting (the client reconnects, through the proxy to another hall), or its
    address holds as many sockets as it may."""
    await websocket.accept()
    if hall.draining:
        await websocket.close(CLOSE_RESTARTING, "the hall is restarting: reconnect")
        return None
    address = client_address(websocket.scope)
    if not guard.open_socket(address):
        words = f"at most {guard.limits.sockets} connections from one address at once"
        await websocket.send_text(dumps(error("rate_limited", words)))
        await websocket.close(CLOSE_TOO_MANY_SOCKETS, words)
        return None
    return address


async def room_socket(websocket: WebSocket, hall: Hall, guard: Guard, code: str, account: Account | None = None,
                      session: str | None = None, accounts: Accounts | None = None, social: Social | None = None,
                      moderation: Moderation | None = None) -> None:
    """``account``: the player the connection's session cookie (``session``) signs in, if any; the
    connection closes when that session ends. ``social``, ``moderation``: what filters its chat
    (blocks) and refuses it (sanctions)."""
    address = await admitted(websocket, hall, guard)
    if address is None:
        return
    sockets: SignedInSockets = websocket.app.state.signed_in
    connection = Connection(websocket, guard, address)
    connection.account, connection.accounts = account, accounts
    connection.social, connection.moderation = social, moderation
    connection.session, connection.session_checked = session, time.monotonic()
    if session is not None and account is not None:
        sockets.add(token_hash(session), account.id, connection.signed_out)
    try:
        await serve_connection(connection, hall, code)
    finally:
        guard.close_socket(address)
        if session is not None:
            sockets.remove(token_hash(session), connection.signed_out)


async def serve_connection(connection: Connection, hall: Hall, code: str) -> None:
    websocket = connection.websocket
    try:
        connection.hall = hall
        connection.room = await hall.room(clip(code, 16))
    except HallError as refused:
        await websocket.send_text(dumps(error(refused.code, str(refused))))
        await websocket.close(CLOSE_UNKNOWN_ROOM, "unknown room")
        return
    room = connection.room
    sender = asyncio.create_task(connection.send_loop())
    ended: tuple[int, str] | None = None
    try:
        ended = await connection.receive_loop()
    except (WebSocketDisconnect, RuntimeError):
        pass  # the client went away
    finally:
        sender.cancel()
        connection.feed.stop()
        if connection.greeted:
            hall.broadcast.unsubscribe(room.code, connection.feed.changed)
            hall.broadcast.unsubscribe(chat_key(room.code), connection.feed.chatted)
            room.disconnect(connection.seat)
    if ended is not None:
        drop(connection.outbox)
        with contextlib.suppress(RuntimeError):  # it closed meanwhile
            await websocket.close(*ended)


def drop(queue: Outbox) -> None:
    """Let go of everything ``queue`` holds."""
    while not queue.empty():
        queue.get_nowait()
