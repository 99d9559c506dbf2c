"""The lobby's REST API (OpenAPI tags ``lobby`` and ``rooms``): the games, the rooms listed, a
room made, joined, given a bot, started, played again.

Live play goes over the WebSocket (:mod:`.socket`); the rooms' authority is :mod:`parlour.hall.hall`,
and this module only translates HTTP to it and back.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Query

from ... import bots as bot_registry
from .. import lobby as lobby_listing
from ..botaccounts import refuse_bot_account
from ..mygames import check_cap
from ..quotas import Guard
from ..rematch import joined as rematch_joined
from ..rematch import offer_rematch, origin
from ..room import Room
from ..room import commands as do
from ..room.leaving import check_standing_host
from .deps import (
    ClientAddress,
    CurrentAccount,
    GuardDep,
    HallDep,
    HostToken,
    KeptSeatToken,
    ModerationDep,
    SeatToken,
    SocialDep,
)
from .errors import responses
from .schemas import CreateRoom, GameOut, GiveToBot, Join, Joined, LobbyRoomOut, RoomCreated, RoomOut

BOT_ROOM_WAIT = 600  # seconds an untouched waiting room with bots still counts as its creator's
ROOMS_PAGE = 50  # rooms in one page of GET /api/rooms, unless asked for fewer
ROOMS_PAGE_MAX = 200  # the most rooms one page may ask for
ERRORS = responses(403, 404, 409, 413, 422, 429)

router = APIRouter()


def bots_busy(room: Room) -> bool:
    """Whether a room's bots count against its creator's share: they play, or may soon (a game
    with a person at the table, or that changed in the last ten minutes; a waiting room touched in
    the last ten minutes). A game its people resigned or walked away from stops counting."""
    recent = room.context.clock.now() - room.touched < BOT_ROOM_WAIT
    if room.status == "playing":
        return recent or any(seat.kind == "human" and seat.connections > 0 for seat in room.seats)
    return room.status == "waiting" and recent


def count_bot_room(guard: Guard, address: str, room: Room) -> None:
    """``room`` has bots now: it counts among ``address``'s unfinished bot rooms while they are busy."""
    guard.add_bot_room(address, room.code, lambda: bots_busy(room))


@router.get("/api/games", response_model=list[GameOut], tags=["lobby"])
def list_games(hall: HallDep) -> list[dict[str, Any]]:
    """The catalogue: each game with its seat counts, options and bots."""
    return [dict(game.describe(), bots=bot_registry.names(game),
                 bot_notes={name: bot_registry.about(game, name) for name in bot_registry.names(game)},
                 rules_url=f"/games/{game.id}/rules",
                 renderer_url=f"/games/{game.id}/static/renderer.js") for game in hall.games.values()]


@router.post("/api/rooms", response_model=RoomCreated, status_code=201, responses=ERRORS, tags=["rooms"])
async def create_room(body: CreateRoom, hall: HallDep, guard: GuardDep, address: ClientAddress,
                      account: CurrentAccount, moderation: ModerationDep) -> dict[str, Any]:
    """A new room. The answer's host token manages it; take_seat also seats the creator (signed
    in: under the account's name, and the seat follows the account)."""
    refuse_bot_account(account, "make rooms")
    await moderation.check_sign_in(account, address)  # banned (or a guest's address banned): refused in words
    with_bots = any(s.kind == "bot" for s in body.seats)
    await check_cap(hall, account if body.take_seat is not None else None, guard.limits.games_per_player)
    guard.new_room(address, with_bots)
    room, host_token, seat, seat_token = await hall.create_room(
        body.game, body.options, [s.model_dump() for s in body.seats], body.turn_timer,
        body.host_name, body.take_seat, account=account, pace=body.pace,
        coach=body.coach)
    if with_bots:
        count_bot_room(guard, address, room)
    return {"code": room.code, "host_token": host_token, "seat": seat, "seat_token": seat_token}


@router.get("/api/rooms", response_model=list[LobbyRoomOut], responses=ERRORS, tags=["rooms"])
async def lobby_rooms(hall: HallDep,
                      status: lobby_listing.LobbyStatus = Query("waiting", description="waiting: rooms with a seat"
                                                                " to take; playing: games in progress to watch"),
                      game: str | None = Query(None, max_length=64, description="only the rooms of this game"),
                      limit: int = Query(ROOMS_PAGE, ge=1, le=ROOMS_PAGE_MAX, description="rooms per page"),
                      offset: int = Query(0, ge=0, description="rooms to skip (the pages before)"),
                      pace: Literal["live", "turn-based"] | None = Query(None, description="only live rooms, or"
                                                                         " only turn-based ones")
                      ) -> list[dict[str, Any]]:
    """The lobby's rooms, newest first, a page at a time: waiting for players (the default),
    or being played."""
    return await lobby_listing.lobby(hall, status, game, offset, limit, pace)


@router.get("/api/rooms/{code}", response_model=RoomOut, responses=ERRORS, tags=["rooms"])
async def room_status(code: str, hall: HallDep) -> dict[str, Any]:
    return (await hall.room(code)).status_json()


@router.post("/api/rooms/{code}/join", response_model=Joined, responses=ERRORS, tags=["rooms"])
async def join(code: str, body: Join, hall: HallDep, guard: GuardDep, address: ClientAddress,
               token: KeptSeatToken, account: CurrentAccount, social: SocialDep, moderation: ModerationDep
               ) -> dict[str, Any]:
    """Take a seat by name; keep the seat token, it is the only way back into the seat. Signed
    in, the seat is the account's (under its name) and opening the room from any browser
    where the player is signed in puts them back in it. A rematch starts by itself once every
    seat is taken, and its old room's chat says who joined. Refused at a table where a player who
    blocks you sits, in a room a moderator closed, to a banned player or address, and to a bot
    account (it plays where it is challenged)."""
    refuse_bot_account(account, "take a seat it was not challenged to")
    guard.take("joins", address)
    await check_cap(hall, account, guard.limits.games_per_player)
    room = await hall.room(code)
    await moderation.check_join(account, address, room.code)
    await social.check_join(room, account)
    old = origin(room)
    joined = await hall.run(room, do.Join(body.name, body.seat, token, account))
    assert isinstance(joined, do.Joined)
    await rematch_joined(hall, room, old, room.names()[joined.seat])
    return {"seat": joined.seat, "seat_token": joined.token}


@router.post("/api/rooms/{code}/rematch", response_model=RoomCreated, status_code=201, responses=ERRORS,
             tags=["rooms"])
async def rematch(code: str, hall: HallDep, guard: GuardDep, address: ClientAddress, token: SeatToken
                  ) -> dict[str, Any]:
    """Once the game is over, a player offers to play again: a new room with the same game,
    options, bots and turn timer, the seats turned by one, the caller seated (and its host),
    every other player's seat kept for them for a while (they join with their seat token).
    It counts as a new room (and a room with bots, if it has some) against the caller's quotas."""
    old = await hall.room(code)
    old.seat_for_token(token)
    with_bots = any(s.kind == "bot" for s in old.seats.seats)
    guard.new_room(address, with_bots)
    made, room = await offer_rematch(hall, old.code, token)
    if with_bots:
        count_bot_room(guard, address, room)
    return {"code": made.code, "host_token": made.host_token, "seat": made.seat, "seat_token": made.seat_token}


@router.post("/api/rooms/{code}/seats/{seat}/bot", response_model=RoomOut, responses=ERRORS, tags=["rooms"])
async def give_to_bot(code: str, seat: int, body: GiveToBot, hall: HallDep, guard: GuardDep,
                      address: ClientAddress, token: HostToken) -> dict[str, Any]:
    """The host gives an empty seat, or one whose player has been gone two minutes, to a bot
    (mid-game that player forfeits, and nobody gains rating from it). In a waiting room whose
    host has been gone a minute, any seated player may (their seat token)."""
    room = await hall.room(code)
    check_standing_host(room, token)
    guard.check_bot_room(address, room.code)
    await hall.run(room, do.GiveToBot(seat, body.bot, body.name))
    count_bot_room(guard, address, room)
    return room.status_json()


@router.post("/api/rooms/{code}/start", response_model=RoomOut, responses=ERRORS, tags=["rooms"])
async def start(code: str, hall: HallDep, token: HostToken) -> dict[str, Any]:
    """The host starts the game once no seat is open; once the host has been gone a minute
    (``host_away``), any seated player may (their seat token)."""
    room = await hall.room(code)
    check_standing_host(room, token)
    await hall.run(room, do.Start())
    return room.status_json()
