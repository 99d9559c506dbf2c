"""Replays over REST (OpenAPI tag ``replays``): a finished room's, and the frames of a replay file
from the arena, for the replay page."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from ...core import IllegalAction, ParlourError
from ...core.replays import BadReplay, frames
from ..errors import HallError
from .deps import HallDep
from .errors import responses
from .schemas import ReplayIn, ReplayOut

ERRORS = responses(403, 404, 409, 413, 422, 429)

router = APIRouter()


@router.get("/api/rooms/{code}/replay", response_model=ReplayOut, responses=ERRORS, tags=["replays"])
async def room_replay(code: str, hall: HallDep,
                      seat: int | None = Query(None, description="the frames as this seat saw the game, its hand"
                                               " and all (default: a spectator's)")) -> dict[str, Any]:
    """The finished game's replay, seed included, with its frames as a spectator or a seat saw it."""
    return (await hall.room(code)).replay_json(seat)


@router.post("/api/replays/frames", response_model=ReplayOut, responses=ERRORS, tags=["replays"])
def replay_frames(body: ReplayIn, hall: HallDep,
                  seat: int | None = Query(None, description="the frames as this seat saw the game (default: a"
                                           " spectator's)")) -> dict[str, Any]:
    """The frames of a replay file (from the arena), for the replay page."""
    game = hall.game(body.game)
    replay = body.model_dump()
    replay["names"] = (replay["names"] + [f"seat {i + 1}" for i in range(body.players)])[:body.players]
    if seat is not None and not 0 <= seat < body.players:
        raise HallError("unknown_seat", f"this replay has seats 0 to {body.players - 1}, not {seat}")
    try:
        game.check_players(body.players)
        replay["options"] = game.resolve_options(game.stored_options(body.options))
        replay["seen_by"] = seat
        replay["frames"] = frames(game, replay, seat)
    except (IllegalAction, BadReplay) as error:
        raise HallError("bad_request", f"this replay does not replay: {error}") from None
    except ParlourError as error:
        raise HallError("bad_request", str(error)) from None
    return replay
