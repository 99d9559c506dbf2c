"""A turn-based room's late seats on the web (OpenAPI tag ``rooms``): the other players choose to
hand one to a bot or end the game with its player last (:mod:`parlour.hall.late` decides)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import Field

from .. import late
from ..errors import HallError
from .deps import CurrentAccount, HallDep, SeatToken
from .errors import responses
from .schemas import RoomOut, Wire

router = APIRouter()


class LateChoice(Wire):
    choice: Literal["bot", "forfeit"] = Field(description="bot: a bot plays the seat on (the player's forfeit);"
                                              " forfeit: the game ends with the player last"
                                              " (the players' vote to end it: with more players the"
                                              " others agree with POST /api/rooms/{code}/vote)")


@router.post("/api/rooms/{code}/late/{seat}", response_model=RoomOut, responses=responses(403, 404, 409, 422),
             tags=["rooms"])
async def decide_late(code: str, seat: int, body: LateChoice, hall: HallDep, token: SeatToken,
                      account: CurrentAccount) -> dict[str, Any]:
    """In a turn-based room, once ``seat``'s time ran out, another player (their seat token, or
    signed in) decides: hand the seat to a bot, or end the game with its player last."""
    room = await hall.room(code)
    caller = room.seat_for_token(token) if token else room.seat_of(account)
    if caller is None:
        raise HallError("not_a_player", "only the room's players decide (send your seat token, or sign in)")
    await late.decide(hall, room, caller, seat, body.choice)
    return room.status_json()
