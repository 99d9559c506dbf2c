"""Issue 27, item 3: a game with no end. Every game has a cap on actions, declared in the game
contract and enforced by it (``Game.check_length``); a state message never carries an unbounded log;
Palace's endless rounds end by its repetition rule (tests/games/palace/test_palace_decisions.py)."""

from __future__ import annotations

import json

import pytest
from hallkit import Socket, started_room

import parlour.hall.web.socket as socket_module
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


def test_an_action_past_the_games_cap_is_refused_in_words_and_not_stored(client, monkeypatch):
    game = client.app.state.hall.games["patchwork"]
    monkeypatch.setattr(type(game), "max_actions", 4)
    code, tokens, _ = started_room(client)
    sockets = play(client, code, tokens, 4)
    for socket in sockets:
        socket.sync()
    (seat,) = sockets[0].state["to_act"]
    refused = sockets[seat].act(sockets[seat].state["legal"][0])
    assert refused["type"] == "error" and refused["code"] == "over"
    assert "at most 4 actions" in refused["message"]
    assert len(client.app.state.hall.rooms[code].records) == 4
    for socket in sockets:
        socket.close()


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
