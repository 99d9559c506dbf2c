"""The table: the live lobby (rooms waiting and games in progress), chat and rematch."""

from __future__ import annotations

from hallkit import OPEN, Socket, bot, host, new_room, started_room

from parlour.hall.table import WAITING_TTL


def test_the_lobby_lists_games_in_progress_newest_first_with_how_far_along(client, clock):
    older, tokens, _ = started_room(client)
    clock.advance(5)
    newer = new_room(client, "palace", [OPEN, bot("shark"), bot("shark")], host_name="Ana", take_seat=0)
    client.post(f"/api/rooms/{newer['code']}/start", headers=host(newer["host_token"])).raise_for_status()
    waiting = new_room(client)
    with Socket(client, older) as ana:
        ana.hello(tokens[0])
        assert ana.act({"type": "skip"})["type"] == "ack"
    playing = client.get("/api/rooms", params={"status": "playing"}).json()
    assert [r["code"] for r in playing] == [newer["code"], older]
    assert playing[1]["turn"] == 1 and playing[1]["status"] == "playing"
    assert [s["name"] for s in playing[1]["seats"]] == ["Ana", "Bo"]
    only_palace = client.get("/api/rooms", params={"status": "playing", "game": "palace"}).json()
    assert [r["code"] for r in only_palace] == [newer["code"]]
    assert [r["code"] for r in client.get("/api/rooms").json()] == [waiting["code"]]
    refused = client.get("/api/rooms", params={"status": "over"})
    assert refused.status_code == 422 and "status" in refused.json()["detail"]
    unknown = client.get("/api/rooms", params={"game": "chess"})
    assert unknown.status_code == 422 and "no game 'chess'" in unknown.json()["detail"]


def test_a_waiting_room_nobody_is_connected_to_expires_from_the_lobby(client, clock):
    lonely = new_room(client)["code"]
    watched = new_room(client)["code"]
    with Socket(client, watched) as someone:
        someone.hello()
        clock.advance(WAITING_TTL + 1)
        client.app.state.hall.sweep(clock.now())
        assert [r["code"] for r in client.get("/api/rooms").json()] == [watched]
    clock.advance(WAITING_TTL - 1)
    assert [r["code"] for r in client.get("/api/rooms").json()] == [watched]  # left only just now
    clock.advance(2)
    assert client.get("/api/rooms").json() == []
    # the store keeps an expired room: its link still opens it, and it can still be joined
    assert client.get(f"/api/rooms/{lonely}").json()["status"] == "waiting"
    assert client.post(f"/api/rooms/{lonely}/join", json={"name": "Ana"}).status_code == 200


def test_a_seat_a_bot_takes_over_keeps_its_players_name(client):
    code, tokens, host_token = started_room(client)
    taken = client.post(f"/api/rooms/{code}/seats/1/bot", json={"bot": "greedy"}, headers=host(host_token))
    assert taken.json()["seats"][1] == {"seat": 1, "kind": "bot", "name": "Bo (bot)", "bot": "greedy",
                                        "connected": True, "profile": None}
