"""The coach at the table over REST (OpenAPI tag ``rooms``): a hint for a person playing against
bots in a room made with the coach (docs/analysis.md). The rules are the room's
(:mod:`parlour.hall.room.coach`); this module only translates HTTP to them and back."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from ..room.coach import hint
from .deps import CurrentAccount, HallDep, SeatToken
from .errors import responses
from .table_api import seat_of

ERRORS = responses(403, 404, 409, 429, 503)

router = APIRouter()


class HintOut(BaseModel):
    seat: int
    turn: int = Field(description="the turns the seat had seen: the hint is for the state after them")
    best: Any = Field(description="the move the coach would play (the game's JSON action)")
    win_chance: float = Field(description="its chance of winning, 0 to 1, as the search judges it")
    next_chance: float | None = Field(description="the chance of the next best move it weighed (null: none)")
    choices: int = Field(description="how many moves the seat has")
    line: str = Field(description="why, in one line")


@router.post("/api/rooms/{code}/hint", response_model=HintOut, responses=ERRORS, tags=["rooms"])
async def room_hint(code: str, hall: HallDep, token: SeatToken, account: CurrentAccount) -> dict[str, Any]:
    """The coach's hint for the seat holding the token, on its turn: the move the after-game
    analysis would call best (the hard level's search, from the seat's own view only) and its
    chance of winning. Only in a room made with the coach, while every other seat is a bot; the
    same turn asked again gives the same hint; at most 6 hints are made a minute per seat."""
    room = await hall.room(code)
    return await hint(room, seat_of(room, token, account))
