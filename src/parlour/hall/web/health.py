"""The process's health, for a proxy, an orchestrator or ``parlour cluster``:

- ``GET /healthz``: 200 while the process answers at all (liveness);
- ``GET /readyz``: 200 when it should be sent players: the store answers, every stored room is
  back, it is not draining; in a cluster Redis answers, or the answer says the hall runs degraded
  (still 200: moves are safe, other halls' players see them late). 503 otherwise, with the reason.

Both answer JSON, e.g. ``{"ready": true, "store": "answers", "rooms": "restored", "redis": "answers"}``,
to anyone: they tell nothing about the games.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from .deps import HallDep

STORE_WITHIN = 2.0  # seconds the store has to answer /readyz's query

router = APIRouter(include_in_schema=False)


@router.get("/healthz")
async def healthz() -> JSONResponse:
    return JSONResponse({"status": "ok"})


@router.get("/readyz")
async def readyz(hall: HallDep) -> JSONResponse:
    answer: dict[str, Any] = {"ready": True}
    if hall.draining:
        answer.update(ready=False, draining=True)
    answer["rooms"] = "restored" if hall.started else "being restored"
    answer["ready"] &= hall.started
    try:
        await asyncio.wait_for(hall.store.ping(), STORE_WITHIN)
        answer["store"] = "answers"
    except Exception as error:
        answer.update(ready=False, store=f"does not answer ({type(error).__name__})")
    if hall.clustered:
        trouble = await hall.ownership.trouble()
        answer["redis"] = "answers" if trouble is None else trouble
        answer["degraded"] = trouble is not None
    return JSONResponse(answer, status_code=200 if answer["ready"] else 503)
