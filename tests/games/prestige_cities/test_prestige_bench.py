"""``parlour bench engine prestige_cities --players 4``: the figure of docs/benchmarks.md (speed
itself is never asserted)."""

from __future__ import annotations

from parlour.cli import main


def test_bench_engine_takes_the_number_of_players(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "140")
    assert main(["bench", "engine", "prestige_cities", "--players", "4", "--games", "2", "--runs", "1"]) == 0
    out = capsys.readouterr().out
    assert "4 players" in out and "games/s" in out
    assert main(["bench", "engine", "prestige_cities", "--players", "7"]) == 2
    assert "1 to 6 players" in capsys.readouterr().err
