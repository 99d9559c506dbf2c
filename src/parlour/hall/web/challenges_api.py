"""Challenges (OpenAPI tag ``bots``; docs/bot-api.md): a signed-in person challenges a bot account
that is online, or a person in the lobby, to a game with options; the answer, once the opponent
accepts (a bot within a few seconds, a person within a minute), is the new room with the
challenger's seat and seat token. Declined, offline, busy: 409 in words. A person sees the
challenges waiting for them (``GET /api/challenges/incoming``, which the lobby asks every few
seconds) and accepts or declines each.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Path, Request, Response
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


class IncomingOut(BaseModel):
    id: str
    from_: str = Field(alias="from", description="the challenger's name")
    game: str
    options: dict[str, Any]
    turn_timer: float
    until: float = Field(description="when it stops waiting for your answer (epoch seconds)")


class AnswerIn(Wire):
    reason: str | None = Field(None, max_length=100, description="why not, for the challenger (declining)")


@router.get("/api/challenges/incoming", response_model=list[IncomingOut], response_model_by_alias=True,
            responses=ERRORS, tags=["bots"])
async def incoming(request: Request, account: SignedIn) -> list[dict[str, Any]]:
    """The challenges waiting for the signed-in person's answer. Asking makes them challengeable
    for 15 seconds (the lobby asks every few seconds while it is open)."""
    return the_challenges(request).incoming_for(account)


@router.post("/api/challenges/{challenge}/accept", response_model=ChallengeOut, responses=ERRORS, tags=["bots"])
async def accept(request: Request, account: SignedIn, guard: GuardDep, hall: HallDep,
                 challenge: str = Path(max_length=32)) -> dict[str, Any]:
    """Accept a challenge: the new room (the game started, the seats drawn by lot), your seat and
    seat token; the challenger is answered with theirs."""
    await check_cap(hall, account, guard.limits.games_per_player)
    seated = await the_challenges(request).answer_person(account, challenge, True)
    assert seated is not None
    return seated


@router.post("/api/challenges/{challenge}/decline", status_code=204, responses=ERRORS, tags=["bots"])
async def decline(body: AnswerIn, request: Request, account: SignedIn, challenge: str = Path(max_length=32)
                  ) -> Response:
    """Decline a challenge; the challenger is told, with your reason if you give one."""
    await the_challenges(request).answer_person(account, challenge, False, body.reason)
    return Response(status_code=204)
