"""Issue 13, finding 3: actions are checked against the game's own fields before they are applied
or stored; what is stored is the normalised action, and a replay can always be served."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hallkit import Socket, started_room

from parlour.core import IllegalAction, normalise_action
from parlour.games import all_games
from parlour.hall.room.commands import Act
from parlour.hall.text import REASON_MAX

PLAY = {"type": "skip"}


def stored_actions(client: Any, code: str) -> list[dict[str, Any]]:
    record = client.app.state.hall.store.load_room(code)
    return [a.action for a in record.actions]


@pytest.mark.parametrize("extra", [{"pad": "x" * 60_000}, {"deep": {"k": [[[[[[[[[[1]]]]]]]]]]}}])
def test_a_legal_action_with_extra_fields_is_refused_and_nothing_stored(client, extra):
    code, tokens, _ = started_room(client)
    with Socket(client, code) as socket:
        socket.hello(tokens[0])
        turn = socket.state["turn"]
        error = socket.act({**PLAY, **extra})
        assert error["type"] == "error" and error["code"] == "illegal"
        assert "a 'skip' action takes no" in error["message"] and len(error["message"]) <= REASON_MAX
        assert socket.sync()["turn"] == turn
        assert stored_actions(client, code) == []
        assert socket.act(PLAY)["type"] == "ack"  # the same action without them is taken
    assert stored_actions(client, code) == [PLAY]


@pytest.mark.parametrize("action, words", [
    ({"type": "play", "patch": "3", "rotation": 0, "x": 0, "y": 0}, "'patch' to be a whole number"),
    ({"type": "play", "patch": True, "rotation": 0, "x": 0, "y": 0}, "'patch' to be a whole number"),
    ({"type": "play", "patch": 3, "rotation": 0, "x": 0}, "needs 'y'"),
    ({"type": "play", "patch": 3, "rotation": 0, "flip": "no", "x": 0, "y": 0}, "'flip' to be true or false"),
    ({"type": "jump"}, "unknown action type 'jump'"),
    ({"type": "s" * 5000}, "at most 64 characters"),
])
def test_wrong_kinds_are_refused_in_words(client, action, words):
    code, tokens, _ = started_room(client)
    with Socket(client, code) as socket:
        socket.hello(tokens[0])
        error = socket.act(action)
    assert error["code"] == "illegal" and words in error["message"], error
    assert stored_actions(client, code) == []


def test_what_is_stored_is_the_normalised_action(client):
    code, tokens, _ = started_room(client)
    room = client.app.state.hall.rooms[code]
    with Socket(client, code) as ana, Socket(client, code) as bo:
        sockets = [ana, bo]
        ana.hello(tokens[0])
        bo.hello(tokens[1])
        for _ in range(60):  # skip until the seat to act can afford a patch (some deals offer none at first)
            seat = min(room.game.to_act(room.state))
            plays = [a for a in room.game.legal_actions(room.state, seat) if a["type"] == "play"]
            if plays:
                break
            sockets[seat].sync()
            assert sockets[seat].act({"type": "skip"})["type"] == "ack"
        play = plays[0]
        reordered = {key: play[key] for key in reversed(list(play))}
        sockets[seat].sync()
        assert sockets[seat].act(reordered)["type"] == "ack"
    stored = stored_actions(client, code)[-1]
    assert stored == play and list(stored) == list(play)  # the game's own order: type first


def nested(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


def test_a_game_stored_with_padding_before_the_check_still_replays(make_client):
    """A finished game whose actions carry fields nobody read (stored by an older hall) serves
    its replay, without them."""
    client = make_client()
    code, tokens, _ = started_room(client, "secrets", ("Ana", "Bo"))
    room = client.app.state.hall.rooms[code]
    game = room.game
    padding = {"pad": "x" * 1000, "deep": nested(200)}  # neither is a flat field
    game.normalise = lambda action: action  # the hall before the check
    try:
        while room.status != "over":
            seat = min(game.to_act(room.state))
            pick = next(a for a in game.legal_actions(room.state, seat) if a["type"] == "pick")
            client.portal.call(room.handle, Act(seat, room.audience(seat).turn, {**pick, **padding}))
    finally:
        del game.normalise
    assert all("pad" in action for action in stored_actions(client, code))
    again = make_client()  # a restart: the finished game comes back from the store
    answer = again.get(f"/api/rooms/{code}/replay")
    assert answer.status_code == 200
    assert answer.json()["actions"] and all(set(a) == {"type", "number"} for _, a in answer.json()["actions"])


def test_a_game_without_declared_fields_gets_the_generic_check():
    assert normalise_action(None, {"type": "pick", "number": 3}) == {"type": "pick", "number": 3}
    for bad in ({"type": "pick", "number": {"nested": 1}}, {"type": "pick", **{f"k{i}": 1 for i in range(20)}},
                {"type": "pick", "number": "n" * 65}, {"type": "pick", "k" * 65: 1}):
        with pytest.raises(IllegalAction):
            normalise_action(None, bad)


def test_the_lenient_reading_drops_unknown_fields_only():
    fields = {"skip": {}}
    assert normalise_action(fields, {"type": "skip", "pad": 1}, lenient=True) == {"type": "skip"}
    with pytest.raises(IllegalAction):
        normalise_action(fields, {"type": "skip", "pad": 1})


def every_option_on(game: Any) -> dict[str, Any]:
    return {o.name: True for o in game.options if o.kind == "bool"}


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_every_legal_action_of_every_game_normalises_to_itself(game_id):
    """The contract: a game's action_fields cover every action it lists (options on and off)."""
    game = all_games()[game_id]
    for players in range(game.min_players, game.max_players + 1):
        for options in ({}, every_option_on(game)):
            rng, state, moves = random.Random(players), game.start(players, options, players), 0
            while not game.is_over(state) and moves < 400:
                for seat in game.to_act(state):
                    for action in game.legal_actions(state, seat)[:200]:
                        assert game.normalise(action) == action, (game_id, action)
                seat = min(game.to_act(state))
                state = game.apply(state, seat, game.random_action(state, seat, rng))
                moves += 1
