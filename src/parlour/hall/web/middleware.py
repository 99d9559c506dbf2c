"""The hall's edge: the fixed sizes of what enters from the network, and four small ASGI
middleware classes, each with one job, outermost first as :func:`.app.create_app` stacks them:

- :class:`SameOrigin`: a request that changes state with a session cookie from another site's page is refused;
- :class:`SecurityHeaders`: the security headers on every answer;
- :class:`RateLimit`: the REST rate per client address (429 with Retry-After);
- :class:`BodyLimits`: REST bodies capped before they are read in full (413), JSON checked (422).

Text lengths are in :mod:`..text`, JSON nesting in :mod:`..wire`, rates and quotas in :mod:`..quotas`.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any
from urllib.parse import urlsplit

import orjson
from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from .. import observe
from ..accounts import SESSION_COOKIE
from ..quotas import Guard, RateLimited
from ..text import reason
from ..wire import BadJson, read_json

# -- sizes: fixed, the same in every hall --------------------------------------------------------
MAX_BODY = 64 * 1024  # bytes of a REST body
MAX_REPLAY_BODY = 4 * 1024 * 1024  # bytes of a replay file sent to POST /api/replays/frames
MAX_MESSAGE = 64 * 1024  # bytes of a WebSocket message; longer ones are refused in words
ID_MAX = 64  # characters of a message's "id", which the hall sends back
OUTBOX_MAX = 256  # messages waiting to go out on one WebSocket before it is closed as too slow

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
REFUSED_AT_THE_EDGE = {429: "rate_limited", 413: "too_large", 422: "bad_request"}  # for parlour_refusals_total
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


class SecurityHeaders:
    """The security headers on every HTTP answer, except FastAPI's own API pages'."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith(OWN_POLICY_PATHS):
            await self.app(scope, receive, send)
            return

        async def sending(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, sending)


class RateLimit:
    """The REST rate per client address, under ``/api/``: 429 with Retry-After past it."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/api/"):
            try:
                self.guard.take("rest", client_address(scope))
            except RateLimited as refused:
                await answer(send, 429, str(refused), [(b"retry-after", str(refused.retry_seconds).encode())])
                return
        await self.app(scope, receive, send)


class BodyLimits:
    """REST bodies (under ``/api/``, and ``/internal/`` between the halls of a cluster) capped
    before they are read in full (413), and JSON bodies checked for depth and text (422)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH", "DELETE")
                or not scope["path"].startswith(("/api/", "/internal/"))):
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
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


def cross_site(headers: Headers) -> bool:
    """Whether a request comes from another site's page: its Origin (else Referer) names another
    host than the one it was sent to. A request with neither (not from a browser) is not."""
    source = headers.get("origin") or headers.get("referer")
    if source is None:
        return False
    return urlsplit(source).netloc.lower() != (headers.get("host") or "").lower()


class SameOrigin:
    """Refuses a request that changes state, carries a session cookie and comes from another site's
    page (SameSite=Lax already keeps the cookie off most of those; this is the second lock)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            headers = Headers(scope=scope)
            if SESSION_COOKIE in cookie_parser(headers.get("cookie", "")) and cross_site(headers):
                refusal = JSONResponse({"detail": "this request comes from another site's page with your session:"
                                                  " refused (nothing was done)"}, status_code=403)
                observe.refused("cross_site")
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


def too_large(cap: int, size: int | None = None) -> str:
    sent = f" ({size} bytes sent)" if size is not None else ""
    return f"this request is too large: at most {cap // 1024} KiB here{sent}; nothing was done"


async def answer(send: Send, status: int, detail: str, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    """A JSON error answer ``{"detail": ...}`` straight from the middleware (counted by its refusal's code)."""
    observe.refused(REFUSED_AT_THE_EDGE.get(status, str(status)))
    body = orjson.dumps({"detail": reason(detail)})
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *(headers or [])]})
    await send({"type": "http.response.body", "body": body})
