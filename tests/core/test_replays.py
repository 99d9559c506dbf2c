"""The replay format (parlour.core.replays): written, read back and checked in one place; played
back into states and into frames as a seat saw them."""

import random

import pytest

from parlour.core import replays
from parlour.core.replays import BadReplay
from parlour.games import get


def _played(game_id: str, seed: int, players: int = 2) -> tuple[dict, object]:
    game, rng = get(game_id), random.Random(seed)
    state, actions = game.start(players, {}, seed), []
    while not game.is_over(state):
        seat = min(game.to_act(state))
        action = game.random_action(state, seat, rng)
        actions.append((seat, action))
        state = game.apply(state, seat, action)
    replay = replays.record(game, players, game.resolve_options({}), seed, ["Ana", "Ben"], actions, game.result(state))
    return replay, state


def test_a_replay_is_written_in_the_documented_fields_and_reads_back_unchanged():
    replay, _ = _played("patchwork", 4)
    assert list(replay) == list(replays.FIELDS) and replay["format"] == "parlour-replay/1"
    assert replay["ended"] == "normal" and all(isinstance(move, list) for move in replay["actions"])
    assert replays.loads(replays.dumps(replay)) == replay
    assert "\n" not in replays.dumps(replay)


def test_playing_a_replay_back_reaches_the_final_state_with_every_log():
    game = get("empire")
    replay, final = _played("empire", 7)
    played = list(replays.states(game, replay))
    assert [number for number, _, _ in played] == list(range(len(replay["actions"]) + 1))
    assert played[-1][1] == final and played[0][2] == []
    assert any(log for _, _, log in played[1:])


def test_frames_show_the_game_as_a_seat_or_a_spectator_saw_it():
    game = get("empire")  # hidden roles: a seat sees its own, a spectator neither
    replay, final = _played("empire", 3)
    for seen_by in (None, 0, 1):
        frames = replays.frames(game, replay, seen_by)
        assert len(frames) == len(replay["actions"]) + 1
        assert frames[0]["turn"] == 0 and frames[0]["log"] == []
        assert frames[-1]["view"] == game.view(final, seen_by) and frames[-1]["to_act"] == []
        assert all("{p0}" not in line and "{p1}" not in line for f in frames for line in f["log"])
    assert replays.frames(game, replay, 0) != replays.frames(game, replay, 1)
    with pytest.raises(BadReplay, match="seats 0 to 1, not 2"):
        replays.frames(game, replay, 2)


def test_unnamed_seats_are_called_by_number():
    assert replays.names({"players": 3, "names": ["Ana"]}) == ["Ana", "seat 2", "seat 3"]
    assert replays.names({"players": 2}) == ["seat 1", "seat 2"]


@pytest.mark.parametrize("change, words", [
    ({"format": "parlour-replay/0"}, "is not a replay file (its format should be 'parlour-replay/1')"),
    ({"players": "two"}, "players must be a whole number of at least 1, not 'two'"),
    ({"players": 0}, "players must be a whole number of at least 1, not 0"),
    ({"seed": True}, "seed must be a whole number, not True"),
    ({"names": ["Ana", 3]}, "names must be a list of names"),
    ({"actions": [[0]]}, "actions must be a list of [seat, action] pairs"),
    ({"actions": [[0, {"type": "skip"}], [2, {"type": "skip"}]]}, "move 2 is by seat 2, but the seats are 0 to 1"),
    ({"options": []}, "options must be an object of options"),
])
def test_a_bad_replay_is_refused_in_words(change, words):
    replay, _ = _played("patchwork", 1)
    with pytest.raises(BadReplay) as refused:
        replays.check(dict(replay, **change), "game.json")
    assert words in str(refused.value) and str(refused.value).startswith("game.json")


def test_missing_fields_and_broken_json_are_named():
    replay, _ = _played("patchwork", 1)
    with pytest.raises(BadReplay, match="lacks result, ended"):
        replays.check({k: v for k, v in replay.items() if k not in ("result", "ended")})
    assert replays.check({k: v for k, v in replay.items() if k != "names"}, required=replays.REQUIRED)
    with pytest.raises(BadReplay, match=r"is not JSON \(Expecting value, line 1\)"):
        replays.loads("not json")
    with pytest.raises(BadReplay, match="not UTF-8"):
        replays.loads(b"\xff\xfe{")


def test_a_move_that_does_not_apply_is_named():
    game = get("patchwork")
    replay, _ = _played("patchwork", 2)
    replay["actions"][3] = [replay["actions"][3][0], {"type": "no such move"}]
    with pytest.raises(BadReplay, match="move 4 of the replay does not apply: "):
        list(replays.states(game, replay))
    with pytest.raises(BadReplay, match="move 4 of the replay does not apply: unknown action type"):
        replays.frames(game, replay)
