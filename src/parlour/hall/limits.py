"""How much the hall takes from the network: sizes, nesting, text lengths, rates and quotas.

Everything that enters is bounded here, in one place, so that each new way in (chat, accounts)
takes its caps from the same constants and its rates from the same limiter::

    guard = Guard(Limits())
    guard.take("rooms", "203.0.113.7")   # raises RateLimited (retry_after seconds) past the quota
    message = read_json(text)            # raises BadJson in words: not JSON, too deep, bad text
    clip(unknown_type)                   # what an error message may quote of the client's input

The fixed caps are constants; the rates and quotas are :class:`Limits`, one value per hall,
set by ``parlour serve --limit NAME=VALUE`` (docs/protocol.md lists them all). Rates are counted
by the maintained ``limits`` library (fixed windows in memory), per client address and per
connection.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

import orjson
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter

from ..core import ParlourError

# -- sizes: fixed, the same in every hall --------------------------------------------------------
MAX_BODY = 64 * 1024  # bytes of a REST body
MAX_REPLAY_BODY = 4 * 1024 * 1024  # bytes of a replay file sent to POST /api/replays/frames
MAX_MESSAGE = 64 * 1024  # bytes of a WebSocket message; longer ones are refused in words
MAX_DEPTH = 32  # nesting of JSON objects and arrays, REST and WebSocket alike
NAME_MAX = 32  # characters of a player's name, wherever names enter (seats, replay files)
TEXT_MAX = 500  # characters of a free text a person writes (a chat line)
ID_MAX = 64  # characters of a message's "id", which the hall sends back
ECHO_MAX = 60  # characters of the client's input an error message may quote
REASON_MAX = 400  # characters of an error message
OUTBOX_MAX = 256  # messages waiting to go out on one WebSocket before it is closed as too slow
ROOMS_PAGE = 50  # rooms in one page of GET /api/rooms, unless asked for fewer
ROOMS_PAGE_MAX = 200  # the most rooms one page may ask for

# WebSocket close codes of the hall (4000-4999 are the application's own).
CLOSE_BEHIND = 4408  # the client fell too far behind in reading: reconnect
CLOSE_FLOOD = 4429  # the client kept sending past its rate limit
CLOSE_TOO_MANY_SOCKETS = 4430  # too many connections from one address


@dataclass(frozen=True)
class Limits:
    """The rates and quotas of one hall, in the ``limits`` library's notation ("10/minute",
    several joined by ";"). Per client address unless the name says otherwise."""

    rest: str = "20/second;600/minute"  # REST calls under /api
    rooms: str = "10/minute;60/hour"  # rooms created
    joins: str = "30/minute"  # seats taken
    bot_rooms: int = 4  # unfinished rooms with a bot seat, made or given bots from one address
    sockets: int = 32  # WebSocket connections open at once
    messages: str = "200/second"  # WebSocket messages, all of an address's connections together
    connection_messages: str = "30/second;600/minute"  # WebSocket messages on one connection
    chat: str = "5/10second;40/minute"  # chat lines said on one connection
    flood: int = 100  # messages refused for rate on one connection before it is closed
    exempt: str = ""  # addresses, comma-separated, that no per-address quota counts (a trusted proxy's checks)

    @classmethod
    def lifted(cls) -> Limits:
        """No quota per client address (a load test from one machine); the sizes, the
        per-connection rate and the outgoing queues stay bounded."""
        return cls(rest="1000000/second", rooms="1000000/second", joins="1000000/second", bot_rooms=1_000_000,
                   sockets=1_000_000, messages="1000000/second")

    def with_settings(self, settings: list[str]) -> Limits:
        """These limits with ``NAME=VALUE`` settings applied; :class:`ValueError` in words."""
        fields = {f.name: f for f in dataclasses.fields(self)}
        changes: dict[str, Any] = {}
        for setting in settings:
            name, _, value = setting.partition("=")
            name = name.strip().replace("-", "_")
            if name not in fields or not value:
                raise ValueError(f"{setting!r}: a limit is NAME=VALUE, NAME one of {', '.join(fields)}")
            if name == "exempt":
                changes[name] = value
            elif fields[name].type == "int":
                if not value.isdigit():
                    raise ValueError(f"{setting!r}: {name} is a whole number")
                changes[name] = int(value)
            else:
                try:
                    parse_many(value)
                except ValueError:
                    raise ValueError(f"{setting!r}: {name} is a rate such as 10/minute or 5/second;100/hour")
                changes[name] = value
        return dataclasses.replace(self, **changes)


class RateLimited(ParlourError):
    """A quota or rate ran out; ``retry_after`` is the seconds until it allows one more."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after

    @property
    def retry_seconds(self) -> int:
        """``Retry-After`` as HTTP has it: whole seconds, at least 1."""
        return max(1, math.ceil(self.retry_after))


# What each rate counts, in the words of a refusal.
COUNTED = {"rest": "requests", "rooms": "new rooms", "joins": "seats taken", "messages": "messages",
           "connection_messages": "messages on this connection", "chat": "chat lines"}
PER_CONNECTION = {"connection_messages", "chat"}  # every other rate counts per client address


class Guard:
    """The hall's rates and quotas, counted in memory (they start again with the process)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._rates = {name: parse_many(getattr(limits, name)) for name in COUNTED}
        self._limiter = FixedWindowRateLimiter(MemoryStorage())  # a moving window cost twice the CPU per message
        self.exempt = frozenset(a.strip() for a in limits.exempt.split(",") if a.strip())
        self.sockets: dict[str, int] = {}  # open WebSocket connections by address
        self._bot_rooms: dict[str, dict[str, Callable[[], bool]]] = {}  # address -> room code -> still on?

    def take(self, name: str, key: str) -> None:
        """Count one of ``name`` for ``key`` (an address, a connection), or :class:`RateLimited`."""
        if key in self.exempt and name not in PER_CONNECTION:
            return
        for item in self._rates[name]:
            if not self._limiter.hit(item, name, key):
                retry = self._retry_after(item, name, key)
                raise RateLimited(f"too many {COUNTED[name]}: at most {describe(item)};"
                                  f" try again in {max(1, math.ceil(retry))} s", retry)

    def _retry_after(self, item: RateLimitItem, *keys: str) -> float:
        reset = self._limiter.get_window_stats(item, *keys).reset_time
        return max(0.0, reset - time.time())

    # -- connections and bot rooms: counted while they last -------------------------------------
    def open_socket(self, address: str) -> bool:
        """One more connection from ``address``; False (and not counted) past the cap."""
        count = self.sockets.get(address, 0)
        if count >= self.limits.sockets and address not in self.exempt:
            return False
        self.sockets[address] = count + 1
        return True

    def close_socket(self, address: str) -> None:
        count = self.sockets.get(address, 0) - 1
        if count > 0:
            self.sockets[address] = count
        else:
            self.sockets.pop(address, None)

    def check_bot_room(self, address: str, code: str | None = None) -> None:
        """:class:`RateLimited` if ``address`` already has its share of unfinished bot rooms
        (``code``: a room of theirs that would become one, which counts once)."""
        if address in self.exempt:
            return
        rooms = self._bot_rooms.get(address, {})
        for other in [c for c, on in rooms.items() if not on()]:
            del rooms[other]
        if code not in rooms and len(rooms) >= self.limits.bot_rooms:
            raise RateLimited(f"at most {self.limits.bot_rooms} unfinished rooms with bots per player:"
                              " finish one or let it end first", 60.0)

    def add_bot_room(self, address: str, code: str, still_on: Callable[[], bool]) -> None:
        self._bot_rooms.setdefault(address, {})[code] = still_on


def describe(item: RateLimitItem) -> str:
    """``10/minute`` as words: "10 per minute"."""
    per = item.GRANULARITY.name if item.multiples == 1 else f"{item.multiples} {item.GRANULARITY.name}s"
    return f"{item.amount} per {per}"


# -- JSON and text --------------------------------------------------------------------------------
class BadJson(ValueError):
    """JSON the hall does not take, with the reason in words."""


def read_json(data: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """``data`` parsed, or :class:`BadJson`: not JSON, text that is not valid Unicode (a lone
    surrogate), numbers beyond a double, or objects and arrays nested deeper than ``max_depth``."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as problem:
        words = str(problem)
        if "depth" in words:
            raise BadJson(f"JSON nested deeper than {max_depth} levels is refused") from None
        raise BadJson(f"this is not JSON the hall reads ({clip(words, 120)})") from None
    if depth(value) > max_depth:
        raise BadJson(f"JSON nested deeper than {max_depth} levels is refused")
    return value


def depth(value: Any) -> int:
    """How deeply objects and arrays nest in ``value`` (a scalar is 0, ``[]`` is 1)."""
    deepest, level = 0, [(value, 1)]
    while level:
        item, at = level.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, at)
        level.extend((child, at + 1) for child in children if isinstance(child, (dict, list)))
    return deepest


def clip(text: Any, limit: int = ECHO_MAX) -> str:
    """``text`` (or its repr, if not text) cut to ``limit`` characters, saying so: what an error
    message may quote of the client's input."""
    shown = text if isinstance(text, str) else repr(text)
    if len(shown) <= limit:
        return shown
    return f"{shown[:limit]}... ({len(shown)} characters)"


def reason(message: str) -> str:
    """An error message as it may be sent: at most ``REASON_MAX`` characters."""
    return message if len(message) <= REASON_MAX else message[:REASON_MAX - 3] + "..."


def text_field(value: Any, what: str, limit: int = TEXT_MAX) -> str:
    """A free text a person wrote (a chat line): text, no longer than ``limit`` characters, no
    control characters but line breaks. :class:`ValueError` in words."""
    import unicodedata

    if not isinstance(value, str):
        raise ValueError(f"{what} must be text")
    if len(value) > limit:
        raise ValueError(f"{what} can have at most {limit} characters, not {len(value)}")
    if any(unicodedata.category(ch).startswith("C") and ch != "\n" for ch in value):
        raise ValueError(f"{what} cannot hold control characters")
    return value


# -- REST: bodies capped and read before FastAPI parses them --------------------------------------
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# The documents the pages may load: their own scripts, styles and images, and the room's socket.
# Styles may be inline: renderers set colours by style attribute and the rules documents carry
# their own <style>; scripts may not.
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline';"
     b" img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none';"
     b" form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]
# FastAPI's own API pages load their script from a CDN and start it inline: they keep their way.
OWN_POLICY_PATHS = ("/docs", "/redoc")


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return client[0] if client else "unknown"


class Gate:
    """ASGI middleware in front of the app: the REST rate per address (429 with Retry-After),
    bodies capped before they are read in full (413), JSON bodies checked for depth and text
    (422), and the security headers on every answer."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        send = self._with_headers(send, path)
        internal = path.startswith("/internal/")  # between the halls of a cluster: sizes, no quota
        if not path.startswith("/api/") and not internal:
            await self.app(scope, receive, send)
            return
        if not internal:
            try:
                self.guard.take("rest", client_address(scope))
            except RateLimited as refused:
                await answer(send, 429, str(refused), [(b"retry-after", str(refused.retry_seconds).encode())])
                return
        if scope["method"] not in ("POST", "PUT", "PATCH", "DELETE"):
            await self.app(scope, receive, send)
            return
        cap = MAX_REPLAY_BODY if path == "/api/replays/frames" else MAX_BODY
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length", b"")
        if declared.isdigit() and int(declared) > cap:
            await answer(send, 413, too_large(cap, int(declared)))
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > cap:
                await answer(send, 413, too_large(cap))
                return
            if not message.get("more_body"):
                break
        if body and b"json" in headers.get(b"content-type", b""):
            try:
                read_json(bytes(body))
            except BadJson as problem:
                await answer(send, 422, f"this request does not read right: {problem}")
                return
        sent = False

        async def replay() -> MutableMapping[str, Any]:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        await self.app(scope, replay, send)

    @staticmethod
    def _with_headers(send: Send, path: str) -> Send:
        if path.startswith(OWN_POLICY_PATHS):
            return send

        async def sending(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        return sending


def too_large(cap: int, size: int | None = None) -> str:
    sent = f" ({size} bytes sent)" if size is not None else ""
    return f"this request is too large: at most {cap // 1024} KiB here{sent}; nothing was done"


async def answer(send: Send, status: int, detail: str, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    """A JSON error answer ``{"detail": ...}`` straight from the middleware."""
    body = orjson.dumps({"detail": reason(detail)})
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *(headers or [])]})
    await send({"type": "http.response.body", "body": body})
