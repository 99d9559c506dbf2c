"""Issue 27, item 9: the body gate reads a JSON body whatever the capitals of its Content-Type
(or with none, which FastAPI reads as JSON too): a deep body is refused in words (422), never a 500."""

from __future__ import annotations

import json

import pytest
from test_limits import deep

from parlour.cli.bench_abuse import played_replay
from parlour.hall.wire import MAX_DEPTH


@pytest.mark.parametrize("content_type", ["application/JSON", "Application/Json; charset=utf-8",
                                          "APPLICATION/JSON", "application/problem+JSON"])
def test_a_deep_body_is_refused_in_words_whatever_its_content_type(client, content_type):
    replay = played_replay()
    body = json.dumps(replay)[:-1] + ', "result": {"scores": %s}}' % deep(900)
    answer = client.post("/api/replays/frames", content=body, headers={"content-type": content_type})
    assert answer.status_code == 422, answer.text[:200]
    assert f"deeper than {MAX_DEPTH} levels" in answer.json()["detail"]


def test_a_deep_room_body_with_capitals_is_refused_in_words(client):
    body = '{"game": "patchwork", "seats": [{"kind": "open"}, {"kind": "open"}], "options": {"x": %s}}' % deep(900)
    answer = client.post("/api/rooms", content=body, headers={"content-type": "application/Json"})
    assert answer.status_code == 422 and f"deeper than {MAX_DEPTH} levels" in answer.json()["detail"]


def test_a_deep_body_without_a_content_type_gets_a_4xx_not_a_500(client):
    body = '{"game": "patchwork", "seats": [{"kind": "open"}, {"kind": "open"}], "options": {"x": %s}}' % deep(900)
    answer = client.post("/api/rooms", content=body, headers={"content-type": ""})
    assert 400 <= answer.status_code < 500
