"""The table: the live lobby (rooms waiting and games in progress), chat and rematch."""

from __future__ import annotations

import time

import pytest
from hallkit import OPEN, Socket, bot, host, new_room, started_room

from parlour.hall.hall import WAITING_TTL
from parlour.hall.lobby import FRESH
from parlour.hall.quotas import Limits
from parlour.hall.room import chat as room_chat
from parlour.hall.room.leaving import AWAY_GRACE
from parlour.hall.room.seats import RESERVE_SEATS


def test_the_lobby_lists_games_in_progress_newest_first_with_how_far_along(client, clock):
    older, tokens, _ = started_room(client)
    clock.advance(5)
    newer = new_room(client, "palace", [OPEN, bot("shark"), bot("shark")], host_name="Ana", take_seat=0)
    client.post(f"/api/rooms/{newer['code']}/start", headers=host(newer["host_token"])).raise_for_status()
    waiting = new_room(client)
    with Socket(client, older) as ana, Socket(client, newer["code"]) as host_player:
        ana.hello(tokens[0])
        host_player.hello(newer["seat_token"])
        assert ana.act({"type": "skip"})["type"] == "ack"
        playing = client.get("/api/rooms", params={"status": "playing"}).json()
        assert [r["code"] for r in playing] == [newer["code"], older]
        assert playing[1]["turn"] == 1 and playing[1]["status"] == "playing"
        assert [s["name"] for s in playing[1]["seats"]] == ["Ana", "Bo"]
        only_palace = client.get("/api/rooms", params={"status": "playing", "game": "palace"}).json()
        assert [r["code"] for r in only_palace] == [newer["code"]]
        with Socket(client, older) as watcher:  # spectators do not make a game one being played
            watcher.hello()
            clock.advance(1)
    bots_alone = new_room(client, "palace", [bot("shark"), bot("shark")])
    client.post(f"/api/rooms/{bots_alone['code']}/start", headers=host(bots_alone["host_token"])).raise_for_status()
    gone_by = time.monotonic() + 10  # the hall hears of the closed sockets on its own loop
    while any(r.watchers for r in client.app.state.hall.rooms.values()) and time.monotonic() < gone_by:
        time.sleep(0.01)
    assert older in [r["code"] for r in client.get("/api/rooms", params={"status": "playing"}).json()]  # a reload?
    assert [r["code"] for r in client.get("/api/rooms").json()] == [waiting["code"]]  # new: its maker comes
    clock.advance(FRESH)
    if not client.app.state.hall.clustered:  # a cluster's lobby leaves presence out (docs/scaling.md)
        # every person has left those two games (issue 28.2): only the game of bots alone is being played
        playing = client.get("/api/rooms", params={"status": "playing"}).json()
        assert [r["code"] for r in playing if r["status"] == "playing"] in ([bots_alone["code"]], [])
        assert client.get("/api/rooms").json() == []  # nobody came to the waiting room: nobody there to start it
    refused = client.get("/api/rooms", params={"status": "over"})
    assert refused.status_code == 422 and "status" in refused.json()["detail"]
    unknown = client.get("/api/rooms", params={"game": "chess"})
    assert unknown.status_code == 422 and "no game 'chess'" in unknown.json()["detail"]


def test_a_waiting_room_is_listed_while_someone_is_in_it_and_expires_once_nobody_was(client, clock):
    if client.app.state.hall.clustered:
        pytest.skip("a cluster's lobby leaves presence out: people may be connected to other processes")
    lonely = new_room(client)["code"]
    watched = new_room(client)["code"]
    assert {r["code"] for r in client.get("/api/rooms").json()} == {watched, lonely}  # new: its maker comes
    with Socket(client, watched) as someone:
        someone.hello()
        clock.advance(FRESH)
        assert [r["code"] for r in client.get("/api/rooms").json()] == [watched]  # nobody came to the other
        clock.advance(WAITING_TTL + 1)
        client.app.state.hall.sweep(clock.now())
        assert [r["code"] for r in client.get("/api/rooms").json()] == [watched]
    gone_by = time.monotonic() + 10  # the hall hears of the closed socket on its own loop
    while client.app.state.hall.rooms[watched].watchers and time.monotonic() < gone_by:
        time.sleep(0.01)
    assert client.get("/api/rooms").json() == []  # nobody is in it to start it: not offered
    clock.advance(WAITING_TTL + 1)
    client.app.state.hall.sweep(clock.now())
    assert watched not in client.app.state.hall.rooms
    # the store keeps an expired room: its link still opens it, and it can still be joined
    assert client.get(f"/api/rooms/{lonely}").json()["status"] == "waiting"
    assert client.post(f"/api/rooms/{lonely}/join", json={"name": "Ana"}).status_code == 200


def test_a_seat_a_bot_takes_over_keeps_its_players_name(client, clock):
    code, tokens, host_token = started_room(client)
    clock.advance(AWAY_GRACE)  # Bo never came
    taken = client.post(f"/api/rooms/{code}/seats/1/bot", json={"bot": "greedy"}, headers=host(host_token))
    assert taken.json()["seats"][1] == {"seat": 1, "kind": "bot", "name": "Bo (bot)", "bot": "greedy",
                                        "connected": True, "kept_for": None,
                                        "profile": None, "left": "away"}


def chat_lines(socket: Socket, count: int) -> list[dict]:
    """The chat lines ``socket`` has received, once it holds ``count`` of them."""
    lines: list[dict] = []
    while len(lines) < count:
        message = socket.receive()
        if message["type"] == "chat":
            lines += message["lines"]
        assert message["type"] != "error", message
    return lines


def test_players_and_spectators_chat_and_the_chat_is_kept_with_the_room(make_client):
    client = make_client()
    room = new_room(client)
    code = room["code"]
    ana = client.post(f"/api/rooms/{code}/join", json={"name": "Ana"}).json()
    with Socket(client, code) as seat, Socket(client, code) as watcher:
        seat.send({"type": "hello", "token": ana["seat_token"], "chat": True})
        watcher.send({"type": "hello", "token": None, "chat": True})
        assert [line["text"] for line in chat_lines(seat, 1)] == ["Ana took seat 1"]
        chat_lines(watcher, 1)
        seat.send({"type": "chat", "text": "  <b>hello</b>  "})
        watcher.send({"type": "chat", "text": "hi from the rail", "name": "Carl"})
        said = chat_lines(watcher, 2)
        assert [(line["kind"], line["seat"], line["name"], line["text"]) for line in said] == [
            ("player", 0, "Ana", "<b>hello</b>"), ("spectator", None, "Carl", "hi from the rail")]
        assert chat_lines(seat, 2) == said
        for bad, words in (("", "empty"), ("x" * 501, "at most 500"), ("a\x07b", "control"), (7, "text")):
            seat.send({"type": "chat", "text": bad})
            refused = seat.expect("error")
            assert refused["code"] == "bad_message" and words in refused["message"], refused
    again = make_client()  # a restart: the lines come back from the store
    with Socket(again, code) as late:
        late.send({"type": "hello", "chat": True})
        kept = chat_lines(late, 3)
    assert [(line["n"], line["kind"], line["text"]) for line in kept] == [
        (0, "system", "Ana took seat 1"), (1, "player", "<b>hello</b>"), (2, "spectator", "hi from the rail")]


def test_a_rematch_turns_the_seats_keeps_them_a_while_and_invites_the_old_room(client, clock):
    room = new_room(client, "empire", [OPEN, OPEN], turn_timer=60)
    code = room["code"]
    ana = client.post(f"/api/rooms/{code}/join", json={"name": "Ana"}).json()
    bo = client.post(f"/api/rooms/{code}/join", json={"name": "Bo"}).json()
    too_soon = client.post(f"/api/rooms/{code}/rematch", headers=host(ana["seat_token"]))
    assert too_soon.status_code == 409 and "over" in too_soon.json()["detail"]
    client.post(f"/api/rooms/{code}/start", headers=host(room["host_token"])).raise_for_status()
    with Socket(client, code) as watcher:
        watcher.hello()
        with Socket(client, code) as player:
            player.hello(ana["seat_token"])
            assert player.act({"type": "accuse", "role": 1})["type"] == "ack"  # the game ends at once
        assert client.post(f"/api/rooms/{code}/rematch").status_code == 403  # no seat token: no rematch
        offered = client.post(f"/api/rooms/{code}/rematch", headers=host(bo["seat_token"]))
        assert offered.status_code == 201, offered.text
        again = offered.json()
        assert watcher.until(lambda s: s["room"]["rematch"] == again["code"])  # the old room is told
    twice = client.post(f"/api/rooms/{code}/rematch", headers=host(ana["seat_token"]))
    assert twice.status_code == 409 and again["code"] in twice.json()["detail"]
    status = client.get(f"/api/rooms/{again['code']}").json()
    assert (status["game"], status["turn_timer"], status["status"]) == ("empire", 60, "waiting")
    assert [(s["kind"], s["name"], s["kept_for"]) for s in status["seats"]] == [
        ("human", "Bo", None), ("open", None, "Ana")]  # Bo sat at seat 2, Ana at seat 1: turned by one
    taken = client.post(f"/api/rooms/{again['code']}/join", json={"name": "Cy"})
    assert taken.status_code == 409 and "kept for Ana" in taken.json()["detail"]
    assert client.get("/api/rooms").json()[0]["seats"][1]["kept_for"] == "Ana"
    with Socket(client, code) as old_room:
        old_room.send({"type": "hello", "chat": True})
        accepted = client.post(f"/api/rooms/{again['code']}/join", json={"name": "Ana"},
                               headers=host(ana["seat_token"]))
        assert accepted.json()["seat"] == 1
        # everyone is in: the rematch starts by itself (issue 28.11), and the old room's chat says so
        assert client.get(f"/api/rooms/{again['code']}").json()["status"] == "playing"
        said: list[str] = []
        while not any("everyone is in" in text for text in said):
            message = old_room.receive()
            said += [line["text"] for line in message.get("lines", [])] if message["type"] == "chat" else []
        assert said[-3:] == ["Bo offers a rematch", f"Ana joined the rematch ({again['code']})",
                             f"everyone is in: the rematch ({again['code']}) started"]


def test_a_rematch_keeps_the_bots_and_a_kept_seat_is_anyones_once_its_time_is_up(client, clock):
    room = new_room(client, "empire", [OPEN, bot("detective")])
    code = room["code"]
    ana = client.post(f"/api/rooms/{code}/join", json={"name": "Ana"}).json()
    client.post(f"/api/rooms/{code}/start", headers=host(room["host_token"])).raise_for_status()
    with Socket(client, code) as player:
        player.hello(ana["seat_token"])
        assert player.act({"type": "accuse", "role": 1})["type"] == "ack"
    again = client.post(f"/api/rooms/{code}/rematch", headers=host(ana["seat_token"])).json()
    seats = client.get(f"/api/rooms/{again['code']}").json()["seats"]
    assert [(s["kind"], s["name"], s["bot"]) for s in seats] == [("bot", "detective", "detective"),
                                                                 ("human", "Ana", None)]
    assert again["seat"] == 1

    code, tokens, _ = started_room(client, "empire")
    with Socket(client, code) as player:
        player.hello(tokens[0])
        assert player.act({"type": "accuse", "role": 1})["type"] == "ack"
    again = client.post(f"/api/rooms/{code}/rematch", headers=host(tokens[0])).json()
    assert client.post(f"/api/rooms/{again['code']}/join", json={"name": "Cy"}).status_code == 409
    clock.advance(RESERVE_SEATS)
    assert client.get(f"/api/rooms/{again['code']}").json()["seats"][0]["kept_for"] is None
    assert client.post(f"/api/rooms/{again['code']}/join", json={"name": "Cy"}).json()["seat"] == 0


def test_the_chat_says_who_left_unless_they_came_back_at_once_and_when_a_bot_took_over(client, clock, monkeypatch):
    monkeypatch.setattr(room_chat, "LEFT_GRACE", 0.0)
    code, tokens, host_token = started_room(client)
    with Socket(client, code) as watcher:
        watcher.send({"type": "hello", "chat": True})
        assert [line["text"] for line in chat_lines(watcher, 3)] == [
            "Ana took seat 1", "Bo took seat 2", "the game started"]
        with Socket(client, code) as bo:
            bo.hello(tokens[1])
        assert chat_lines(watcher, 1)[0]["text"] == "Bo left"
        with Socket(client, code) as bo:
            bo.hello(tokens[1])
            assert chat_lines(watcher, 1)[0]["text"] == "Bo is back"
        assert chat_lines(watcher, 1)[0]["text"] == "Bo left"
        clock.advance(AWAY_GRACE)
        client.post(f"/api/rooms/{code}/seats/1/bot", json={"bot": "greedy"}, headers=host(host_token))
        line = chat_lines(watcher, 1)[0]
    assert (line["kind"], line["seat"], line["text"]) == (
        "system", None, "Bo was away too long: a bot (greedy) plays their seat on")


def test_a_finished_games_replay_shows_what_each_seat_saw_and_nothing_while_it_runs(client):
    room = new_room(client, "secrets", [OPEN, bot("random"), bot("random")], host_name="Ana", take_seat=0)
    code = room["code"]
    client.post(f"/api/rooms/{code}/start", headers=host(room["host_token"])).raise_for_status()
    for seat in (None, 0, 2):
        running = client.get(f"/api/rooms/{code}/replay", params={} if seat is None else {"seat": seat})
        assert running.status_code == 409 and "once the game is over" in running.json()["detail"]
    with Socket(client, code) as ana:
        ana.hello(room["seat_token"])
        for _ in range(2):
            if 0 not in ana.sync()["to_act"]:  # the bots' picks are hidden: only a new round shows
                ana.until(lambda s: 0 in s["to_act"])
            assert ana.act({"type": "pick", "number": 3})["type"] == "ack"
        if ana.sync()["result"] is None:
            ana.until(lambda s: s["result"] is not None)
    secrets = client.app.state.hall.rooms[code].state.secrets
    public = client.get(f"/api/rooms/{code}/replay").json()
    assert public["seen_by"] is None and not any("secret" in f["view"] for f in public["frames"])
    for seat in (0, 2):
        seen = client.get(f"/api/rooms/{code}/replay", params={"seat": seat}).json()
        assert seen["seen_by"] == seat and len(seen["frames"]) == len(public["frames"])
        assert {f["view"]["secret"] for f in seen["frames"]} == {secrets[seat]}  # its hand, move by move
        assert any(f"holding {secrets[seat]}" in line for f in seen["frames"] for line in f["log"])
    bad = client.get(f"/api/rooms/{code}/replay", params={"seat": 3})
    assert bad.status_code == 404 and "seats 0 to 2" in bad.json()["detail"]
    uploaded = client.post("/api/replays/frames", params={"seat": 1}, json={k: public[k] for k in (
        "format", "game", "players", "options", "seed", "names", "actions")}).json()
    assert {f["view"]["secret"] for f in uploaded["frames"]} == {secrets[1]}


def test_chat_lines_are_held_to_the_halls_chat_rate(client):
    code = new_room(client)["code"]
    limit = int(Limits().chat.split("/")[0])
    with Socket(client, code) as talker:
        talker.send({"type": "hello", "chat": True})
        for n in range(limit):
            talker.send({"type": "chat", "text": f"line {n}"})
        assert len(chat_lines(talker, limit)) == limit
        talker.send({"type": "chat", "text": "one too many"})
        refused = talker.expect("error")
    assert refused["code"] == "rate_limited" and "chat lines" in refused["message"]
    assert "one too many" not in [line.text for line in client.app.state.hall.rooms[code].chat.since(0)]
