"""Bad input of every shape, generated: on the WebSocket and on REST, whatever arrives gets an
answer in words, changes nothing, and the connection and the server survive (issue 13)."""

from __future__ import annotations

import json
from typing import Any

from hallkit import OPEN, Socket, host, started_room
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.hall.quotas import Limits
from parlour.hall.text import REASON_MAX

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
# JSON of every shape: scalars (odd text included), lists and objects, nested a few levels
SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(
    max_size=40)
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                        max_size=4), max_leaves=12)
TYPES = st.sampled_from(["hello", "act", "ping", "", "chat", "ACT"]) | st.text(max_size=12)
FIELDS = st.dictionaries(st.sampled_from(["id", "turn", "action", "token", "legal", "seat"]) | st.text(max_size=6),
                         JSON, max_size=4)
MESSAGES = st.builds(lambda kind, fields: {**fields, "type": kind}, TYPES | JSON, FIELDS) | JSON


def unlimited(make_client: Any) -> Any:
    return make_client(Limits.lifted().with_settings(["connection_messages=1000000/second"]))


def test_any_websocket_message_is_answered_in_words_and_changes_nothing(make_client):
    client = unlimited(make_client)
    code, tokens, _ = started_room(client)
    room = client.app.state.hall.rooms[code]
    with Socket(client, code) as player:
        player.hello(tokens[0])

        @FUZZ
        @given(message=MESSAGES)
        def sent(message: Any) -> None:
            turn = room.turn
            player.ws.send_text(json.dumps(message))
            player.send({"type": "ping", "id": "end"})
            answers = []
            while (answer := player.receive())["type"] != "pong":
                answers.append(answer)
            for answer in answers:
                assert answer["type"] in ("error", "ack", "welcome", "state"), answer
                if answer["type"] == "error":
                    assert answer["code"] and 0 < len(answer["message"]) <= REASON_MAX
            acked = any(answer["type"] == "ack" for answer in answers)
            assert room.turn == turn + acked  # nothing changed unless it was a legal move, acknowledged
            assert len(room.records) == room.turn

        sent()
    assert client.get(f"/api/rooms/{code}").status_code == 200  # the server is fine


ENDPOINTS = ["/api/rooms", "/api/rooms/{code}/join", "/api/rooms/{code}/seats/1/bot", "/api/rooms/{code}/start",
             "/api/replays/frames", "/api/rooms/{code}/resign", "/api/rooms/{code}/vote", "/api/rooms/mine"]


def test_any_rest_body_is_answered_in_words_and_changes_nothing(make_client):
    client = unlimited(make_client)
    room = client.post("/api/rooms", json={"game": "patchwork", "seats": [OPEN, OPEN]}).json()
    hall = client.app.state.hall

    @FUZZ
    @given(path=st.sampled_from(ENDPOINTS), body=JSON | st.dictionaries(
        st.sampled_from(["game", "seats", "options", "name", "seat", "bot", "players", "seed", "actions", "names",
                         "turn_timer", "host_name", "take_seat", "format", "motion", "agree", "rooms", "token",
                         "code"]), JSON, max_size=6))
    def posted(path: str, body: Any) -> None:
        seats = [s.kind for s in hall.rooms[room["code"]].seats]
        rooms = len(hall.rooms)
        answer = client.post(path.format(code=room["code"]), json=body, headers=host(room["host_token"]))
        assert answer.status_code < 500, answer.text
        if answer.status_code >= 400:
            assert 0 < len(answer.json()["detail"]) <= REASON_MAX
            assert len(hall.rooms) == rooms and [s.kind for s in hall.rooms[room["code"]].seats] == seats

    posted()
