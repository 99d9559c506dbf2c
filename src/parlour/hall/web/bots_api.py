"""Bot accounts on the web (OpenAPI tag ``bots``; docs/bot-api.md): turning one's account into a
bot account, its API tokens, the bots online and their leaderboard; and the two WebSockets a bot's
program uses with a token (``Authorization: Bearer <token>``): ``/ws/bot``, where it says what it
plays and hears of challenges, and ``/ws/bot/rooms/{code}``, the room's own protocol
(docs/protocol.md) for the seat its account holds there.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from dataclasses import asdict
from typing import Any

from fastapi import APIRouter, Query, Response
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..botaccounts import LABEL_MAX, BotAccounts
from ..challenges import Challenges, OnlineBot
from ..errors import HallError
from ..quotas import Guard, RateLimited
from ..store import Account
from ..text import clip
from ..wire import BadJson, dumps, read_json
from .deps import GuardDep, HallDep, SignedIn, bearer
from .errors import responses
from .middleware import MAX_MESSAGE, OUTBOX_MAX
from .schemas import LeaderOut, Wire
from .socket import CLOSE_FLOOD, admitted, error, room_socket

CLOSE_SIGNED_OUT = 4401  # no such token, or it was revoked: the connection ends at once
ERRORS = responses(401, 403, 404, 409, 422, 429)
LEADERBOARD_MAX = 200

router = APIRouter()


def the_bot_accounts(connection: HTTPConnection) -> BotAccounts:
    bots: BotAccounts = connection.app.state.bot_accounts
    return bots


def the_challenges(connection: HTTPConnection) -> Challenges:
    challenges: Challenges = connection.app.state.challenges
    return challenges


class TokenOut(BaseModel):
    token: str = Field(description="the API token: shown this once, kept by the hall only as its hash")


class NewToken(Wire):
    label: str | None = Field(None, max_length=LABEL_MAX * 4, description="what the token is for, e.g. my laptop")


class TokenListed(BaseModel):
    id: int
    label: str
    created: float
    last_used: float | None = Field(None, description="when a program last connected with it")


class BotRating(BaseModel):
    game: str
    rating: float
    games: int


class OnlineBotOut(BaseModel):
    name: str
    games: dict[str, dict[str, list[Any]]] = Field(description="each game it plays, with the option values it"
                                                               " accepts (an option not named: any)")
    max_games: int
    ratings: list[BotRating]
    profile_url: str


# -- the account and its tokens --------------------------------------------------------------------
@router.post("/api/me/bot", response_model=TokenOut, status_code=201, responses=ERRORS, tags=["bots"])
async def become_bot(account: SignedIn, connection: HTTPConnection) -> dict[str, Any]:
    """Turn the signed-in account into a bot account, for good: allowed only to an account that has
    played no rated game. The answer is its first API token, shown this once."""
    return {"token": await the_bot_accounts(connection).become_bot(account)}


@router.post("/api/me/tokens", response_model=TokenOut, status_code=201, responses=ERRORS, tags=["bots"])
async def new_token(body: NewToken, account: SignedIn, connection: HTTPConnection) -> dict[str, Any]:
    """One more API token of the signed-in bot account (shown this once)."""
    return {"token": await the_bot_accounts(connection).new_token(account, body.label)}


@router.get("/api/me/tokens", response_model=list[TokenListed], responses=ERRORS, tags=["bots"])
async def list_tokens(account: SignedIn, connection: HTTPConnection) -> list[dict[str, Any]]:
    """The signed-in bot account's API tokens (never the tokens themselves)."""
    return [asdict(token) for token in await the_bot_accounts(connection).tokens(account)]


@router.delete("/api/me/tokens/{token_id}", status_code=204, responses=ERRORS, tags=["bots"])
async def revoke_token(token_id: int, account: SignedIn, connection: HTTPConnection) -> Response:
    """Revoke a token: it signs in nothing from now on, and every connection it opened ends now."""
    await the_bot_accounts(connection).revoke(account, token_id)
    return Response(status_code=204)


# -- the bots online and their leaderboard ---------------------------------------------------------
@router.get("/api/bots", response_model=list[OnlineBotOut], tags=["bots"])
async def online_bots(hall: HallDep, connection: HTTPConnection) -> list[dict[str, Any]]:
    """The bot accounts online now, with the games they accept and their ratings."""
    out = []
    for bot in the_challenges(connection).listing():
        ratings = await hall.store.ratings_of(bot.account.id)
        out.append({"name": bot.account.name, "games": bot.games, "max_games": bot.max_games,
                    "ratings": [{"game": r.game, "rating": r.rating, "games": r.games} for r in ratings],
                    "profile_url": f"/players/{bot.account.name}"})
    return out


@router.get("/api/games/{game}/leaderboard/bots", response_model=list[LeaderOut], responses=ERRORS, tags=["bots"])
async def bot_leaderboard(game: str, hall: HallDep, limit: int = Query(50, ge=1, le=LEADERBOARD_MAX)
                          ) -> list[dict[str, Any]]:
    """The bot accounts ranked by their rating in ``game``, best first."""
    if game not in hall.games:
        raise HallError("unknown_game", f"there is no game {clip(game, 40)} (the games: {', '.join(hall.games)})")
    return [asdict(leader) for leader in await hall.store.bots.leaderboard(game, limit)]


# -- a bot's program: its WebSockets ---------------------------------------------------------------
async def revocable(bots: BotAccounts, token: str, work: Coroutine[Any, Any, Any]) -> bool:
    """Runs ``work`` until it ends, or until ``token`` is revoked (True then: ``work`` was cancelled)."""
    task = asyncio.ensure_future(work)
    revoked = False

    def end() -> None:
        nonlocal revoked
        revoked = True
        task.cancel()

    bots.opened(token, end)
    try:
        await task
    except asyncio.CancelledError:
        if not revoked:
            raise
    finally:
        bots.closed(token, end)
    return revoked


async def signed_in_bot(websocket: WebSocket, bots: BotAccounts) -> tuple[Account, str] | None:
    """The bot account of the connection's token; None after telling the program why not."""
    token = bearer(websocket.headers.get("authorization"))
    account = await bots.by_token(token)
    if account is None or token is None:
        await websocket.accept()
        await websocket.send_text(dumps(error("bad_credentials", "this API token signs in no bot account (it may"
                                              " have been revoked): send Authorization: Bearer <token>")))
        await websocket.close(CLOSE_SIGNED_OUT, "no such token")
        return None
    await bots.used(token)
    return account, token


@router.websocket("/ws/bot/rooms/{code}")
async def bot_room(websocket: WebSocket, code: str, hall: HallDep, guard: GuardDep) -> None:
    """A room's own WebSocket for a bot account's program: its seat is the one its account holds."""
    bots = the_bot_accounts(websocket)
    signed = await signed_in_bot(websocket, bots)
    if signed is None:
        return
    account, token = signed
    if await revocable(bots, token, room_socket(websocket, hall, guard, code, account)):
        with contextlib.suppress(RuntimeError):
            await websocket.close(CLOSE_SIGNED_OUT, "the token was revoked")


@router.websocket("/ws/bot")
async def bot_stream(websocket: WebSocket, hall: HallDep, guard: GuardDep) -> None:
    """Where a bot account's program says what it plays and hears of challenges (docs/bot-api.md)."""
    bots = the_bot_accounts(websocket)
    signed = await signed_in_bot(websocket, bots)
    if signed is None:
        return
    account, token = signed
    address = await admitted(websocket, hall, guard)
    if address is None:
        return
    stream = BotStream(websocket, guard, address, the_challenges(websocket), account)
    try:
        ended = await revocable(bots, token, stream.serve())
        if ended:
            stream.ending = (CLOSE_SIGNED_OUT, "the token was revoked")
    finally:
        guard.close_socket(address)
        stream.offline()
    if stream.ending is not None:
        with contextlib.suppress(RuntimeError):
            await websocket.close(*stream.ending)


class BotStream:
    """One connection of a bot's program to ``/ws/bot``."""

    def __init__(self, websocket: WebSocket, guard: Guard, address: str, challenges: Challenges,
                 account: Account) -> None:
        self.websocket = websocket
        self.guard = guard
        self.address = address
        self.rate = guard.own_rate("connection_messages")
        self.challenges = challenges
        self.account = account
        self.online: OnlineBot | None = None
        self.outbox: asyncio.Queue[str] = asyncio.Queue()
        self.ending: tuple[int, str] | None = None
        self.refused = 0

    def push(self, message: dict[str, Any]) -> None:
        if self.outbox.qsize() >= OUTBOX_MAX:
            self.ending = (CLOSE_FLOOD, f"more than {OUTBOX_MAX} messages waited for you to read them")
            return
        self.outbox.put_nowait(dumps(message))

    def offline(self) -> None:
        if self.online is not None:
            self.challenges.disconnect(self.online)
            self.online = None

    async def serve(self) -> None:
        self.push({"type": "welcome", "account": self.account.name, "max_games": self.challenges.bot_games,
                   "playing": await self.challenges.playing(self.account)})
        sender = asyncio.create_task(self._send_loop())
        try:
            await self._receive_loop()
        except (WebSocketDisconnect, RuntimeError):
            pass  # the program went away
        finally:
            sender.cancel()

    async def _send_loop(self) -> None:
        while True:
            await self.websocket.send_text(await self.outbox.get())

    async def _receive_loop(self) -> None:
        while self.ending is None:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            try:
                self.guard.message(self.rate, self.address)
            except RateLimited as refused:
                self.refused += 1
                if self.refused > self.guard.limits.flood:
                    self.ending = (CLOSE_FLOOD, "too many messages past the rate limit")
                    return
                self.push(error("rate_limited", f"{refused}; nothing was done"))
                continue
            self.refused = 0
            text = message.get("text")
            data = message.get("bytes") or b"" if text is None else text.encode(errors="surrogatepass")
            if len(data) > MAX_MESSAGE:
                self.push(error("too_large", f"messages are limited to {MAX_MESSAGE} bytes: nothing was done"))
                continue
            try:
                self._handle(data)
            except HallError as refused_message:
                self.push(error(refused_message.code, str(refused_message)))

    def _handle(self, data: bytes) -> None:
        try:
            message = read_json(data)
        except BadJson as problem:
            raise HallError("bad_message", f"{problem}: nothing was done") from None
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise HallError("bad_message", 'a message is a JSON object with a "type"')
        kind = message["type"]
        if kind == "ready":
            self.offline()
            self.online = self.challenges.connect(self.account, message.get("games"), message.get("max_games"),
                                                  self.push)
            self.push({"type": "online", "games": self.online.games, "max_games": self.online.max_games})
        elif kind in ("accept", "decline"):
            if self.online is None:
                raise HallError("bad_message", "say ready first: no challenge comes before")
            self.challenges.answer(self.online, message.get("id"), kind == "accept", message.get("reason"))
        elif kind == "ping":
            self.push({"type": "pong"})
        else:
            raise HallError("bad_message", f"unknown message type {clip(kind)!r}: the types are ready, accept,"
                            " decline and ping")
