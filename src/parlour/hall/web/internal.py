"""The cluster's forwarding endpoint (docs/scaling.md): ``POST /internal/cluster/rooms/{code}/{command}``,
a command for a room this process applies, asked by another process of the hall (with the shared
secret), as :mod:`~parlour.hall.room.commands` writes it; :class:`~parlour.hall.cluster.node.Node`
is the asking side. Not in the OpenAPI schema; the app includes it only when the hall is one of a
cluster.

The answer says what the room answered: ``{"refused": {code, message}}``, ``{"moved": true}`` if
the room is not (or no longer) applied here, or the command's answer.

Guesses of the secret are throttled per address: past ``GUESSES_FREE`` wrong ones in a row, that
address waits 1 s, then 2, 4... up to ``GUESS_WAIT_MAX`` (429), the secret not even compared.
"""

from __future__ import annotations

import hmac
import time

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..cluster.node import INTERNAL, SECRET_HEADER, WATCHED_HEADER, Node
from ..errors import HallError
from ..quotas import RateLimited
from ..rematch import rematch_here
from ..room.commands import Answer, OfferRematch, answer_to_json, command_from_json
from ..throttles import Backoff
from .deps import ClientAddress, HallDep

router = APIRouter(include_in_schema=False)
GUESSES_FREE = 10
GUESS_WAIT_MAX = 60.0
guesses = Backoff(GUESSES_FREE, 1.0, GUESS_WAIT_MAX)  # wrong secrets by address (one cluster per process)


@router.post(INTERNAL + "/{code}/{name}")
async def forwarded(code: str, name: str, request: Request, hall: HallDep, address: ClientAddress) -> JSONResponse:
    node = hall.ownership
    given = request.headers.get(SECRET_HEADER, "")
    now = time.monotonic()
    try:
        guesses.check(address, now, "requests with a wrong secret")
    except RateLimited as refused:
        return JSONResponse({"detail": str(refused)}, status_code=429,
                            headers={"Retry-After": str(refused.retry_seconds)})
    if not isinstance(node, Node) or not hmac.compare_digest(given.encode(), node.secret.encode()):
        guesses.failed(address, now)
        return JSONResponse({"detail": "not a hall process of this cluster"}, status_code=403)
    guesses.succeeded(address)
    room = hall.rooms.get(code)
    try:
        command = command_from_json(name, await request.json())
        if room is None or not room.leading:
            return JSONResponse({"moved": True})
        if isinstance(command, OfferRematch):
            answer: Answer = await rematch_here(hall, room, command.token)
        else:
            answer = await hall.apply(room, command)
        node.handover.forwarded_here(room, request.headers.get(WATCHED_HEADER, ""))
        return JSONResponse(answer_to_json(answer))
    except HallError as refused:
        return JSONResponse({"refused": {"code": refused.code, "message": str(refused)}})
