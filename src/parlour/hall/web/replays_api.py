"""Replays over REST (OpenAPI tag ``replays``): a finished room's, and the frames of a replay file
from the arena, for the replay page; a page of frames at a time.

Frames are the costly part (a view and its JSON each): a page holds ``PAGE_MAX`` at most, they are
made on a worker thread (``REPLAY_WORKERS`` at once in the whole hall, so replays wait their turn
rather than take the server), each page is counted against the address's ``replay_frames``
quota by what it costs (:func:`parlour.core.replays.page_cost`), and an uploaded replay longer than
its game's cap on actions is refused. A finished room's replay is served whatever its length (one
stored before its game had a cap too), a page at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import anyio
from fastapi import APIRouter, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import ValidationError

from ...core import IllegalAction, ParlourError
from ...core.replays import PAGE, PAGE_MAX, BadReplay, page_cost, paged
from ..errors import HallError
from ..quotas import Guard
from ..room.replay import yield_thread
from ..wire import BadJson, dumps_bytes, read_json
from .deps import ClientAddress, GuardDep, HallDep
from .errors import responses
from .middleware import REPLAY_PATH
from .schemas import ReplayIn, ReplayOut

ERRORS = responses(403, 404, 409, 413, 422, 429)
REPLAY_WORKERS = 1  # replays made at once in the whole hall (a thread shares the GIL with the event loop)
_workers: anyio.CapacityLimiter | None = None
T = TypeVar("T")

router = APIRouter()

SEAT = Query(None, description="the frames as this seat saw the game, its hand and all (default: a spectator's)")
START = Query(0, ge=0, description="the first frame of the page (0: the start; k: after action k)")
COUNT = Query(PAGE, ge=1, le=PAGE_MAX, description=f"how many frames (at most {PAGE_MAX})")


async def made(guard: Guard, address: str, start: int, count: int, total: int,
               make: Callable[[], dict[str, Any]]) -> Response:
    """``make()`` counted against the address's quota (frames ``start`` to ``start + count - 1`` of
    ``total``) and run on a replay worker, as JSON."""
    guard.take("replay_frames", address, page_cost(start, max(1, min(count, total - start))))

    def work() -> bytes:
        try:
            return dumps_bytes(make())
        except HallError:
            raise
        except (IllegalAction, BadReplay) as error:
            raise HallError("bad_request", f"this replay does not replay: {error}") from None
        except ParlourError as error:
            raise HallError("bad_request", str(error)) from None

    return Response(await run_apart(work), media_type="application/json")


async def run_apart(work: Callable[[], T]) -> T:
    """``work()`` on a replay worker, ``REPLAY_WORKERS`` at once in the whole hall."""
    global _workers
    if _workers is None:
        _workers = anyio.CapacityLimiter(REPLAY_WORKERS)
    return await anyio.to_thread.run_sync(work, limiter=_workers)


@router.get("/api/rooms/{code}/replay", response_model=ReplayOut, responses=ERRORS, tags=["replays"])
async def room_replay(code: str, hall: HallDep, guard: GuardDep, address: ClientAddress, seat: int | None = SEAT,
                      start: int = START, count: int = COUNT) -> Response:
    """The finished game's replay, seed included, with a page of its frames as a spectator or a
    seat saw it (``frames_start``, ``frames_total``: page on with ``start``)."""
    room = await hall.room(code)
    return await made(guard, address, start, count, room.turn + 1, lambda: room.replay_json(seat, start, count))


BODY = {"requestBody": {"required": True, "description": "a replay file (parlour-replay/1)",
                        "content": {"application/json": {"schema": ReplayIn.model_json_schema()}}}}


@router.post(REPLAY_PATH, response_model=ReplayOut, responses=ERRORS, tags=["replays"], openapi_extra=BODY)
async def replay_frames(request: Request, hall: HallDep, guard: GuardDep, address: ClientAddress,
                        seat: int | None = SEAT, start: int = START, count: int = COUNT) -> Response:
    """A page of the frames of a replay file (from the arena), for the replay page. The file is
    read, checked (depth, text, fields) and replayed on a replay worker, off the event loop."""
    data = await request.body()

    def read() -> ReplayIn:
        try:
            return ReplayIn.model_validate(read_json(data))
        except BadJson as problem:
            raise HallError("bad_request", f"this request does not read right: {problem}") from None
        except ValidationError as problem:
            raise RequestValidationError(problem.errors()) from None

    body = await run_apart(read)
    game = hall.game(body.game)
    if len(body.actions) > game.max_actions:
        raise HallError("bad_request", f"this replay has {len(body.actions)} actions, and a game of {game.name} has"
                                       f" at most {game.max_actions}: it is not shown")
    replay = body.model_dump()
    replay["names"] = (replay["names"] + [f"seat {i + 1}" for i in range(body.players)])[:body.players]
    if seat is not None and not 0 <= seat < body.players:
        raise HallError("unknown_seat", f"this replay has seats 0 to {body.players - 1}, not {seat}")

    def make() -> dict[str, Any]:
        game.check_players(body.players)
        replay["options"] = game.resolve_options(game.stored_options(body.options))
        return paged(game, replay, seat, start, count, pause=yield_thread)

    return await made(guard, address, start, count, len(body.actions) + 1, make)
