"""Leaving the table (OpenAPI tag ``rooms``): a player resigns, the players vote to end a game or
to hand an absent player's seat to a bot, and a guest's device lists its games ("My games" from
the seat tokens the browser keeps). The rules are the room's (:mod:`parlour.hall.room.leaving`,
:mod:`parlour.hall.room.votes`); this module only translates HTTP to them and back.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import Field

from ..errors import HallError
from ..room import Room
from ..room import commands as do
from .deps import CurrentAccount, HallDep, SeatToken
from .errors import responses
from .schemas import RoomOut, Wire

MINE_MAX = 30  # rooms one "My games" request may ask about
ERRORS = responses(403, 404, 409, 413, 422, 429)

router = APIRouter()


class VoteIn(Wire):
    motion: Literal["end", "bot"] = Field(description="end: end the game now, the players gone a while placing"
                                          " last (with nobody gone, a draw); bot: a bot plays an absent player's seat")
    seat: int | None = Field(None, description="bot: the absent player's seat")
    agree: bool = Field(True, description="false: say no (the vote ends)")


class HeldSeat(Wire):
    code: str = Field(max_length=16)
    token: str = Field(max_length=128, description="the seat token the browser kept for this room")


class MineIn(Wire):
    rooms: list[HeldSeat] = Field(max_length=MINE_MAX, description=f"at most {MINE_MAX}")


def seat_of(room: Room, token: str | None, account: Any) -> int:
    """The seat the caller holds: by its seat token, or (signed in) by the account."""
    if not token:
        seat = room.seat_of(account)
        if seat is not None:
            return seat
    return room.seat_for_token(token)


@router.post("/api/rooms/{code}/resign", response_model=RoomOut, responses=ERRORS, tags=["rooms"])
async def resign(code: str, hall: HallDep, token: SeatToken, account: CurrentAccount) -> dict[str, Any]:
    """The player holding the seat token leaves the game. Mid-game it is a forfeit: they place
    last (rated as a forfeit), a bot plays their seat on, and a game left to bots alone ends at
    once. Before the game starts the seat just opens again."""
    room = await hall.room(code)
    await hall.run(room, do.Resign(seat_of(room, token, account)))
    return room.status_json()


@router.post("/api/rooms/{code}/vote", response_model=RoomOut, responses=ERRORS, tags=["rooms"])
async def vote(code: str, body: VoteIn, hall: HallDep, token: SeatToken, account: CurrentAccount
               ) -> dict[str, Any]:
    """A player still in the game proposes or answers a vote: every other player still here must
    agree (those gone two minutes are not waited for); one "no" ends it; it lapses after two
    minutes. A seat can be voted to a bot once its player has been gone two minutes: they lose as
    a forfeit, and nobody gains rating from it."""
    room = await hall.room(code)
    await hall.run(room, do.Vote(seat_of(room, token, account), body.motion, body.seat, body.agree))
    return room.status_json()


@router.post("/api/rooms/mine", responses=ERRORS, tags=["rooms"])
async def my_games(body: MineIn, hall: HallDep) -> list[dict[str, Any]]:
    """"My games" of a device: for each room whose seat token the browser kept, the room's status
    and the seat the token still holds (null: it no longer does, e.g. it went to a bot). Rooms
    that do not exist are left out. Nothing is shown that the room's page would not show."""
    found: list[dict[str, Any]] = []
    for held in body.rooms:
        try:
            room = await hall.room(held.code)
        except HallError:
            continue
        try:
            seat: int | None = room.seat_for_token(held.token)
        except HallError:
            seat = None
        found.append({**room.status_json(), "seat": seat,
                      "my_turn": seat is not None and room.status == "playing" and seat in room.to_act()})
    return found
