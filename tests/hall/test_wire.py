"""JSON as the hall writes and reads it (hall/wire.py): the same bytes whichever way orjson is
asked, and the depth bound checked without walking a message that cannot break it."""

from __future__ import annotations

import json

import orjson
import pytest

from parlour.hall import wire
from parlour.hall.wire import MAX_DEPTH, BadJson, dumps, dumps_bytes, read_json


@pytest.mark.parametrize("value", [
    {"type": "state", "turn": 3, "view": {"players": [{"quilt": ["..x", "x.."], "buttons": 5}]}, "result": None},
    {"seat": None, "text": "é ünïcode ✓", "n": -2 ** 53, "f": 0.1},
    [1, 2.5, True, None, "a"],
])
def test_text_keys_are_written_as_before(value: object) -> None:
    assert dumps_bytes(value) == orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    assert dumps(value) == json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def test_keys_that_are_not_text_and_huge_numbers_still_go_out() -> None:
    assert dumps_bytes({1: "a", "b": {2: None}}) == b'{"1":"a","b":{"2":null}}'
    assert dumps_bytes({"big": 2 ** 70}) == b'{"big":1180591620717411303424}'


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.mark.parametrize("as_bytes", [False, True])
def test_the_depth_bound_holds(as_bytes: bool) -> None:
    for text, ok in ((nested(MAX_DEPTH), True), (nested(MAX_DEPTH + 1), False),
                     ('{"a":' * MAX_DEPTH + "1" + "}" * MAX_DEPTH, True),
                     ('{"a":' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1), False),
                     # brackets inside strings count toward the quick bound, never against the real one
                     (json.dumps({"text": "[[[{{{" * 20, "deep": [[[1]]]}), True)):
        data = text.encode() if as_bytes else text
        if ok:
            assert read_json(data) == json.loads(text)
        else:
            with pytest.raises(BadJson, match=f"deeper than {MAX_DEPTH}"):
                read_json(data)


def test_a_message_with_few_brackets_is_not_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    walked: list[object] = []
    real = wire.depth
    monkeypatch.setattr(wire, "depth", lambda value: walked.append(value) or real(value))
    act = '{"type":"act","id":7,"turn":12,"action":{"type":"buy","patch":3,"rotation":1,"x":2,"y":4}}'
    assert read_json(act)["action"]["patch"] == 3
    assert walked == []
    read_json(json.dumps({"text": "{" * (MAX_DEPTH + 1)}))  # many brackets: walked, and found shallow
    assert len(walked) == 1
