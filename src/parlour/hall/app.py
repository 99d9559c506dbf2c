"""The web application: REST for the lobby, the pages and static files, one WebSocket per room.

Everything it uses is passed in::

    app = create_app(SqlStore("sqlite:///var/parlour.sqlite3"), all_games(), SystemClock())
    uvicorn.run(app, host="127.0.0.1", port=8000)

The rooms' authority lives in :mod:`parlour.hall.rooms`; this module only translates HTTP and
WebSocket traffic to it and back.
"""

from __future__ import annotations

import html
import sys
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from argon2 import PasswordHasher
from fastapi import Depends, FastAPI, Header, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from .. import bots as bot_registry
from ..core import Game, IllegalAction, ParlourError
from . import table
from .accounts import Account, Accounts
from .broadcast import Broadcast
from .clock import Clock
from .limits import ROOMS_PAGE, ROOMS_PAGE_MAX, Gate, Guard, Limits, RateLimited, client_address, clip, reason
from .models import (
    CreateRoom,
    ErrorOut,
    GameOut,
    GiveToBot,
    Join,
    Joined,
    LobbyRoomOut,
    ReplayIn,
    ReplayOut,
    RoomCreated,
    RoomOut,
)
from .players import SameOrigin, players_router, socket_account
from .rooms import Hall, HallError, Room, frames
from .store import Store
from .ws import room_socket

if TYPE_CHECKING:
    from .cluster.node import Node

BOT_ROOM_WAIT = 600  # seconds an untouched waiting room with bots still counts as its creator's
STATIC = Path(__file__).parent / "static"
PAGES = {"lobby": "index.html", "room": "room.html", "replay": "replay.html"}
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut} for status in (403, 404, 409, 413, 422, 429)}


def game_folder(game: Game[Any]) -> Path:
    """The folder of the package that defines ``game`` (its rules and renderer live there)."""
    return Path(sys.modules[type(game).__module__].__file__ or ".").parent


RULES_MARK = "<!--rules-->"


def rules_page(shell: str, game: Game[Any], text: str) -> str:
    """The hall's rules page (``static/rules.html``) around a game's rules written for players.

    The game's package holds them as ``rules.html``; its ``spec.html`` is the rules document the
    engine implements, kept as the specification and never shown to players.
    """
    return (shell.replace("<title>Parlour — rules</title>", f"<title>{html.escape(game.name)} rules — Parlour</title>")
            .replace('data-game=""', f'data-game="{html.escape(game.id)}"').replace(RULES_MARK, text))


def bearer(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


def bots_busy(room: Room) -> bool:
    """Whether a room's bots count against its creator's share: they play, or may soon (a
    waiting room touched in the last ten minutes)."""
    return room.status == "playing" or (room.status == "waiting" and
                                        room.hall.clock.now() - room.touched < BOT_ROOM_WAIT)


def create_app(store: Store, games: Mapping[str, Game[Any]], clock: Clock,
               broadcast: Broadcast | None = None, bot_time_limit: float = 1.0,
               on_ready: Callable[[], None] | None = None, limits: Limits | None = None,
               bot_workers: int = 1, password_hasher: PasswordHasher | None = None,
               seed: int | None = None, cluster: Node | None = None) -> FastAPI:
    """The hall's web app; ``on_ready`` runs once every stored room is back, before serving.
    ``limits``: the rates and quotas (default: a public hall's, :class:`Limits`); ``bot_workers``:
    the processes where bots that think choose, each move within ``bot_time_limit`` seconds;
    ``password_hasher``: Argon2id's (hall/accounts.py) unless given; ``seed``: deal every room and
    seed every bot from it (tests and demonstrations: whoever knows it knows every deal);
    ``cluster``: this process's part when several share the rooms (hall/cluster/node.py,
    docs/scaling.md)."""
    hall = Hall(store, games, clock, broadcast, bot_time_limit=bot_time_limit, bot_workers=bot_workers, seed=seed,
                cluster=cluster)
    guard = Guard(limits or Limits())

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await hall.start()
        if on_ready is not None:
            on_ready()
        yield
        await hall.stop()

    app = FastAPI(title="Parlour hall", version="1",
                  description="The lobby's REST API. Live play goes over the WebSocket"
                              " `/ws/rooms/{code}`, documented in docs/protocol.md.",
                  lifespan=lifespan)
    app.state.hall = hall
    app.state.guard = guard
    app.add_middleware(Gate, guard=guard)
    accounts = Accounts(store, clock, password_hasher)
    players, signed_in = players_router(hall, accounts)
    app.add_middleware(SameOrigin)

    @app.exception_handler(HallError)
    async def refused(_: Request, error: HallError) -> JSONResponse:
        return JSONResponse({"detail": reason(str(error))}, status_code=error.http_status)

    @app.exception_handler(RateLimited)
    async def too_many(_: Request, error: RateLimited) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=429,
                            headers={"Retry-After": str(error.retry_seconds)})

    @app.exception_handler(RequestValidationError)
    async def unreadable(_: Request, error: RequestValidationError) -> JSONResponse:
        words = "; ".join(f"{'.'.join(clip(p, 40) for p in e['loc'])}: {e['msg']}" for e in error.errors()[:5])
        return JSONResponse({"detail": reason(f"this request does not read right: {words}")}, status_code=422)

    # -- the lobby's REST API ------------------------------------------------------------------
    @app.get("/api/games", response_model=list[GameOut], tags=["lobby"])
    def list_games() -> list[dict[str, Any]]:
        """The catalogue: each game with its seat counts, options and bots."""
        return [dict(game.describe(), bots=bot_registry.names(game),
                     bot_notes={name: bot_registry.about(game, name) for name in bot_registry.names(game)},
                     rules_url=f"/games/{game.id}/rules",
                     renderer_url=f"/games/{game.id}/static/renderer.js") for game in hall.games.values()]

    @app.post("/api/rooms", response_model=RoomCreated, status_code=201, responses=ERRORS, tags=["rooms"])
    async def create_room(body: CreateRoom, request: Request, account: Account | None = Depends(signed_in)
                          ) -> dict[str, Any]:
        """A new room. The answer's host token manages it; take_seat also seats the creator (signed
        in: under the account's name, and the seat follows the account)."""
        address = client_address(request.scope)
        with_bots = any(s.kind == "bot" for s in body.seats)
        if with_bots:
            guard.check_bot_room(address)
        guard.take("rooms", address)
        room, host_token, seat, seat_token = await hall.create_room(
            body.game, body.options, [s.model_dump() for s in body.seats], body.turn_timer,
            body.host_name, body.take_seat, account=account)
        if with_bots:
            guard.add_bot_room(address, room.code, lambda: bots_busy(room))
        return {"code": room.code, "host_token": host_token, "seat": seat, "seat_token": seat_token}

    @app.get("/api/rooms", response_model=list[LobbyRoomOut], responses=ERRORS, tags=["rooms"])
    async def lobby_rooms(status: table.LobbyStatus = Query("waiting", description="waiting: rooms with a seat"
                                                      " to take; playing: games in progress to watch"),
                          game: str | None = Query(None, max_length=64, description="only the rooms of this game"),
                          limit: int = Query(ROOMS_PAGE, ge=1, le=ROOMS_PAGE_MAX, description="rooms per page"),
                          offset: int = Query(0, ge=0, description="rooms to skip (the pages before)")
                          ) -> list[dict[str, Any]]:
        """The lobby's rooms, newest first, a page at a time: waiting for players (the default),
        or being played."""
        return await table.lobby(hall, status, game, offset, limit)

    @app.get("/api/rooms/{code}", response_model=RoomOut, responses=ERRORS, tags=["rooms"])
    def room_status(code: str) -> dict[str, Any]:
        return hall.room(code).status_json()

    @app.post("/api/rooms/{code}/join", response_model=Joined, responses=ERRORS, tags=["rooms"])
    async def join(code: str, body: Join, request: Request,
                   authorization: str | None = Header(None, description="Bearer <your seat token in the last"
                                                      " game>, to take the seat a rematch keeps for you"),
                   account: Account | None = Depends(signed_in)) -> dict[str, Any]:
        """Take a seat by name; keep the seat token, it is the only way back into the seat. Signed
        in, the seat is the account's (under its name) and opening the room from any browser
        where the player is signed in puts them back in it."""
        guard.take("joins", client_address(request.scope))
        seat, token = await hall.room(code).join(body.name, body.seat, bearer(authorization), account=account)
        return {"seat": seat, "seat_token": token}

    @app.post("/api/rooms/{code}/rematch", response_model=RoomCreated, status_code=201, responses=ERRORS,
              tags=["rooms"])
    async def rematch(code: str, request: Request,
                      authorization: str | None = Header(None, description="Bearer <seat token>")
                      ) -> dict[str, Any]:
        """Once the game is over, a player offers to play again: a new room with the same game,
        options, bots and turn timer, the seats turned by one, the caller seated (and its host),
        every other player's seat kept for them for a while (they join with their seat token).
        It counts as a new room (and a room with bots, if it has some) against the caller's quotas."""
        old = hall.room(code)
        old.seat_for_token(bearer(authorization))
        address = client_address(request.scope)
        with_bots = any(s.kind == "bot" for s in old.seats)
        if with_bots:
            guard.check_bot_room(address)
        guard.take("rooms", address)
        room, host_token, seat, seat_token = await table.rematch(old, bearer(authorization))
        if with_bots:
            guard.add_bot_room(address, room.code, lambda: bots_busy(room))
        return {"code": room.code, "host_token": host_token, "seat": seat, "seat_token": seat_token}

    @app.post("/api/rooms/{code}/seats/{seat}/bot", response_model=RoomOut, responses=ERRORS, tags=["rooms"])
    async def give_to_bot(code: str, seat: int, body: GiveToBot, request: Request,
                          authorization: str | None = Header(None, description="Bearer <host token>")
                          ) -> dict[str, Any]:
        """The host gives an empty seat, or one whose player is gone, to a bot."""
        room = hall.room(code)
        room.check_host(bearer(authorization))
        address = client_address(request.scope)
        guard.check_bot_room(address, room.code)
        await room.give_to_bot(seat, body.bot, body.name)
        guard.add_bot_room(address, room.code, lambda: bots_busy(room))
        return room.status_json()

    @app.post("/api/rooms/{code}/start", response_model=RoomOut, responses=ERRORS, tags=["rooms"])
    async def start(code: str, authorization: str | None = Header(None, description="Bearer <host token>")
                    ) -> dict[str, Any]:
        """The host starts the game once no seat is open."""
        room = hall.room(code)
        room.check_host(bearer(authorization))
        await room.start()
        return room.status_json()

    @app.get("/api/rooms/{code}/replay", response_model=ReplayOut, responses=ERRORS, tags=["replays"])
    def room_replay(code: str, seat: int | None = Query(None, description="the frames as this seat saw the"
                                                            " game, its hand and all (default: a spectator's)")
                    ) -> dict[str, Any]:
        """The finished game's replay, seed included, with its frames as a spectator or a seat saw it."""
        return hall.room(code).replay_json(seat)

    @app.post("/api/replays/frames", response_model=ReplayOut, responses=ERRORS, tags=["replays"])
    def replay_frames(body: ReplayIn, seat: int | None = Query(None, description="the frames as this seat saw"
                                                                " the game (default: a spectator's)")
                      ) -> dict[str, Any]:
        """The frames of a replay file (from the arena), for the replay page."""
        game = hall.game(body.game)
        replay = body.model_dump()
        replay["names"] = (replay["names"] + [f"seat {i + 1}" for i in range(body.players)])[:body.players]
        if seat is not None and not 0 <= seat < body.players:
            raise HallError("unknown_seat", f"this replay has seats 0 to {body.players - 1}, not {seat}")
        try:
            game.check_players(body.players)
            replay["options"] = game.resolve_options(game.stored_options(body.options))
            replay["seen_by"] = seat
            replay["frames"] = frames(game, replay, seat)
        except IllegalAction as error:
            raise HallError("bad_request", f"this replay does not replay: {error}") from None
        except ParlourError as error:
            raise HallError("bad_request", str(error)) from None
        return replay

    # -- live play ----------------------------------------------------------------------------
    @app.websocket("/ws/rooms/{code}")
    async def live(websocket: WebSocket, code: str) -> None:
        await room_socket(websocket, hall, guard, code, await socket_account(accounts, websocket))

    # -- pages and files ------------------------------------------------------------------------
    def page(name: str) -> Response:
        path = STATIC / PAGES[name]
        if path.is_file():
            return FileResponse(path, media_type="text/html")
        return HTMLResponse(f"<!doctype html><title>Parlour</title><p>The {name} page is not built yet."
                            " The API is described at <a href=\"/docs\">/docs</a>.</p>")

    @app.get("/", include_in_schema=False)
    def lobby() -> Response:
        return page("lobby")

    def room_page_of(name: str, code: str, request: Request, after: str = "") -> Response:
        """A room's page, at its code in capitals: a code written otherwise is sent there (308),
        so that a link typed in lower case reaches, behind nginx, the hall its room hashes to
        (docs/scaling.md) and the page's calls use the code as the hall writes it."""
        if code != code.upper():
            query = f"?{request.url.query}" if request.url.query else ""
            return RedirectResponse(f"/r/{quote(code.upper(), safe='')}{after}{query}", status_code=308)
        return page(name)

    @app.get("/r/{code}", include_in_schema=False)
    def room_page(code: str, request: Request) -> Response:
        return room_page_of("room", code, request)

    @app.get("/r/{code}/replay", include_in_schema=False)
    def room_replay_page(code: str, request: Request) -> Response:
        return room_page_of("replay", code, request, "/replay")

    @app.get("/replay", include_in_schema=False)
    def replay_page() -> Response:
        return page("replay")

    @app.get("/games/{game_id}/rules", include_in_schema=False)
    def rules(game_id: str) -> Response:
        document = game_file(game_id, "", "rules.html")
        if not isinstance(document, FileResponse):
            return document
        shell = (STATIC / "rules.html").read_text(encoding="utf-8")
        return HTMLResponse(rules_page(shell, hall.games[game_id], Path(document.path).read_text(encoding="utf-8")))

    @app.get("/games/{game_id}/static/{path:path}", include_in_schema=False)
    def game_static(game_id: str, path: str) -> Response:
        return game_file(game_id, "static", path)

    def game_file(game_id: str, under: str, relative: str) -> Response:
        """A file of the game's package folder ``under``, never one outside it."""
        game = hall.games.get(game_id)
        if game is not None:
            folder = (game_folder(game) / under).resolve()
            path = (folder / relative).resolve()
            if path.is_relative_to(folder) and path.is_file():
                return FileResponse(path)
        return JSONResponse({"detail": f"game {game_id!r} has no file {relative!r}"}, status_code=404)

    app.include_router(players)
    if cluster is not None:
        from .cluster.node import internal_router

        app.include_router(internal_router(hall))
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app
