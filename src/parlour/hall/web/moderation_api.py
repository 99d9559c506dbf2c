"""Reports and moderation on the web (OpenAPI tag ``moderation``): any signed-in player reports;
the hall's moderators (``parlour admin grant NAME moderator``) read the queue, act, and read the
log at ``/moderation`` and under ``/api/moderation/`` (403 for anyone else).

    POST /api/reports                 {"player": "Cy", "room": "KXMTRA", "line": 12, "reason": "insults"}
    GET  /api/moderation/reports      the open reports, each with a copy of the chat around it
    POST /api/moderation/actions      {"player": "Cy", "action": "ban", "days": 7, "reason": "insults"}
    GET  /api/moderation/log          every action, with who took it
"""

from __future__ import annotations

import html
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse, HTMLResponse, Response
from pydantic import Field, StrictFloat, StrictInt, StringConstraints

from ..errors import HallError
from .deps import CurrentAccount, ModerationDep, SignedIn
from .errors import HTTP_STATUS, responses
from .pages import STATIC
from .schemas import Wire

ERRORS = responses(401, 403, 404, 409, 422, 429)
router = APIRouter(tags=["moderation"])
Short = Annotated[str, StringConstraints(max_length=64)]
Reason = Annotated[str, StringConstraints(max_length=500)]


class ReportIn(Wire):
    player: Short = Field(description="the name of the player reported (a guest's: give the room)")
    room: Annotated[str, StringConstraints(max_length=16)] | None = None
    line: StrictInt | None = Field(None, description="the number of the chat line reported, in the room")
    reason: Reason


class ActionIn(Wire):
    action: Literal["warn", "mute", "ban", "unban", "unmute", "hide_line", "close_room"]
    player: Short | None = None
    address: Short | None = Field(None, description="a guest's address, to ban or unban instead of a player")
    days: StrictInt | StrictFloat | None = Field(None, description="how long a mute or ban lasts; none: for good")
    reason: Reason
    room: Annotated[str, StringConstraints(max_length=16)] | None = None
    line: StrictInt | None = None
    report: StrictInt | None = Field(None, description="the report this answers (it leaves the queue)")


@router.post("/api/reports", status_code=201, responses=ERRORS)
async def report(body: ReportIn, me: SignedIn, moderation: ModerationDep) -> dict[str, Any]:
    """Report a player, from a seat's name, a chat line or a profile: a copy of the chat lines
    around it is kept with the report. A few a day per player."""
    number = await moderation.report(me, body.model_dump())
    return {"id": number, "done": "thank you: a moderator will read your report"}


@router.get("/api/moderation/reports", responses=ERRORS)
async def queue(me: CurrentAccount, moderation: ModerationDep,
                limit: int = Query(100, ge=1, le=500)) -> list[dict[str, Any]]:
    """The reports no moderator has acted on, oldest first (moderators only)."""
    await moderation.check_moderator(me)
    return await moderation.queue(limit)


@router.get("/api/moderation/flagged", responses=ERRORS)
async def flagged(me: CurrentAccount, moderation: ModerationDep,
                  limit: int = Query(100, ge=1, le=500)) -> list[dict[str, Any]]:
    """The pairs of players who met at one game more often than is rated (3 rated games a day:
    their later games together were not rated), latest first, with how many were not rated and
    the latest room (moderators only)."""
    await moderation.check_moderator(me)
    return await moderation.flagged(limit)


@router.post("/api/moderation/actions", responses=ERRORS)
async def act(body: ActionIn, me: CurrentAccount, moderation: ModerationDep) -> dict[str, Any]:
    """Warn, mute, ban or unban a player (or ban an address, for guests), hide one chat line, or
    close a room (moderators only); logged with who took it."""
    moderator = await moderation.check_moderator(me)
    return await moderation.act(moderator, body.model_dump(exclude_none=True))


@router.get("/api/moderation/log", responses=ERRORS)
async def log(me: CurrentAccount, moderation: ModerationDep,
              limit: int = Query(200, ge=1, le=1000)) -> list[dict[str, Any]]:
    """Every moderator's action, newest first, with who took it (moderators only)."""
    await moderation.check_moderator(me)
    return await moderation.log(limit)


@router.get("/moderation", include_in_schema=False)
async def page(me: CurrentAccount, moderation: ModerationDep) -> Response:
    """The moderators' page; anyone else gets a page saying why (401 signed out, 403 otherwise)."""
    try:
        await moderation.check_moderator(me)
    except HallError as refused:
        words = html.escape(str(refused))
        return HTMLResponse(f'<!doctype html><meta charset="utf-8"><title>Parlour — moderation</title>'
                            f'<link rel="stylesheet" href="/static/style.css"><main class="players-page">'
                            f'<h1>Moderation</h1><p>{words}.</p><p><a href="/">Back to the lobby</a></p></main>',
                            status_code=HTTP_STATUS[refused.code])
    return FileResponse(STATIC / "moderation.html", media_type="text/html")
