"""Tournaments: schedule, parallel play, the results table, ratings, replay files and
``parlour replay``; a misbehaving bot loses its matches and the tournament goes on."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from parlour.arena import replays, tournament
from parlour.arena.match import BadEntrant, Entrant, MatchRecord
from parlour.cli import main
from parlour.core import ParlourError
from parlour.games import get

MISBEHAVE = f"{sys.executable} {Path(__file__).parent / 'bots' / 'misbehave.py'}"


def test_schedule_swaps_seats_over_the_same_deals():
    a, b, c = Entrant("a", "builtin:random"), Entrant("b", "builtin:greedy"), Entrant("c", "builtin:random")
    tasks = tournament.schedule("patchwork", [a, b, c], players=2, games=4, seed=3)
    assert len(tasks) == 12 and [t.number for t in tasks] == list(range(12))
    ab = [t for t in tasks if set(t.entrants) == {a, b}]
    assert [t.entrants for t in ab] == [(a, b), (b, a), (a, b), (b, a)]
    assert ab[0].seed == ab[1].seed != ab[2].seed == ab[3].seed
    assert ab[0].seed == next(t for t in tasks if set(t.entrants) == {b, c}).seed
    with pytest.raises(ParlourError, match="given twice"):
        tournament.schedule("patchwork", [a, a], players=2, games=2, seed=1)


def test_entrants_are_name_equals_command():
    assert Entrant.parse("me=python3 bot.py --fast") == Entrant("me", "python3 bot.py --fast")
    assert Entrant.parse("g=builtin:greedy").builtin == "greedy"
    for bad in ("greedy", "=x", "me=", "g=builtin:"):
        with pytest.raises(BadEntrant):
            Entrant.parse(bad)


def record(number, names, ranks, scores, forfeit=None):
    return MatchRecord(number, names, {"result": {"ranks": ranks, "scores": scores}}, "normal", forfeit, 2,
                       [[0.01], [0.02]], 0.0)


def test_standings_count_wins_draws_losses_scores_and_rate():
    records = [record(0, ("a", "b"), [1, 2], [210, 200]), record(1, ("b", "a"), [1, 1], [205, 205]),
               record(2, ("a", "b"), [1, 2], [1, 0], forfeit=1)]
    a, b = tournament.standings([Entrant("a", "x"), Entrant("b", "y")], records)
    assert (a.name, a.wins, a.draws, a.losses, a.games) == ("a", 2, 1, 0, 3)
    assert (b.wins, b.draws, b.losses, b.forfeits) == (0, 1, 2, 1)
    assert a.average_score == (210 + 205) / 2  # a forfeited match has no real scores
    assert a.rating > b.rating and a.mu > b.mu
    assert a.win_rate_interval()[0] == pytest.approx(2.5 / 3)


def test_wilson_interval():
    rate, low, high = tournament.wilson(0, 10)
    assert rate == 0 and low == 0 and 0.25 < high < 0.35


def test_arena_command_plays_writes_replays_and_reports_early_ends(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    argv = ["arena", "patchwork", "--bot", "greedy=builtin:greedy", "--bot", "random=builtin:random",
            "--bot", f"bad={MISBEHAVE} garbage@2", "--games", "2", "--seed", "4", "-j", "2", "--time-scale", "5",
            "--replays", str(tmp_path / "replays"), "--logs", str(tmp_path / "logs")]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Patchwork: 6 games, seed 4" in out and "6/6" in out
    for column in ("wins", "draws", "losses", "avg score", "rating"):
        assert column in out
    assert "4 game(s) ended early" in out
    assert out.count("unparsable: bad (seat") == 4 and "'HELLO WORLD'" in out
    files = sorted((tmp_path / "replays").glob("*.json"))
    assert [f.name for f in files] == [f"patchwork-{n:04d}.json" for n in range(6)]
    data = [replays.read(f) for f in files]
    assert {tuple(d["names"]) for d in data} == {("greedy", "random"), ("random", "greedy"), ("greedy", "bad"),
                                                 ("bad", "greedy"), ("random", "bad"), ("bad", "random")}
    normal = [d for d in data if d["ended"] == "normal"]
    assert len(normal) == 2 and all(len(d["actions"]) > 20 for d in normal)
    early = [d for d in data if d["ended"] != "normal"]
    assert all(d["result"]["winners"] == [1 - d["names"].index("bad")] for d in early)


def test_replay_command_shows_moves_and_the_result(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    assert main(["arena", "patchwork", "--bot", "g=builtin:greedy", "--bot", "r=builtin:random",
                 "--games", "1", "--replays", str(tmp_path)]) == 0
    capsys.readouterr()
    path = tmp_path / "patchwork-0000.json"
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    data = json.loads(path.read_text())
    assert f"seed {data['seed']}: g, r; {len(data['actions'])} moves" in out
    assert "   1. g: g bought patch" in out or "   1. g: g skipped" in out
    winner = data["names"][data["result"]["winners"][0]]
    assert f"{winner} won" in out and "time track" in out
    assert main(["replay", str(path), "--at", "3"]) == 0
    assert "player 1: g" in capsys.readouterr().out


def test_replay_command_refuses_what_is_not_a_replay(tmp_path, capsys):
    bad = tmp_path / "x.json"
    bad.write_text('{"format": "something else"}')
    assert main(["replay", str(bad)]) == 2
    assert "is not a replay file" in capsys.readouterr().err


def test_arena_refuses_unknown_builtin_bots(capsys):
    assert main(["arena", "patchwork", "--bot", "a=builtin:nobody", "--bot", "b=builtin:greedy"]) == 2
    assert "no bot 'nobody'" in capsys.readouterr().err


def test_the_hall_shows_arena_replays_even_of_matches_ended_early(tmp_path):
    from fastapi.testclient import TestClient

    from parlour.arena.match import MatchTask, play_match
    from parlour.games import all_games
    from parlour.hall import create_app
    from parlour.hall.store import SqlStore

    class Clock:
        def now(self) -> float:
            return 1_800_000_000.0

    normal = play_match(MatchTask(0, "patchwork", (Entrant("g", "builtin:greedy"), Entrant("r", "builtin:random")), 8))
    bad = Entrant("bad", f"{MISBEHAVE} illegal@3")
    early = play_match(MatchTask(1, "patchwork", (Entrant("g", "builtin:greedy"), bad), 8, time_scale=10))
    assert early.ended.startswith("illegal: bad (seat 2)")
    store = SqlStore(f"sqlite:///{tmp_path / 'hall.sqlite3'}")
    try:
        with TestClient(create_app(store, all_games(), Clock())) as client:
            for record in (normal, early):
                path = replays.write(tmp_path, record.number, record.replay)
                answer = client.post("/api/replays/frames", json=json.loads(path.read_text()))
                assert answer.status_code == 200, answer.text
                body = answer.json()
                assert len(body["frames"]) == record.moves + 1 and body["ended"] == record.ended
    finally:
        store.close()


def test_replay_files_hold_resolved_options_and_old_files_replay_by_legacy_values():
    """A replay file holds every option resolved; a file without an option predates it and replays by
    the option's legacy value (Palace's rules edition 1)."""
    from parlour.arena.match import MatchTask, play_match
    from parlour.core import replays as core_replays

    record = play_match(MatchTask(0, "palace", (Entrant("a", "builtin:random"), Entrant("b", "builtin:random")), 3))
    assert record.replay["options"] == {"edition": 4}
    played = list(core_replays.states(get("palace"), record.replay))
    assert played[-1][1].edition == 4 and get("palace").is_over(played[-1][1])
    old = dict(record.replay, options={}, actions=[])
    assert next(core_replays.states(get("palace"), old))[1].edition == 1


def test_arena_tables_are_whole_on_a_pipe_and_come_as_csv_or_json(tmp_path, capsys, monkeypatch):
    """Standard output that is no terminal (here captured) gets the table at its natural width, not
    cut to 80 columns; --format csv and json put the results on standard output as data."""
    monkeypatch.delenv("COLUMNS", raising=False)
    bots = ["--bot", "greedy=builtin:greedy", "--bot", "random=builtin:random", "--games", "2", "--seed", "3",
            "--logs", str(tmp_path)]
    assert main(["arena", "patchwork", *bots]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if "win rate (95%)" in line)
    for column in ("bot", "games", "wins", "draws", "losses", "avg score", "rating", "failed", "ms/move", "late"):
        assert f" {column} " in header, header
    assert "…" not in out and len(header) > 80
    assert main(["arena", "patchwork", *bots, "--format", "csv"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0].startswith("bot,games,wins,draws,losses,win_rate,") and len(lines) == 3
    assert {line.split(",")[0] for line in lines[1:]} == {"greedy", "random"} and "Patchwork" in captured.err
    assert main(["arena", "patchwork", *bots, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2 and data["options"] == {}
    assert {row["bot"] for row in data["standings"]} == {"greedy", "random"}
    assert sum(row["wins"] + row["draws"] / 2 for row in data["standings"]) == 2


def test_arena_takes_game_options_checked_in_words(tmp_path, capsys):
    bots = ["--bot", "a=builtin:random", "--bot", "b=builtin:random", "--games", "2", "--logs", str(tmp_path),
            "--format", "json"]
    assert main(["arena", "palace", *bots, "--option", "edition=1", "--replays", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out)["options"] == {"edition": 1}
    assert replays.read(tmp_path / "palace-0000.json")["options"] == {"edition": 1}
    for option, words in (("edition=5", "at most 4"), ("edition=two", "whole number"),
                          ("colour=red", "no option 'colour'"), ("edition", "NAME=VALUE")):
        assert main(["arena", "palace", *bots, "--option", option]) == 2
        assert words in capsys.readouterr().err
