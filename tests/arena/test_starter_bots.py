"""Bots written from the rules document alone, in Python and in C, and the generic JSON starter,
play whole matches through the referee."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from parlour.arena.match import Entrant, MatchTask, play_match
from parlour.core import replay
from parlour.games import get

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "examples" / "bots"
PYTHON_STARTER = f"{sys.executable} {EXAMPLES / 'patchwork' / 'starter.py'}"
# These tests are about the protocol, not speed: a loaded CI machine must not turn them into
# timeouts, so the document's limits are stretched (the referee's own tests pin the limits).
SLACK = 20.0


@pytest.fixture(scope="module")
def c_starter(tmp_path_factory) -> str:
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed")
    binary = tmp_path_factory.mktemp("c") / "starter"
    subprocess.run(["gcc", "-O2", "-Wall", "-Werror", "-Wno-unused-result", "-o", str(binary),
                    str(EXAMPLES / "patchwork" / "starter.c")], check=True)
    return str(binary)


def assert_whole_match(record, names) -> None:
    assert record.ended == "normal", record.ended
    game = get("patchwork")
    data = record.replay
    assert data["names"] == list(names)
    state = replay(game, data["players"], data["options"], data["seed"], data["actions"])
    assert game.is_over(state)
    assert game.result(state).to_json(data["names"]) == data["result"]


@pytest.mark.parametrize("seed", [1, 2])
def test_python_and_c_starters_play_each_other(tmp_path, c_starter, seed):
    entrants = (Entrant("python", PYTHON_STARTER), Entrant("c", c_starter))
    if seed == 2:
        entrants = entrants[::-1]
    record = play_match(MatchTask(seed, "patchwork", entrants, seed=seed, logs=str(tmp_path), time_scale=SLACK))
    assert_whole_match(record, [e.name for e in entrants])
    # Both bought patches: they read the protocol right, or they could not have placed them.
    assert all(any(a["type"] == "play" for s, a in record.replay["actions"] if s == seat) for seat in (0, 1))
    # The Python starter's debug line went to its own log.
    log = next(tmp_path.glob("*python.log")).read_text()
    assert "9 income events at [5, 11, 17, 23, 29, 35, 41, 47, 53]" in log


def test_c_starter_against_greedy(tmp_path, c_starter):
    record = play_match(MatchTask(0, "patchwork", (Entrant("greedy", "builtin:greedy"), Entrant("c", c_starter)),
                                  seed=11, logs=str(tmp_path), time_scale=SLACK))
    assert_whole_match(record, ["greedy", "c"])


def test_generic_json_starter_plays_a_whole_match(tmp_path):
    command = f"json:{sys.executable} {EXAMPLES / 'generic' / 'starter.py'}"
    record = play_match(MatchTask(0, "patchwork", (Entrant("json", command), Entrant("random", "builtin:random")),
                                  seed=4, logs=str(tmp_path), time_scale=SLACK))
    assert_whole_match(record, ["json", "random"])
    assert "playing patchwork in seat 0" in next(tmp_path.glob("*json.log")).read_text()


def test_a_builtin_bot_served_as_a_json_program_plays_a_whole_match(tmp_path):
    command = f"json:{sys.executable} -m parlour.arena.serve patchwork greedy"
    record = play_match(MatchTask(0, "patchwork", (Entrant("random", "builtin:random"), Entrant("greedy", command)),
                                  seed=6, logs=str(tmp_path), time_scale=SLACK))
    assert_whole_match(record, ["random", "greedy"])
