"""The hall's edge: the fixed sizes of what enters from the network, and the ASGI middleware
that caps REST bodies before they are read, counts the REST rate and adds the security headers.

Text lengths are in :mod:`.text`, JSON nesting in :mod:`.wire`, rates and quotas in :mod:`.quotas`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson

from .quotas import Guard, RateLimited
from .text import reason
from .wire import BadJson, read_json

# -- sizes: fixed, the same in every hall --------------------------------------------------------
MAX_BODY = 64 * 1024  # bytes of a REST body
MAX_REPLAY_BODY = 4 * 1024 * 1024  # bytes of a replay file sent to POST /api/replays/frames
MAX_MESSAGE = 64 * 1024  # bytes of a WebSocket message; longer ones are refused in words
ID_MAX = 64  # characters of a message's "id", which the hall sends back
OUTBOX_MAX = 256  # messages waiting to go out on one WebSocket before it is closed as too slow
ROOMS_PAGE = 50  # rooms in one page of GET /api/rooms, unless asked for fewer
ROOMS_PAGE_MAX = 200  # the most rooms one page may ask for

# WebSocket close codes of the hall (4000-4999 are the application's own).
CLOSE_BEHIND = 4408  # the client fell too far behind in reading: reconnect
CLOSE_FLOOD = 4429  # the client kept sending past its rate limit
CLOSE_TOO_MANY_SOCKETS = 4430  # too many connections from one address


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
