"""The hall's edge: the fixed sizes of what enters from the network, and five small ASGI
middleware classes, each with one job, outermost first as :func:`.app.create_app` stacks them:

- :class:`TrustedProxy`: the client's address from ``X-Forwarded-For``, only when a configured
  proxy (``parlour serve --proxy``, with the proxy's secret header when one is set) sent it;
- :class:`SameOrigin`: a request that changes state with a session cookie from another site's page is refused;
- :class:`SecurityHeaders`: the security headers on every answer;
- :class:`RateLimit`: the REST rate per client address (429 with Retry-After);
- :class:`BodyLimits`: REST bodies capped before they are read in full (413), JSON checked (422).

Text lengths are in :mod:`..text`, JSON nesting in :mod:`..wire`, rates and quotas in :mod:`..quotas`.
"""

from __future__ import annotations

import hmac
from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import orjson
from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from .. import observe
from ..accounts import SESSION_COOKIE
from ..quotas import Guard, RateLimited, address_key
from ..text import reason
from ..wire import BadJson, read_json

# -- sizes: fixed, the same in every hall --------------------------------------------------------
MAX_BODY = 64 * 1024  # bytes of a REST body
MAX_REPLAY_BODY = 4 * 1024 * 1024  # bytes of a replay file sent to POST /api/replays/frames
REPLAY_PATH = "/api/replays/frames"  # its body is read on a worker thread, its quota checked first
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


PROXY_SECRET_HEADER = "x-parlour-proxy"  # what a configured proxy proves itself with (parlour cluster's nginx)


def client_address(scope: Scope) -> str:
    """What the client's quotas and throttles are counted by: its address, an IPv6 one's /64
    (:func:`..quotas.address_key`); behind a trusted proxy, the address the proxy saw."""
    client = scope.get("client")
    return address_key(client[0]) if client else "unknown"


@dataclass(frozen=True)
class Proxies:
    """The proxies whose ``X-Forwarded-For`` the hall believes: their ``addresses``, and, if set,
    the ``secret`` each request of theirs carries in ``X-Parlour-Proxy`` (so that another process
    of the proxy's machine is not believed)."""

    addresses: frozenset[str] = frozenset()
    secret: str | None = None


class TrustedProxy:
    """The client's address (and scheme) as a trusted proxy gives them in ``X-Forwarded-For``
    (``X-Forwarded-Proto``); from anyone else those headers change nothing."""

    def __init__(self, app: ASGIApp, proxies: Proxies) -> None:
        self.app = app
        self.proxies = proxies

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        if scope["type"] in ("http", "websocket") and client and client[0] in self.proxies.addresses:
            headers = Headers(scope=scope)
            secret = self.proxies.secret
            given = headers.get(PROXY_SECRET_HEADER, "")
            forwarded = headers.get("x-forwarded-for", "").split(",")[-1].strip()
            if forwarded and (secret is None or hmac.compare_digest(given.encode(), secret.encode())):
                scope = dict(scope, client=(forwarded, 0))
                proto = headers.get("x-forwarded-proto", "").strip().lower()
                if proto in ("http", "https"):
                    secure = proto == "https"
                    scope["scheme"] = ("wss" if secure else "ws") if scope["type"] == "websocket" else proto
        await self.app(scope, receive, send)


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
                if scope["path"] == REPLAY_PATH:  # refused before its body (4 MiB) is read
                    self.guard.check("replay_frames", client_address(scope))
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
        cap = MAX_REPLAY_BODY if path == REPLAY_PATH else MAX_BODY
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
        kind = headers.get(b"content-type", b"").lower()  # media types are read whatever their capitals
        # FastAPI reads a body without a type as JSON too; a replay file is read (and checked) on a
        # worker thread, off the event loop (replays_api.py)
        if body and (b"json" in kind or not kind) and path != REPLAY_PATH:
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
