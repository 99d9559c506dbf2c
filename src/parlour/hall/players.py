"""Players on the web: the REST endpoints of accounts, profiles, "My games" and leaderboards
(OpenAPI tag ``players``), their pages, and the Origin check on requests that carry a session.

    app.include_router(players_router(hall, accounts))
    app.add_middleware(SameOrigin)

Everything here is optional for a visitor: a guest never needs an account, and every other page
and endpoint works the same without one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Query, Request, Response, WebSocket
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, Field
from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from .accounts import PASSWORD_MAX, SESSION_COOKIE, SESSION_DAYS, Account, Accounts
from .models import ErrorOut, Wire
from .rooms import Hall, HallError
from .store import PlayedGame

PAGE = Path(__file__).parent / "static" / "players.html"
RECENT = 20  # games in a profile's and in "My games"' finished list
LEADERBOARD_MAX = 200
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
ERRORS: dict[int | str, dict[str, Any]] = {status: {"model": ErrorOut} for status in (401, 403, 404, 409, 422, 429)}


# -- what crosses the wire ---------------------------------------------------------------------------
class Credentials(Wire):
    name: str = Field(max_length=200, description="1 to 32 characters, shown as text; unique whatever the case")
    password: str = Field(max_length=PASSWORD_MAX * 4, description=f"8 to {PASSWORD_MAX} characters")


class NewPassword(Wire):
    password: str = Field(max_length=PASSWORD_MAX * 4, description="the current password")
    new_password: str = Field(max_length=PASSWORD_MAX * 4, description=f"8 to {PASSWORD_MAX} characters")


class AccountOut(BaseModel):
    name: str
    kind: str = Field(description="human, or bot for a built-in bot's account")


class RatingOut(BaseModel):
    game: str
    rating: float = Field(description="OpenSkill's ordinal, mu - 3 sigma: 0 for a new player")
    mu: float
    sigma: float
    games: int = Field(description="rated games")


class PlayedOut(BaseModel):
    game: str
    played: int
    won: int


class GameEntry(BaseModel):
    code: str
    game: str
    status: str
    seat: int
    players: list[str]
    created: float
    url: str
    to_act: list[str] = Field(default_factory=list, description="in progress: whose turn it is")
    your_turn: bool = False
    rank: int | None = Field(None, description="finished: the place, 1 for a win (a forfeit is last)")
    change: float | None = Field(None, description="finished and rated: how the rating moved")
    replay_url: str | None = None


class ProfileOut(BaseModel):
    name: str
    kind: str
    ratings: list[RatingOut]
    played: list[PlayedOut]
    recent: list[GameEntry] = Field(description="finished games, newest first, with their replays")


class MyGamesOut(BaseModel):
    playing: list[GameEntry] = Field(description="games not over, newest first")
    finished: list[GameEntry]


class LeaderOut(BaseModel):
    place: int
    name: str
    kind: str
    rating: float
    games: int


# -- the Origin check ----------------------------------------------------------------------------------
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
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def socket_account(accounts: Accounts, websocket: WebSocket) -> Account | None:
    """The player a WebSocket's session cookie signs in, unless it was opened by another site."""
    token = websocket.cookies.get(SESSION_COOKIE)
    if token is None or cross_site(websocket.headers):
        return None
    return await accounts.by_session(token)


def address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


# -- the endpoints -------------------------------------------------------------------------------------
def players_router(hall: Hall, accounts: Accounts) -> tuple[APIRouter, Callable[..., Awaitable[Account | None]]]:
    """The players' endpoints and pages, and the dependency that gives a request's signed-in
    account (None for a guest)."""
    router = APIRouter()
    store = hall.store

    async def signed_in(request: Request) -> Account | None:
        return await accounts.by_session(request.cookies.get(SESSION_COOKIE))

    def me(account: Account | None = Depends(signed_in)) -> Account:
        if account is None:
            raise HallError("signed_out", "you are not signed in (or your session has ended): sign in first")
        return account

    def with_session(response: Response, request: Request, token: str) -> None:
        response.set_cookie(SESSION_COOKIE, token, max_age=SESSION_DAYS * 86400, path="/", httponly=True,
                            samesite="lax", secure=request.url.scheme == "https")

    @router.post("/api/accounts", response_model=AccountOut, status_code=201, responses=ERRORS, tags=["players"])
    async def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        """A new account, signed in at once (the answer sets the session cookie)."""
        account = await accounts.sign_up(body.name, body.password, address(request))
        with_session(response, request, await accounts.new_session(account))
        return {"name": account.name, "kind": account.kind}

    @router.post("/api/session", response_model=AccountOut, responses=ERRORS, tags=["players"])
    async def sign_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        """Sign in: the answer sets the session cookie (HttpOnly). A wrong name and a wrong password
        get the same answer; too many failures for a name or from an address are refused for a while."""
        account, token = await accounts.sign_in(body.name, body.password, address(request))
        with_session(response, request, token)
        return {"name": account.name, "kind": account.kind}

    @router.delete("/api/session", status_code=204, tags=["players"])
    async def sign_out(request: Request) -> Response:
        """Sign out: the session ends in the store and the cookie is cleared."""
        token = request.cookies.get(SESSION_COOKIE)
        if token:
            await accounts.sign_out(token)
        response = Response(status_code=204)
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
        return response

    @router.get("/api/me", response_model=AccountOut, responses=ERRORS, tags=["players"])
    def who_am_i(account: Account = Depends(me)) -> dict[str, Any]:
        """The signed-in player (401 for a guest)."""
        return {"name": account.name, "kind": account.kind}

    @router.put("/api/me/password", status_code=204, responses=ERRORS, tags=["players"])
    async def change_password(body: NewPassword, request: Request, account: Account = Depends(me)) -> Response:
        """A new password, given the current one; every other session of the account ends."""
        await accounts.change_password(account, body.password, body.new_password, address(request),
                                       request.cookies.get(SESSION_COOKIE, ""))
        return Response(status_code=204)

    @router.get("/api/me/games", response_model=MyGamesOut, responses=ERRORS, tags=["players"])
    async def my_games(account: Account = Depends(me)) -> dict[str, Any]:
        """My games: those in progress (whose turn it is) and the last finished ones."""
        playing = [entry(row, account) for row in await store.games_of(account.id, finished=False)]
        finished = await store.games_of(account.id, finished=True, limit=RECENT)
        return {"playing": playing, "finished": [entry(row) for row in finished]}

    @router.get("/api/players/{name}", response_model=ProfileOut, responses=ERRORS, tags=["players"])
    async def profile(name: str) -> dict[str, Any]:
        """A player's profile: ratings per game, games played and won, recent games with replays.
        Built-in bots have profiles too (``bot:greedy``)."""
        found = await accounts.by_name(name)
        if found is None:
            raise HallError("unknown_player", f"there is no player {name[:40]!r}")
        account = found[0]
        return {"name": account.name, "kind": account.kind,
                "ratings": [asdict(rating) for rating in await store.ratings_of(account.id)],
                "played": [asdict(played) for played in await store.played_by(account.id)],
                "recent": [entry(row) for row in await store.games_of(account.id, finished=True, limit=RECENT)]}

    @router.get("/api/games/{game}/leaderboard", response_model=list[LeaderOut], responses=ERRORS, tags=["players"])
    async def leaderboard(game: str, limit: int = Query(50, ge=1, le=LEADERBOARD_MAX)) -> list[dict[str, Any]]:
        """Players ranked by their rating in ``game``, bots included, best first."""
        if game not in hall.games:
            raise HallError("unknown_game", f"there is no game {game[:40]!r} (the games: {', '.join(hall.games)})")
        return [asdict(leader) for leader in await store.leaderboard(game, limit)]

    def entry(row: PlayedGame, viewer: Account | None = None) -> dict[str, Any]:
        """A game as listed; in progress, with whose turn it is (from the live room)."""
        names = [seat.get("name") or f"seat {i + 1}" for i, seat in enumerate(row.seats)]
        out = {"code": row.code, "game": row.game, "status": row.status, "seat": row.seat, "players": names,
               "created": row.created, "url": f"/r/{row.code}", "rank": row.rank, "change": row.change}
        if row.status == "over":
            out["replay_url"] = f"/r/{row.code}/replay"
        room = hall.rooms.get(row.code)
        if viewer is not None and room is not None and room.status == "playing":
            acting = sorted(room.to_act())
            out["to_act"] = [room.names()[seat] for seat in acting]
            out["your_turn"] = room.seat_of(viewer) in acting
        return out

    for path in ("/signin", "/me", "/players/{name}", "/leaderboard", "/leaderboard/{game}"):
        router.add_api_route(path, lambda: FileResponse(PAGE, media_type="text/html"), include_in_schema=False)
    return router, signed_in

