"""Empire in the arena: the generic JSON protocol (a program, the repository's starter bot) and the
built-in bots play whole matches through the referee, and the replay rebuilds the game."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from parlour.arena.match import Entrant, MatchTask, play_match
from parlour.core import replay
from parlour.games import get

STARTER = Path(__file__).parents[3] / "examples" / "bots" / "generic" / "starter.py"
GAME = get("empire")
SLACK = 20.0  # about the protocol, not speed: a loaded machine must not turn these into timeouts


def assert_whole_match(record, names) -> None:
    assert record.ended == "normal", record.ended
    data = record.replay
    assert data["names"] == list(names)
    state = replay(GAME, data["players"], data["options"], data["seed"], data["actions"])
    assert GAME.is_over(state) and GAME.result(state).to_json(data["names"]) == data["result"]
    json.dumps(data)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_json_program_plays_the_detective(tmp_path, seed):
    entrants = (Entrant("program", f"json:{sys.executable} {STARTER}"), Entrant("detective", "builtin:detective"))
    if seed == 2:
        entrants = entrants[::-1]
    record = play_match(MatchTask(seed, "empire", entrants, seed=seed, logs=str(tmp_path), time_scale=SLACK))
    assert_whole_match(record, [e.name for e in entrants])
    assert "playing empire in seat" in next(tmp_path.glob("*program.log")).read_text()


def test_builtin_detective_and_random_play_in_the_arena(tmp_path):
    entrants = (Entrant("random", "builtin:random"), Entrant("detective", "builtin:detective"))
    for seed in range(4):
        record = play_match(MatchTask(seed, "empire", entrants, seed=seed, logs=str(tmp_path), time_scale=SLACK))
        assert_whole_match(record, ["random", "detective"])
