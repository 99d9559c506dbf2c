"""The findings of issue 13, each reproduced and refused: sizes, nesting, text, quotas, rates.

Each test sends what the attacker sent and checks the answer (status and words), that nothing
was stored, and that what the server holds for the client stays bounded.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hallkit import OPEN, Socket, bot, host, join, new_room, started_room
from starlette.websockets import WebSocketDisconnect

from parlour.cli.bench_abuse import played_replay
from parlour.hall.quotas import Guard, Limits, RateLimited
from parlour.hall.text import NAME_MAX, REASON_MAX
from parlour.hall.web.middleware import MAX_BODY, MAX_REPLAY_BODY, OUTBOX_MAX
from parlour.hall.web.socket import CLOSE_BEHIND, CLOSE_FLOOD, CLOSE_TOO_MANY_SOCKETS, Connection
from parlour.hall.wire import MAX_DEPTH


@pytest.fixture
def hall_with(make_client: Callable[..., TestClient]) -> Callable[..., TestClient]:
    """A hall with the public defaults changed by ``NAME=VALUE`` settings."""
    return lambda *settings: make_client(Limits().with_settings(list(settings)))


def stored_rooms(client: TestClient) -> int:
    return len(client.app.state.hall.store.load(finished=True))  # type: ignore[attr-defined]


# -- 1. a replay's names copied into every frame ------------------------------------------------
def test_a_replay_with_a_huge_name_is_refused_in_words(client):
    replay = played_replay()
    huge = dict(replay, names=["A" * 1_000_000, "Bo"])
    answer = client.post("/api/replays/frames", json=huge)
    assert answer.status_code == 422
    assert f"at most {NAME_MAX} characters" in answer.json()["detail"]
    assert len(answer.content) < 2 * REASON_MAX  # the name is not echoed back
    fine = client.post("/api/replays/frames", json=dict(replay, names=["A" * NAME_MAX, "Bo"]))
    assert fine.status_code == 200
    assert len(fine.json()["frames"]) == len(replay["actions"]) + 1


def test_a_replay_upload_may_be_larger_than_other_bodies_but_is_capped(client):
    replay = played_replay()
    padded = dict(replay, notes="x" * (MAX_BODY * 2))  # a replay file may carry more than the hall reads
    assert client.post("/api/replays/frames", json=padded).status_code == 200
    answer = client.post("/api/replays/frames", json=dict(replay, notes="x" * MAX_REPLAY_BODY))
    assert answer.status_code == 413
    assert "too large" in answer.json()["detail"] and "4096 KiB" in answer.json()["detail"]


def run_apart(coroutine: Any) -> Any:
    """Run ``coroutine`` on an event loop of its own thread (the browser tests leave one running
    in this thread)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


# -- 2. a WebSocket client that never reads -------------------------------------------------------
class NeverReads:
    """A socket whose peer never reads: every send waits for ever."""

    client = None

    async def send_text(self, text: str) -> None:
        await asyncio.Event().wait()


def test_the_outgoing_queue_of_a_client_that_never_reads_is_bounded():
    async def scenario() -> tuple[int, bool]:
        connection = Connection(NeverReads(), Guard(Limits()), "203.0.113.7")  # type: ignore[arg-type]
        sender = asyncio.create_task(connection.send_loop())
        for _ in range(25_000):
            await connection.handle(json.dumps({"type": "x" * 60_000}).encode())
        sender.cancel()
        return connection.outbox.qsize(), connection.behind

    waiting, behind = run_apart(scenario())
    assert waiting <= OUTBOX_MAX  # 25,000 answers were asked for; at most OUTBOX_MAX are held
    assert behind  # and the connection is to be closed with CLOSE_BEHIND


def test_an_error_does_not_echo_an_unknown_type_in_full(client):
    code = new_room(client)["code"]
    with Socket(client, code) as socket:
        socket.send({"type": "x" * 60_000})
        error = socket.expect("error")
    assert error["code"] == "bad_message" and "unknown message type" in error["message"]
    assert len(error["message"]) <= REASON_MAX


class PingsAndNeverReads(NeverReads):
    """A peer that sends pings for ever and reads nothing."""

    async def receive(self) -> dict[str, Any]:
        await asyncio.sleep(0)
        return {"type": "websocket.receive", "text": '{"type": "ping"}'}


def test_a_client_that_falls_behind_is_told_to_go_with_its_close_code():
    unlimited = Limits.lifted().with_settings(["connection_messages=1000000/second"])

    async def scenario() -> tuple[tuple[int, str] | None, int]:
        connection = Connection(PingsAndNeverReads(), Guard(unlimited), "203.0.113.7")  # type: ignore[arg-type]
        sender = asyncio.create_task(connection.send_loop())
        ended = await asyncio.wait_for(connection.receive_loop(), 20)
        sender.cancel()
        return ended, connection.outbox.qsize()

    ended, waiting = run_apart(scenario())
    assert ended is not None and ended[0] == CLOSE_BEHIND and "reconnect" in ended[1]
    assert waiting <= OUTBOX_MAX


# -- 4. quotas and rates ------------------------------------------------------------------------
def test_rooms_past_the_quota_are_refused_with_429_and_retry_after(hall_with):
    client = hall_with("rooms=3/minute")
    for _ in range(3):
        new_room(client)
    before = stored_rooms(client)
    answer = client.post("/api/rooms", json={"game": "patchwork", "seats": [OPEN, OPEN]})
    assert answer.status_code == 429
    assert "too many new rooms" in answer.json()["detail"] and "3 per minute" in answer.json()["detail"]
    assert 1 <= int(answer.headers["retry-after"]) <= 60
    assert stored_rooms(client) == before == 3


def test_a_new_room_refused_for_its_bots_is_not_counted_as_a_new_room():
    guard = Guard(Limits(rooms="2/minute", bot_rooms=1))
    guard.new_room("203.0.113.7", with_bots=True)
    guard.add_bot_room("203.0.113.7", "ABCD", lambda: True)
    with pytest.raises(RateLimited, match="unfinished rooms with bots"):
        guard.new_room("203.0.113.7", with_bots=True)
    guard.new_room("203.0.113.7", with_bots=False)  # the second new room: the refused one did not count
    with pytest.raises(RateLimited, match="too many new rooms"):
        guard.new_room("203.0.113.7", with_bots=False)


def test_joins_past_the_quota_are_refused(hall_with):
    client = hall_with("joins=2/minute")
    code = new_room(client)["code"]
    join(client, code, "Ana")
    join(client, code, "Bo")
    answer = client.post(f"/api/rooms/{new_room(client)['code']}/join", json={"name": "Cy"})
    assert answer.status_code == 429 and "too many seats taken" in answer.json()["detail"]
    assert answer.headers["retry-after"]


def test_rest_calls_past_the_rate_are_refused(hall_with):
    client = hall_with("rest=5/minute")
    answers = [client.get("/api/games").status_code for _ in range(7)]
    assert answers == [200] * 5 + [429] * 2
    refused = client.get("/api/rooms")
    assert "too many requests" in refused.json()["detail"] and int(refused.headers["retry-after"]) >= 1


def test_bot_rooms_are_capped_per_client(hall_with):
    client = hall_with("bot_rooms=2")
    first = new_room(client, seats=[bot(), bot()])
    new_room(client, seats=[OPEN, bot()])
    answer = client.post("/api/rooms", json={"game": "patchwork", "seats": [bot(), bot()]})
    assert answer.status_code == 429 and "unfinished rooms with bots" in answer.json()["detail"]
    assert stored_rooms(client) == 2
    # a room without bots is not one of them; giving it a bot would make it one
    plain = new_room(client)
    refused = client.post(f"/api/rooms/{plain['code']}/seats/1/bot", json={"bot": "greedy"},
                          headers=host(plain["host_token"]))
    assert refused.status_code == 429
    # once a bot room is over, its place is free again
    client.post(f"/api/rooms/{first['code']}/start", headers=host(first["host_token"]))
    room = client.app.state.hall.rooms[first["code"]]  # type: ignore[attr-defined]
    room.status = "over"
    assert client.post("/api/rooms", json={"game": "patchwork", "seats": [bot(), bot()]}).status_code == 201


def test_the_open_rooms_come_a_bounded_page_at_a_time(hall_with):
    client = hall_with("rooms=1000/minute", "rest=1000/second")
    codes = [new_room(client)["code"] for _ in range(60)]
    first = client.get("/api/rooms").json()
    assert len(first) == 50  # the default page
    rest = client.get("/api/rooms", params={"offset": 50}).json()
    assert {r["code"] for r in first + rest} == set(codes)
    small = client.get("/api/rooms", params={"limit": 5}).json()
    assert [r["code"] for r in small] == [r["code"] for r in first[:5]]
    assert client.get("/api/rooms", params={"limit": 10_000}).status_code == 422


def test_a_socket_flooding_messages_is_refused_then_closed(hall_with):
    client = hall_with("connection_messages=10/minute", "flood=20")
    code = new_room(client)["code"]
    with Socket(client, code) as socket:
        for _ in range(100):
            socket.send({"type": "ping"})
        kinds: list[str] = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                message = socket.receive()
                kinds.append(message["type"] if message["type"] != "error" else message["code"])
    assert closed.value.code == CLOSE_FLOOD
    assert kinds[:10] == ["pong"] * 10
    assert set(kinds[10:]) == {"rate_limited"} and len(kinds) <= 10 + 21


def test_the_rate_limit_says_when_to_try_again(hall_with):
    client = hall_with("connection_messages=2/minute")
    code = new_room(client)["code"]
    with Socket(client, code) as socket:
        socket.hello()
        socket.send({"type": "ping"})
        assert socket.expect("pong")
        socket.send({"type": "ping"})
        error = socket.expect("error")
    assert error["code"] == "rate_limited"
    assert "at most 2 per minute" in error["message"] and "try again in" in error["message"]


def test_connections_from_one_address_are_capped(hall_with):
    client = hall_with("sockets=2")
    code = new_room(client)["code"]
    with Socket(client, code), Socket(client, code):
        third = Socket(client, code)
        try:
            error = third.receive()
            assert error["code"] == "rate_limited" and "at most 2 connections" in error["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                third.receive()
            assert closed.value.code == CLOSE_TOO_MANY_SOCKETS
        finally:
            third.close()
    with Socket(client, code) as again:  # the others went: there is room again
        again.hello()


# -- 5. REST bodies --------------------------------------------------------------------------------
def test_a_large_body_is_refused_before_it_is_parsed(client):
    before = stored_rooms(client)
    body = json.dumps({"game": "patchwork", "seats": [OPEN, OPEN], "host_name": "x" * (MAX_BODY + 1)})
    answer = client.post("/api/rooms", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 413 and "too large" in answer.json()["detail"]
    assert stored_rooms(client) == before


def test_a_large_body_without_a_length_is_refused_as_it_streams(client):
    def chunks() -> Iterator[bytes]:
        yield b'{"game": "patchwork", "seats": [{"kind": "open"}], "host_name": "'
        for _ in range(50):
            yield b"x" * 65536  # 3 MiB in all, never read in full
        yield b'"}'

    answer = client.post("/api/rooms", content=chunks(), headers={"content-type": "application/json"})
    assert answer.status_code == 413


def test_a_large_body_to_the_halls_internal_endpoint_is_refused_before_it_is_parsed(client):
    body = json.dumps({"seat": 0, "turn": 0, "action": {"type": "x" * (MAX_BODY + 1)}})
    answer = client.post("/internal/cluster/rooms/ABCDEF/act", content=body,
                         headers={"content-type": "application/json"})
    assert answer.status_code == 413 and "too large" in answer.json()["detail"]


# -- 6. nesting and bad text ----------------------------------------------------------------------
def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def test_deep_json_is_refused_in_words_on_rest(client):
    before = stored_rooms(client)
    body = '{"game": "patchwork", "seats": [{"kind": "open"}], "options": {"x": %s}}' % deep(950)
    answer = client.post("/api/rooms", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 422 and f"deeper than {MAX_DEPTH} levels" in answer.json()["detail"]
    assert stored_rooms(client) == before


@pytest.mark.parametrize("text", [
    '{"type": "act", "id": "a", "turn": 0, "action": %s}' % deep(964),
    '{"type": "act", "id": "a", "turn": 0, "action": %s}' % deep(MAX_DEPTH + 1),
    '{"type": "ping", "id": "\\ud800"}',
    '{"type": "act", "id": "a", "turn": 0, "action": {"type": "\\udfff"}}',
])
def test_deep_json_and_lone_surrogates_get_an_error_and_the_socket_lives(client, text):
    code, tokens, _ = started_room(client)
    with Socket(client, code) as socket:
        socket.hello(tokens[0])
        turn = socket.state["turn"]
        socket.ws.send_text(text)
        error = socket.expect("error")
        assert error["code"] == "bad_message" and error["message"]
        assert socket.sync()["turn"] == turn  # still there, and nothing was applied


def test_a_long_id_is_refused_and_not_echoed(client):
    code, tokens, _ = started_room(client)
    with Socket(client, code) as socket:
        socket.hello(tokens[0])
        socket.send({"type": "ping", "id": "i" * 10_000})
        error = socket.expect("error")
    assert error["code"] == "bad_message" and error["id"] is None


# -- 7. a seat is a whole number ------------------------------------------------------------------
@pytest.mark.parametrize("seat", [True, False, "1", 1.0])
def test_a_seat_that_is_not_a_whole_number_is_refused(client, seat):
    code = new_room(client)["code"]
    answer = client.post(f"/api/rooms/{code}/join", json={"name": "Ana", "seat": seat})
    assert answer.status_code == 422 and "seat" in answer.json()["detail"]
    assert client.get(f"/api/rooms/{code}").json()["seats"][1]["kind"] == "open"


# -- the documented caps hold everywhere names enter ----------------------------------------------
def test_every_name_is_capped_where_it_enters(client):
    long = "N" * (NAME_MAX + 1)
    assert client.post("/api/rooms", json={"game": "patchwork", "seats": [OPEN, OPEN], "host_name": long,
                                           "take_seat": 0}).status_code == 422
    assert client.post("/api/rooms", json={"game": "patchwork", "seats": [OPEN, bot() | {"name": long}]}
                       ).status_code == 422
    room = new_room(client)
    assert client.post(f"/api/rooms/{room['code']}/join", json={"name": long}).status_code == 422
    assert client.post(f"/api/rooms/{room['code']}/seats/1/bot", json={"bot": "greedy", "name": long},
                       headers=host(room["host_token"])).status_code == 422


def test_refusals_never_echo_unbounded_input(client):
    answer = client.post("/api/rooms", json={"game": "patchwork", "seats": [OPEN, OPEN],
                                             "options": {"o" * 60: 1}})
    assert answer.status_code == 422 and len(answer.json()["detail"]) <= REASON_MAX
    answer = client.post("/api/rooms", json={"game": "patchwork", "seats": [OPEN, OPEN], "k" * 50_000: 1})
    assert answer.status_code == 422 and len(answer.json()["detail"]) <= REASON_MAX


def test_an_exempt_address_is_not_counted_per_address_but_per_connection(hall_with):
    client = hall_with("rooms=1/minute", "exempt=testclient,203.0.113.9", "connection_messages=2/minute")
    new_room(client)
    new_room(client)  # past rooms=1/minute, but exempt
    code = new_room(client)["code"]
    with Socket(client, code) as socket:
        socket.hello()
        socket.send({"type": "ping"})
        socket.expect("pong")
        socket.send({"type": "ping"})
        assert socket.expect("error")["code"] == "rate_limited"  # the connection's own rate still counts
