"""Challenges (OpenAPI tag ``bots``; docs/bot-api.md): a signed-in person challenges a bot account
that is online to a game with options; the answer, once the bot accepts (within a few seconds), is
the new room with the challenger's seat and seat token. Declined, offline, busy: 409 in words.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from ..mygames import check_cap
from .bots_api import the_challenges
from .deps import ClientAddress, GuardDep, HallDep, SignedIn
from .errors import responses
from .schemas import Name, Wire, Word

ERRORS = responses(401, 403, 404, 409, 422, 429)

router = APIRouter()


class ChallengeIn(Wire):
    opponent: Name = Field(description="the bot account's name (GET /api/bots lists those online)")
    game: Word
    options: dict[str, Any] = Field(default_factory=dict, max_length=32,
                                    description="the game's options (GET /api/games lists them)")
    turn_timer: float | None = Field(None, description="seconds each player has per turn (default 60); a bot"
                                                       " whose time runs out forfeits")


class ChallengeOut(BaseModel):
    code: str
    seat: int
    seat_token: str = Field(description="the challenger's seat token in the room: keep it")
    url: str


@router.post("/api/challenges", response_model=ChallengeOut, status_code=201, responses=ERRORS, tags=["bots"])
async def challenge(body: ChallengeIn, request: Request, account: SignedIn, guard: GuardDep,
                    address: ClientAddress, hall: HallDep) -> dict[str, Any]:
    """Challenge an online bot account to a game with options. Answered once the bot accepts: the
    new room (the game already started, the seats drawn by lot), the challenger's seat and seat token."""
    guard.take("challenges", address)
    await check_cap(hall, account, guard.limits.games_per_player)  # the challenger's unfinished games
    return await the_challenges(request).challenge(account, body.opponent, body.game, body.options,
                                                   body.turn_timer)
