"""The cluster's forwarding endpoint (docs/scaling.md): ``POST /internal/cluster/rooms/{code}/{op}``,
a change of a room this process owns, asked by another process of the hall with the shared secret
(:class:`~parlour.hall.cluster.node.Node` is the asking side). Not in the OpenAPI schema; the app
includes it only when the hall is one of a cluster.

The answer says what the room answered: ``{"refused": {code, message}}``, ``{"moved": true}`` if
the room is not (or no longer) held here, or the change's result.
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..accounts import Account
from ..cluster.node import INTERNAL, SECRET_HEADER
from ..errors import HallError
from ..rooms import Room
from ..table import rematch
from .deps import HallDep


async def act(room: Room, body: dict[str, Any]) -> dict[str, Any]:
    return {"turn": await room.act(body["seat"], body["turn"], body["action"])}


async def join(room: Room, body: dict[str, Any]) -> dict[str, Any]:
    account = Account(**body["account"]) if body.get("account") else None
    seat, token = await room.join(body["name"], body["seat"], body["token"], account)
    return {"seat": seat, "token": token}


async def give_to_bot(room: Room, body: dict[str, Any]) -> dict[str, Any]:
    await room.give_to_bot(body["seat"], body["bot"], body["name"])
    return {}


async def start(room: Room, body: dict[str, Any]) -> dict[str, Any]:
    await room.start()
    return {}


async def offer_rematch(room: Room, body: dict[str, Any]) -> dict[str, Any]:
    new, host_token, seat, seat_token = await rematch(room, body["token"])
    return {"code": new.code, "host_token": host_token, "seat": seat, "seat_token": seat_token}


async def chat(room: Room, body: dict[str, Any]) -> dict[str, Any]:
    line = await room.chat.add(body["kind"], body["seat"], body["name"], body["text"])
    return {"n": line.n}


OPS: dict[str, Callable[[Room, dict[str, Any]], Awaitable[dict[str, Any]]]] = {
    "act": act, "join": join, "give_to_bot": give_to_bot, "start": start, "rematch": offer_rematch, "chat": chat}

router = APIRouter(include_in_schema=False)


@router.post(INTERNAL + "/{code}/{op}")
async def forwarded(code: str, op: str, request: Request, hall: HallDep) -> JSONResponse:
    node = hall.cluster
    given = request.headers.get(SECRET_HEADER, "")
    if node is None or not hmac.compare_digest(given.encode(), node.secret.encode()):
        return JSONResponse({"detail": "not a hall process of this cluster"}, status_code=403)
    if op not in OPS:
        return JSONResponse({"detail": f"no such change: {op[:40]!r}"}, status_code=404)
    room = hall.rooms.get(code)
    if room is None or room.lease is None:
        return JSONResponse({"moved": True})
    try:
        return JSONResponse(await OPS[op](room, await request.json()))
    except HallError as refused:
        return JSONResponse({"refused": {"code": refused.code, "message": str(refused)}})
