"""A result's reason names the bots in the arena's replay files and in ``parlour replay``."""

from __future__ import annotations

import json

from parlour.arena.match import Entrant, MatchTask, play_match
from parlour.cli import main


def empire_replay(seed: int) -> dict:
    entrants = (Entrant("alpha", "builtin:random"), Entrant("beta", "builtin:random"))
    record = play_match(MatchTask(0, "empire", entrants, seed=seed))
    return record.replay


def test_the_replay_file_and_the_replay_command_name_the_accuser(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    data = next(d for d in map(empire_replay, range(1, 20)) if "accused" in d["result"]["reason"])
    reason = data["result"]["reason"]
    assert reason.startswith(("alpha accused", "beta accused")) and "{p" not in reason, reason
    path = tmp_path / "empire.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 0
    assert f": {reason}" in capsys.readouterr().out
    # a replay file written before reasons had names still shows them
    seat = ["alpha", "beta"].index(reason.split()[0])
    data["result"]["reason"] = reason.replace(reason.split()[0], f"{{p{seat}}}", 1)
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 0
    assert f": {reason}" in capsys.readouterr().out
