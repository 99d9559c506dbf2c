"""``parlour bench hall``'s seat answers ``retry`` as docs/protocol.md asks a client to: the move
was not made (with several halls the room changed hands while it was on its way), so it is chosen
again from the newest state and sent again, and counted; any other refusal still fails the seat.
A fake server on loopback plays the hall's side of one Patchwork seat."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import orjson
import pytest
from websockets.asyncio.server import serve

from parlour.cli.bench_hall import Window, play_seat
from parlour.games import get


def state_message(game: Any, state: Any, turn: int) -> str:
    return orjson.dumps({"type": "state", "turn": turn, "view": game.view(state, 0),
                         "to_act": sorted(game.to_act(state)), "result": None}).decode()


async def play_against(refusal: str) -> tuple[list[float], list[int], list[dict[str, Any]], BaseException | None]:
    game = get("patchwork")
    state = game.start(2, None, 7)
    assert 0 in game.to_act(state)
    acts: list[dict[str, Any]] = []

    async def hall(ws: Any) -> None:
        await ws.recv()  # hello
        await ws.send(orjson.dumps({"type": "welcome", "seat": 0}).decode())
        await ws.send(state_message(game, state, 0))
        first = orjson.loads(await ws.recv())
        acts.append(first)
        await ws.send(orjson.dumps({"type": "error", "id": first["id"], "code": refusal,
                                    "message": "the room changed hands"}).decode())
        second = orjson.loads(await asyncio.wait_for(ws.recv(), 5))  # chosen again, from the same state
        acts.append(second)
        await ws.send(orjson.dumps({"type": "ack", "id": second["id"], "turn": 1}).decode())
        await ws.send(orjson.dumps({"type": "state", "turn": 1, "view": game.view(state, 0), "to_act": [1],
                                    "result": {"winners": [0]}}).decode())
        await ws.wait_closed()

    latencies: list[float] = []
    retried: list[int] = []
    async with serve(hall, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        window = Window(1)
        window.stop_at = time.perf_counter() + 10
        window.go.set()
        try:
            await asyncio.wait_for(play_seat(f"ws://127.0.0.1:{port}/", "token", "patchwork", "random", False,
                                             window, latencies, [], retried=retried), 10)
            failure = None
        except RuntimeError as error:
            failure = error
    return latencies, retried, acts, failure


def test_a_move_answered_retry_is_chosen_again_from_the_newest_state_and_counted() -> None:
    latencies, retried, acts, failure = asyncio.run(play_against("retry"))
    assert failure is None
    assert retried == [1]
    assert len(latencies) == 1  # the second move's ack; the refused one has no latency
    assert [act["turn"] for act in acts] == [0, 0] and acts[0]["id"] != acts[1]["id"]


@pytest.mark.parametrize("refusal", ["illegal", "stale"])
def test_any_other_refusal_still_fails_the_seat(refusal: str) -> None:
    failure = asyncio.run(play_against(refusal))[3]
    assert isinstance(failure, RuntimeError) and "refused a move" in str(failure)
