"""The coach at the table over REST (OpenAPI tag ``rooms``): a hint, and taking back a move that
looks wrong, for a person playing against bots in a room made with the coach (docs/analysis.md).
The rules are the room's (:mod:`parlour.hall.room.coach`, :mod:`parlour.hall.room.takeback`);
this module only translates HTTP to them and back."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from ..room import commands as do
from ..room.coach import hint
from ..room.takeback import held
from .deps import CurrentAccount, HallDep, SeatToken
from .errors import responses
from .schemas import RoomOut, Wire
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
    best_words: str | None = Field(None, description="the move in words, as the seat reads it (null: no words)")


@router.post("/api/rooms/{code}/hint", response_model=HintOut, responses=ERRORS, tags=["rooms"])
async def room_hint(code: str, hall: HallDep, token: SeatToken, account: CurrentAccount) -> dict[str, Any]:
    """The coach's hint for the seat holding the token, on its turn: the move the after-game
    analysis would call best (the hard level's search, from the seat's own view only) and its
    chance of winning. Only in a room made with the coach, while every other seat is a bot; the
    same turn asked again gives the same hint; at most 6 hints are made a minute per seat."""
    room = await hall.room(code)
    return await hint(room, seat_of(room, token, account))


class TakeBackIn(Wire):
    keep: bool = Field(False, description="true: the move stands and the bots answer now")


@router.get("/api/rooms/{code}/coach", responses=ERRORS, tags=["rooms"])
async def room_coach(code: str, hall: HallDep, token: SeatToken, account: CurrentAccount) -> dict[str, Any]:
    """What the coach says to the seat holding the token of its move the bots wait on:
    ``{"hold": null}``, or ``{"hold": {"seat", "turn", "until", "judged": {turn, seat,
    action, best, win_chance_before, win_chance_after, loss, label, choices, line}}}`` (``judged``
    null while the move is being judged; a mistake or a blunder is held 60 seconds)."""
    room = await hall.room(code)
    return {"hold": held(room, seat_of(room, token, account))}


@router.post("/api/rooms/{code}/takeback", response_model=RoomOut, responses=ERRORS, tags=["rooms"])
async def room_take_back(code: str, body: TakeBackIn, hall: HallDep, token: SeatToken, account: CurrentAccount
                         ) -> dict[str, Any]:
    """The seat holding the token takes back its last move while the bots wait on it (the coach
    holds a move that looks like a mistake or a blunder), as if it had never been made; or, with
    ``keep``, lets it stand. At most 6 take-backs a minute and 100 a game per seat."""
    room = await hall.room(code)
    await hall.run(room, do.TakeBack(seat_of(room, token, account), body.keep))
    return room.status_json()
