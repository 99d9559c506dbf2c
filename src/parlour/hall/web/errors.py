"""How a refusal reads over HTTP: the status of each :class:`~parlour.hall.errors.HallError` code,
the handlers that answer ``{"detail": "<why, in words>"}``, and the error answers the OpenAPI
schema lists for a route.

    app = FastAPI(exception_handlers=HANDLERS)
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response

from .. import observe
from ..errors import HallError, Refusal
from ..quotas import RateLimited
from ..text import clip, reason
from .schemas import ErrorOut

# Why a request was refused (HallError's code), and the HTTP status the REST side answers with.
HTTP_STATUS: dict[Refusal, int] = {
    "bad_request": 422, "unknown_room": 404, "unknown_seat": 404, "bad_token": 403,
    "not_host": 403, "conflict": 409, "not_started": 409, "over": 409, "not_a_player": 403,
    "not_your_turn": 409, "stale": 409, "illegal": 409, "store": 503,
    "bad_credentials": 401, "signed_out": 401, "throttled": 429, "unknown_player": 404, "unknown_game": 404,
    "retry": 503, "forbidden": 403, "banned": 403, "muted": 403, "blocked": 403,
}


def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error answers of a route, for the OpenAPI schema: each ``{"detail": ...}``."""
    return {status: {"model": ErrorOut} for status in statuses}


async def refused(_: Request, error: HallError) -> Response:
    observe.refused(error.code)
    return JSONResponse({"detail": reason(str(error))}, status_code=HTTP_STATUS.get(error.code, 400))


async def too_many(_: Request, error: RateLimited) -> Response:
    observe.refused("rate_limited")
    return JSONResponse({"detail": str(error)}, status_code=429, headers={"Retry-After": str(error.retry_seconds)})


async def unreadable(_: Request, error: RequestValidationError) -> Response:
    observe.refused("bad_request")
    words = "; ".join(f"{'.'.join(clip(p, 40) for p in e['loc'])}: {e['msg']}" for e in error.errors()[:5])
    return JSONResponse({"detail": reason(f"this request does not read right: {words}")}, status_code=422)


HANDLERS: dict[int | type[Exception], Callable[[Request, Any], Coroutine[Any, Any, Response]]] = {
    HallError: refused, RateLimited: too_many, RequestValidationError: unreadable}
