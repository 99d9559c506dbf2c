"""Issue 27, item 3: a game with no end. Every game has a cap on actions, declared in the game
contract and enforced by it (``Game.check_length``); a state message never carries an unbounded log;
Palace's endless rounds end by its repetition rule (tests/games/palace/test_palace_decisions.py)."""

from __future__ import annotations

import json

import pytest
from hallkit import OPEN, Socket, host, join, new_room, started_room
from test_players import as_guest, sign_up

import parlour.hall.web.feed as socket_module
from parlour.core import TooLong
from parlour.games import all_games


def play(client, code: str, tokens: list[str], moves: int) -> list[Socket]:
    """``moves`` actions, each the first legal one of the seat to act; the seats' sockets."""
    sockets = [Socket(client, code) for _ in tokens]
    for socket, token in zip(sockets, tokens):
        socket.send({"type": "hello", "token": token})
        socket.expect("welcome")
    for _ in range(moves):
        for socket in sockets:
            socket.sync()
        (seat,) = sockets[0].state["to_act"]
        mover = sockets[seat]
        answer = mover.act(mover.state["legal"][0])
        assert answer["type"] == "ack", answer
    return sockets


def test_every_game_declares_a_cap_on_actions_above_its_random_games():
    for game in all_games().values():
        assert 100 <= game.max_actions <= 10_000, game.id
        game.check_length(game.max_actions - 1)
        with pytest.raises(TooLong, match=f"at most {game.max_actions} actions"):
            game.check_length(game.max_actions)


def test_a_live_game_that_reaches_its_cap_ends_there_rated_recorded_and_shown(client, monkeypatch):
    """Issue 27: a room at its cap on actions is not merely stopped: the game ends with the result
    its rules document gives (docs/rules/patchwork.md: a draw), rated like any finished game, its
    replay marked ``"ended": "cap"``; an action past it is refused in words and not stored."""
    game = client.app.state.hall.games["patchwork"]
    monkeypatch.setattr(type(game), "max_actions", 4)
    sign_up(client, "Ana")
    room = new_room(client, "patchwork", [OPEN, OPEN], take_seat=0)
    code = room["code"]
    as_guest(client)
    sign_up(client, "Bo")
    bo = join(client, code, "Bo")
    client.post(f"/api/rooms/{code}/start", headers=host(room["host_token"])).raise_for_status()
    as_guest(client)
    sockets = play(client, code, [room["seat_token"], bo["seat_token"]], 4)
    for socket in sockets:
        final = socket.sync()  # the state after the last action
        assert final["room"]["status"] == "over" and final["to_act"] == [] and final["legal"] is None
        assert final["result"]["ranks"] == [1, 1] and "cap of 4 actions" in final["result"]["reason"]
        assert final["result"]["details"]["ended"] == "cap"
    refused = sockets[0].act({"type": "advance"})
    assert refused["type"] == "error" and refused["code"] == "over"
    assert len(client.app.state.hall.rooms[code].records) == 4
    for socket in sockets:
        socket.close()
    assert client.get(f"/api/rooms/{code}").json()["status"] == "over"
    replay = client.get(f"/api/rooms/{code}/replay").json()
    assert replay["ended"] == "cap" and replay["result"]["ranks"] == [1, 1] and len(replay["actions"]) == 4
    ana, bo_game = (client.get(f"/api/players/{name}").json()["recent"][0] for name in ("Ana", "Bo"))
    assert (ana["rank"], bo_game["rank"]) == (1, 1)  # rated: a draw between them
    assert ana["change"] is not None and bo_game["change"] is not None


def test_palace_at_its_cap_ends_as_a_repetition_does_and_stays_ended_after_a_restart(make_client, monkeypatch):
    """docs/rules/palace.md: a game that reaches the cap on actions (an old edition's endless round)
    ends as a repetition does: those out first, then by cards left, fewest first."""
    client = make_client()
    game = client.app.state.hall.games["palace"]
    monkeypatch.setattr(type(game), "max_actions", 9)
    code, tokens, _ = started_room(client, "palace", ("Ana", "Bo", "Cy"), options={"edition": 3})
    sockets = play(client, code, tokens, 9)
    final = sockets[0].sync()
    for socket in sockets:
        socket.close()
    assert final["result"] is not None, final["room"]["status"]
    room = client.app.state.hall.rooms[code]
    left = [len(room.state.hands[s]) + len(room.state.face_ups[s]) + len(room.state.face_downs[s]) for s in range(3)]
    ranks = final["result"]["ranks"]
    assert ranks == [1 + sum(1 for other in left if other < mine) for mine in left]
    assert "cap of 9 actions" in final["result"]["reason"] and final["to_act"] == []
    restarted = make_client()
    with Socket(restarted, code) as watcher:
        watcher.hello()
        state = watcher.sync()
        assert state["room"]["status"] == "over" and state["result"]["ranks"] == ranks and state["to_act"] == []


def test_a_state_message_carries_the_newest_lines_only(client, monkeypatch):
    monkeypatch.setattr(socket_module, "LOG_SENT", 5)
    code, tokens, _ = started_room(client)
    for socket in play(client, code, tokens, 12):
        socket.close()
    room = client.app.state.hall.rooms[code]
    lines = len(room.audience(None).lines)
    assert lines > 5
    with Socket(client, code) as late:  # a new spectator: its first state holds the newest 5 lines
        late.send({"type": "hello"})
        late.expect("welcome")
        first = late.receive()
        assert first["type"] == "state" and first["log_start"] == 0 and len(first["log"]) == 5
        newest = [json.loads(line)["text"] for line in room.audience(None).lines[-5:]]
        assert [line["text"] for line in first["log"]] == newest


def test_an_audience_keeps_the_newest_lines_and_connections_follow_on(client, monkeypatch):
    import parlour.hall.room.audience as audience_module

    monkeypatch.setattr(audience_module, "LOG_KEPT", 4)
    monkeypatch.setattr(socket_module, "LOG_SENT", 3)
    code, tokens, _ = started_room(client)
    watcher = Socket(client, code)
    watcher.send({"type": "hello"})
    watcher.expect("welcome")
    sockets = play(client, code, tokens, 14)
    watcher.sync()
    audience = client.app.state.hall.rooms[code].audience(None)
    assert audience.count > 8 and len(audience.lines) < 8 and audience.dropped > 0  # the oldest let go
    newest = [json.loads(line)["text"] for line in audience.lines[-3:]]
    assert [line["text"] for line in watcher.state["log"][-3:]] == newest  # followed on, line by line
    with Socket(client, code) as late:
        late.send({"type": "hello"})
        late.expect("welcome")
        first = late.receive()
        assert first["log_start"] == 0 and [line["text"] for line in first["log"]] == newest
    for socket in [*sockets, watcher]:
        socket.close()
