"""``parlour bench``: targets dispatched by name; the engine target measures through the contract.
(Speed itself is never asserted.)"""

from __future__ import annotations

from parlour.cli import build_parser, main
from parlour.cli.bench import TARGETS
from parlour.cli.bench_engine import random_games
from parlour.games import get


def test_bench_engine_reports_games_and_moves_per_second(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    assert main(["bench", "engine", "patchwork", "--games", "3", "--runs", "2"]) == 0
    out = capsys.readouterr().out
    assert "games/s" in out and "moves/s" in out and "median:" in out and "load average" in out
    assert "per CPU second" in out


def test_random_games_play_to_the_end():
    cpu, wall, moves = random_games(get("patchwork"), 2, 2, seed=4)
    assert cpu > 0 and wall > 0 and moves > 40


def test_every_target_is_a_subcommand():
    parser = build_parser()
    for target in TARGETS:
        args = parser.parse_args(["bench", target, "patchwork"]) if target == "engine" else None
        assert args is None or args.target == target
    assert main(["bench", "engine", "patchwork", "--runs", "0"]) == 2
