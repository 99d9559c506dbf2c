"""Per-seat filtering, proven with Secrets (tests/hall/secret_game.py), a hidden-information game
injected into the app's registry: each seat receives its own secret and nothing of the others',
spectators receive none, and neither the seed nor the deck crosses the wire while the game runs."""

from __future__ import annotations

from hallkit import OPEN, Socket, bot, host, join, new_room, started_room

PICK = {"type": "pick", "number": 3}


def test_each_seat_gets_only_its_own_secrets_and_spectators_none(client):
    room = new_room(client, "secrets", [OPEN, OPEN, bot("random")])
    code = room["code"]
    tokens = [join(client, code, name)["seat_token"] for name in ("Ana", "Bo")]
    hall_room = client.app.state.hall.rooms[code]
    with Socket(client, code) as ana, Socket(client, code) as bo, Socket(client, code) as watcher:
        ana.hello(tokens[0])
        bo.hello(tokens[1])
        watcher.hello(None)
        client.post(f"/api/rooms/{code}/start", headers=host(room["host_token"]))
        secrets = hall_room.state.secrets
        deck, seed = hall_room.state.deck, str(hall_room.seed)
        first = ana.until(lambda s: s["view"] is not None)
        assert first["view"]["secret"] == secrets[0] and first["legal"]
        assert "secret" not in watcher.until(lambda s: s["view"] is not None)["view"]
        # round 1: everybody chooses at once, so Bo's choice made at turn 0 is not stale
        assert ana.act({"type": "pick", "number": 4}, turn=0)["type"] == "ack"
        assert bo.act({"type": "pick", "number": 6}, turn=0)["type"] == "ack"
        mid = watcher.sync()
        running_texts = {"ana": "".join(ana.texts), "bo": "".join(bo.texts), "watcher": "".join(watcher.texts)}
        # round 2, until the end
        ana.until(lambda s: s["view"]["round"] == 1 and 0 in s["to_act"])
        assert ana.act(PICK)["type"] == "ack"
        bo.until(lambda s: 1 in s["to_act"])
        assert bo.act(PICK)["type"] == "ack"
        final = watcher.until(lambda s: s["result"] is not None)
    assert mid["result"] is None
    assert secrets[0] in running_texts["ana"] and secrets[1] in running_texts["bo"]
    for who, text in running_texts.items():
        for seat, secret in enumerate(secrets):
            if (who, seat) not in (("ana", 0), ("bo", 1)):
                assert secret not in text, f"{who} received seat {seat}'s secret"
        assert deck not in text and seed not in text, f"{who} received the deck or the seed"
    own_lines = [line["text"] for line in ana.state["log"]]
    assert f"you picked 4 holding {secrets[0]}" in own_lines
    assert not any("holding" in line["text"] for line in final["log"])
    assert final["view"]["deck"] == deck  # the game reveals its deck at the end
    replay = client.get(f"/api/rooms/{code}/replay").json()
    assert str(replay["seed"]) == seed
    assert [action["type"] for _, action in replay["actions"]].count("pick") == 6
    assert all("holding" not in line for frame in replay["frames"] for line in frame["log"])


def test_a_bot_acts_on_its_seats_view_only(client, monkeypatch):
    seen: list[tuple] = []
    from parlour.bots.random_bot import RandomBot

    original = RandomBot.choose

    def spy(self, view, seat, legal):
        seen.append((seat, dict(view)))
        return original(self, view, seat, legal)

    monkeypatch.setattr(RandomBot, "choose", spy)
    room = new_room(client, "secrets", [bot("random"), bot("random")])
    with Socket(client, room["code"]) as watcher:
        watcher.hello(None)
        client.post(f"/api/rooms/{room['code']}/start", headers=host(room["host_token"]))
        watcher.until(lambda s: s["result"] is not None)
    secrets = client.app.state.hall.rooms[room["code"]].state.secrets
    replay = client.get(f"/api/rooms/{room['code']}/replay").json()
    assert len(seen) == len(replay["actions"]) >= 4  # one choice per action: 4 picks, maybe some thinking
    for seat, view in seen:
        assert view["secret"] == secrets[seat]
        assert secrets[1 - seat] not in repr(view)


def test_a_move_hidden_from_a_seat_reaches_it_as_nothing(client):
    code, tokens, _ = started_room(client, "secrets", turn_timer=600)
    with Socket(client, code) as ana, Socket(client, code) as bo, Socket(client, code) as watcher:
        ana.hello(tokens[0])
        bo.hello(tokens[1])
        watcher.hello(None)
        bo_before, watcher_before = bo.sync(), watcher.sync()
        heard_by_bo, heard_by_watcher = len(bo.received), len(watcher.received)
        assert ana.act({"type": "think"})["type"] == "ack"
        assert ana.act({"type": "think"}, turn=0, message_id="again")["code"] == "stale"  # a double click
        for _ in range(2):
            ana.sync()
            assert ana.act({"type": "think"})["type"] == "ack"
        assert (ana.sync()["turn"], ana.state["view"]["my_thoughts"]) == (3, 3)
        # Bo and the spectators got nothing: no state, no turn counted, the deadline unmoved
        bo_now, watcher_now = bo.sync(), watcher.sync()
        assert bo.received[heard_by_bo:] == [{"type": "pong"}]
        assert watcher.received[heard_by_watcher:] == [{"type": "pong"}]
        assert bo_now["turn"] == watcher_now["turn"] == 0
        assert bo_now["deadline"] == bo_before["deadline"] == watcher_before["deadline"] is not None
        assert client.get(f"/api/rooms/{code}").json()["turn"] == 0
        # Bo's choice, made on the state he has, is not stale: nothing concerning him happened
        assert bo.act({"type": "pick", "number": 5}, turn=0) == {"type": "ack", "id": "a", "turn": 1}
        ana.sync()
        assert ana.act({"type": "pick", "number": 2})["turn"] == 5
        bo_after = bo.until(lambda s: s["view"]["round"] == 1)
        watcher_after = watcher.until(lambda s: s["view"]["round"] == 1)
        ana_after = ana.sync()
    assert bo_after["turn"] == watcher_after["turn"] == 2
    assert [line["turn"] for line in bo_after["log"]] == [1, 1, 2, 2]
    assert [line["turn"] for line in watcher_after["log"]] == [1, 2, 2]
    assert not any("thought" in line["text"] for line in bo_after["log"] + watcher_after["log"])
    assert [line["turn"] for line in ana_after["log"]] == [1, 2, 3, 4, 5, 5, 5]
