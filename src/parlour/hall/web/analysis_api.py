"""A finished game's analysis over REST (OpenAPI tag ``replays``): every move judged by the search
(docs/analysis.md), made on first request in the hall's analysis worker and stored."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ...core.replays import record
from ..analyses import Analyses
from ..errors import HallError
from .deps import ClientAddress, CurrentAccount, HallDep
from .errors import responses

ERRORS = responses(404, 409, 429)

router = APIRouter()


@router.get("/api/rooms/{code}/analysis", responses=ERRORS, tags=["replays"])
async def room_analysis(code: str, hall: HallDep, request: Request, account: CurrentAccount,
                        address: ClientAddress) -> dict[str, Any]:
    """The finished game's analysis: ``{"status": "made", "moves": [...], "summary": [...]}`` once
    made; ``{"status": "pending", "done": N, "total": M, "ahead": K, "waiting": bool, "waited": s,
    "patience": s}`` while it is being made (the first request queues it; ``waiting``: for a busy
    hall, hall/pacing.py); ``{"status": "failed", "reason": ...}``. 409 while the game runs."""
    room = await hall.room(code)
    if room.status != "over":
        raise HallError("conflict", "the game is still being played: it is analysed once it is over")
    analyses: Analyses = request.app.state.analyses

    def replay() -> dict[str, Any]:  # made only to queue the analysis
        return record(room.game, room.players, room.options, room.seed, room.names(),
                      ((r.seat, r.action) for r in room.records), room.game.result(room.state))

    answer = await analyses.request(room.code, replay, account.name if account is not None else address)
    answer["names"] = room.names()
    answer["game"] = room.game.id
    return answer
