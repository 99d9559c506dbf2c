"""Live play over the room's WebSocket: views, acks, bots, timers, and every refusal in words."""

from __future__ import annotations

import json

import pytest
from hallkit import OPEN, Socket, bot, host, new_room, started_room
from starlette.websockets import WebSocketDisconnect

from parlour.hall.room.leaving import AWAY_GRACE

SKIP = {"type": "skip"}


def test_two_players_see_each_move_acked_then_pushed(client):
    code, tokens, _ = started_room(client)
    with Socket(client, code) as ana, Socket(client, code) as bo:
        welcome = ana.hello(tokens[0])
        assert welcome["seat"] == 0 and welcome["room"]["status"] == "playing"
        assert bo.hello(tokens[1])["seat"] == 1
        state = ana.sync()
        assert state["to_act"] == [0] and state["legal"] and state["view"]["seat"] == 0
        assert [s["connected"] for s in state["room"]["seats"]] == [True, True]
        assert bo.sync()["legal"] is None  # not bo's turn
        ack = ana.act(SKIP, message_id="m1")
        assert ack == {"type": "ack", "id": "m1", "turn": 1}
        after_ack = ana.receive()
        assert after_ack["type"] == "state" and after_ack["turn"] == 1
        pushed = bo.until(lambda s: s["turn"] == 1)
        assert pushed["to_act"] == [1] and pushed["legal"]
        assert pushed["log"][0] == {"turn": 1, "text": "Ana skipped ahead 1 space and took 1 button"}
        assert bo.act(pushed["legal"][0])["type"] == "ack"
    assert client.get(f"/api/rooms/{code}").json()["turn"] == 2


def refused(socket: Socket, message, code: str, *words: str) -> None:
    socket.send(message) if not isinstance(message, str) else socket.ws.send_text(message)
    error = socket.expect("error")
    assert error["code"] == code, error
    for word in words:
        assert word in error["message"], error


def test_every_bad_input_is_refused_in_words_and_changes_nothing(client):
    code, tokens, _ = started_room(client)
    with Socket(client, code) as ana, Socket(client, code) as bo, Socket(client, code) as watcher:
        refused(ana, {"type": "act", "id": 1, "turn": 0, "action": SKIP}, "not_a_player", "hello")
        refused(ana, {"type": "hello", "token": "not-a-token"}, "bad_token", "no seat")
        refused(ana, {"type": "hello", "token": 7}, "bad_message", "token")
        ana.hello(tokens[0])
        bo.hello(tokens[1])
        watcher.hello(None)
        before = ana.sync()
        refused(ana, "{not json", "bad_message", "not JSON")
        refused(ana, "[1, 2]", "bad_message", "JSON object")
        refused(ana, {"type": "dance"}, "bad_message", "unknown message type 'dance'")
        refused(ana, {"type": "hello", "token": tokens[0]}, "bad_message", "once")
        refused(ana, {"type": "act", "id": [1], "turn": 0, "action": SKIP}, "bad_message", "id")
        refused(ana, {"type": "act", "id": 1, "action": SKIP}, "bad_message", "turn")
        refused(ana, {"type": "act", "id": 1, "turn": 0}, "bad_message", "action")
        refused(ana, {"type": "act", "id": 1, "turn": 0, "action": {"type": "play", "patch": 99,
                                                                     "rotation": 0, "flip": False, "x": 0, "y": 0}},
                "illegal", "99")
        refused(ana, {"type": "act", "id": 1, "turn": 0, "action": "skip"}, "illegal", "JSON object")
        refused(ana, {"type": "act", "id": 1, "turn": 5, "action": SKIP}, "stale", "turn 5")
        refused(bo, {"type": "act", "id": 1, "turn": 0, "action": SKIP}, "not_your_turn", "waiting for Ana")
        refused(watcher, {"type": "act", "id": 1, "turn": 0, "action": SKIP}, "not_a_player", "spectators")
        refused(ana, {"type": "act", "id": 1, "turn": 0, "action": {"type": "skip", "pad": "x" * 70_000}},
                "too_large", "65536")
        after = ana.sync()
        assert after["turn"] == before["turn"] == 0 and after["view"] == before["view"]
        assert client.get(f"/api/rooms/{code}").json()["turn"] == 0
        assert ana.act(SKIP)["type"] == "ack"  # the connection still works


def test_of_two_racing_acts_exactly_one_applies(client):
    code, tokens, _ = started_room(client)
    with Socket(client, code) as tab1, Socket(client, code) as tab2:
        tab1.hello(tokens[0])
        tab2.hello(tokens[0])  # the same seat in two tabs, both at turn 0
        tab1.send({"type": "act", "id": "t1", "turn": 0, "action": SKIP})
        tab2.send({"type": "act", "id": "t2", "turn": 0, "action": SKIP})
        answers = [_answer(tab1, "t1"), _answer(tab2, "t2")]
    kinds = sorted(a["type"] for a in answers)
    assert kinds == ["ack", "error"]
    assert next(a for a in answers if a["type"] == "error")["code"] == "stale"
    assert client.get(f"/api/rooms/{code}").json()["turn"] == 1


def _answer(socket: Socket, message_id: str) -> dict:
    while True:
        message = socket.receive()
        if message.get("id") == message_id:
            return message


def test_an_unknown_room_is_refused_and_closed(client):
    with Socket(client, "ZZZZZZ") as socket:
        error = socket.receive()
        assert error["code"] == "unknown_room" and "no room" in error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive()
        assert closed.value.code == 4404


def test_acting_before_the_start_and_after_the_end_is_refused(client):
    room = new_room(client, seats=[OPEN, OPEN], host_name="Ana", take_seat=0)
    with Socket(client, room["code"]) as ana:
        ana.hello(room["seat_token"])
        assert ana.state["view"] is None and ana.state["room"]["status"] == "waiting"
        refused(ana, {"type": "act", "id": 1, "turn": 0, "action": SKIP}, "not_started", "not started")
    code, tokens, _ = started_room(client, game="secrets")
    with Socket(client, code) as ana, Socket(client, code) as bo:
        ana.hello(tokens[0])
        bo.hello(tokens[1])
        for _ in range(2):
            assert ana.act({"type": "pick", "number": 1})["type"] == "ack"
            bo.sync()
            assert bo.act({"type": "pick", "number": 2})["type"] == "ack"
            ana.sync()
        assert ana.state["result"]["winners"] == [1]
        refused(ana, {"type": "act", "id": 1, "turn": 4, "action": {"type": "pick", "number": 1}}, "over", "over")


def test_a_reload_keeps_the_seat_and_connection_status_follows(client):
    code, tokens, _ = started_room(client)
    watcher = Socket(client, code)
    watcher.hello(None)
    with Socket(client, code) as ana:
        ana.hello(tokens[0])
        ana.act(SKIP)
        watcher.until(lambda s: s["room"]["seats"][0]["connected"])
    watcher.until(lambda s: not s["room"]["seats"][0]["connected"])
    with Socket(client, code) as again:
        assert again.hello(tokens[0])["seat"] == 0
        assert again.state["turn"] == 1 and again.state["view"]["seat"] == 0
    watcher.close()


def test_a_game_against_two_bots_runs_to_its_scores_and_its_replay(client):
    room = new_room(client, seats=[bot("greedy"), bot("random")])
    with Socket(client, room["code"]) as watcher:
        watcher.hello(None)
        client.post(f"/api/rooms/{room['code']}/start", headers=host(room["host_token"]))
        final = watcher.until(lambda s: s["result"] is not None)
    assert final["room"]["status"] == "over" and final["legal"] is None
    replay = client.get(f"/api/rooms/{room['code']}/replay").json()
    assert replay["format"] == "parlour-replay/1" and replay["names"] == ["greedy", "random"]
    assert len(replay["actions"]) == final["turn"] == len(replay["frames"]) - 1
    assert replay["frames"][-1]["view"] == final["view"]
    assert str(replay["seed"]) not in "".join(watcher.texts)


def test_host_gives_an_abandoned_seat_to_a_bot_mid_game(client, clock):
    code, tokens, host_token = started_room(client)
    with Socket(client, code) as ana:
        ana.hello(tokens[0])
        ana.act(SKIP)  # now Bo must act, and Bo never came
        busy = client.post(f"/api/rooms/{code}/seats/0/bot", json={"bot": "greedy"}, headers=host(host_token))
        assert busy.status_code == 409 and "still here" in busy.json()["detail"]
        clock.advance(AWAY_GRACE)
        given = client.post(f"/api/rooms/{code}/seats/1/bot", json={"bot": "greedy"}, headers=host(host_token))
        assert given.status_code == 200
        moved = ana.until(lambda s: s["turn"] >= 2)
        assert moved["room"]["seats"][1]["kind"] == "bot"
    with Socket(client, code) as bo:
        refused(bo, {"type": "hello", "token": tokens[1]}, "bad_token", "bot")


def test_the_turn_timer_lets_the_builtin_bot_move_and_the_log_says_so(client, clock):
    code, tokens, _ = started_room(client, turn_timer=30)
    with Socket(client, code) as ana:
        ana.hello(tokens[0])
        assert ana.state["deadline"] == clock.now() + 30
        clock.advance(31)
        moved = ana.until(lambda s: s["turn"] >= 1)
    texts = [line["text"] for line in moved["log"]]
    assert texts[0] == "the turn timer ran out: the greedy bot moved for Ana"


def test_untimed_rooms_wait_forever(client, clock):
    code, tokens, _ = started_room(client)
    with Socket(client, code) as ana:
        ana.hello(tokens[0])
        assert ana.state["deadline"] is None
        clock.advance(10_000)
        assert ana.sync()["turn"] == 0


def test_messages_are_json_and_names_are_plain_text(client):
    code, tokens, _ = started_room(client, names=("<b>Ana</b>", "Bo"))
    with Socket(client, code) as ana:
        ana.hello(tokens[0])
        ana.act(SKIP)
        state = ana.until(lambda s: s["turn"] == 1)
    assert state["log"][0]["text"].startswith("<b>Ana</b> skipped")
    assert json.loads(ana.texts[-1])["room"]["seats"][0]["name"] == "<b>Ana</b>"


def test_a_client_may_ask_for_no_legal_lists_and_may_send_binary_frames(client):
    code, tokens, _ = started_room(client)
    with Socket(client, code) as ana:
        ana.send({"type": "hello", "token": tokens[0], "legal": False})
        ana.expect("welcome")
        state = ana.expect("state")
        assert state["to_act"] == [0] and state["legal"] is None
        ana.ws.send_bytes(json.dumps({"type": "ping"}).encode())
        assert ana.expect("pong") == {"type": "pong"}
        ana.ws.send_bytes(b"\xff\xfe")
        assert ana.expect("error")["code"] == "bad_message"
