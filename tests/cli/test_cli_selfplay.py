"""``parlour selfplay``: bots against bots, seats alternating, a table at the end."""

from __future__ import annotations

from parlour.cli import main
from parlour.cli.selfplay import GameRecord, play_one, summarise


def test_selfplay_prints_wins_scores_and_first_player_rate(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    assert main(["selfplay", "patchwork", "--bots", "greedy,random", "--games", "6", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "6/6" in out and "Patchwork: 6 games, seed 1" in out
    assert "greedy" in out and "random" in out and "average score" in out
    assert "first player's win rate" in out


def test_seats_alternate_and_games_replay():
    first = play_one(("patchwork", ("greedy", "random"), 1, 0, {}))
    second = play_one(("patchwork", ("greedy", "random"), 1, 1, {}))
    assert first.entries == (0, 1) and second.entries == (1, 0)
    assert play_one(("patchwork", ("greedy", "random"), 1, 0, {})) == first
    assert first.moves > 20


def test_summary_counts_wins_draws_and_the_first_seat():
    records = [GameRecord(0, (0, 1), (10, 5), (1, 2), 30), GameRecord(1, (1, 0), (7, 7), (1, 1), 30),
               GameRecord(2, (0, 1), (1, 9), (2, 1), 30)]
    summary = summarise(("greedy", "random"), records)
    greedy, random = summary["rows"]
    assert (greedy["wins"], greedy["draws"], greedy["losses"]) == (1, 1, 1)
    assert (random["wins"], random["draws"], random["losses"]) == (1, 1, 1)
    assert greedy["average_score"] == (10 + 7 + 1) / 3
    assert summary["first_player_win_rate"] == 1 / 3
    assert [r["bot"] for r in summarise(("greedy", "greedy"), records)["rows"]] == ["greedy #1", "greedy #2"]


def test_parallel_jobs_give_the_same_games(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    argv = ["selfplay", "patchwork", "--bots", "random,random", "--games", "4", "--seed", "9"]
    assert main(argv) == 0
    alone = capsys.readouterr().out.splitlines()[1:]
    assert main(argv + ["-j", "2"]) == 0
    together = capsys.readouterr().out.splitlines()[1:]
    assert alone == together


def test_bad_bots_are_refused(capsys):
    assert main(["selfplay", "patchwork", "--bots", "greedy,nobody", "--games", "2"]) == 2
    assert "no bot 'nobody'" in capsys.readouterr().err
    assert main(["selfplay", "patchwork", "--bots", "greedy", "--games", "2"]) == 2
    assert "played by 2 players" in capsys.readouterr().err


def test_game_options_from_the_command_line(capsys, monkeypatch):
    """--option NAME=VALUE is read by the option's kind, checked against the game's declared options,
    and reaches every game; anything else is refused in words before a game is played."""
    monkeypatch.setenv("COLUMNS", "160")
    argv = ["selfplay", "prestige_cities", "--bots", "random", "--games", "2", "--seed", "4"]
    assert main(argv + ["--option", "blight=yes", "--option", "deck1=cheap_labor"]) == 0
    out = capsys.readouterr().out
    assert "Prestige Cities: 2 games, seed 4" in out and "options: blight=True, deck1=cheap_labor" in out
    options = {"blight": True, "ocean": False, "mountains": False, "pregame": True, "deck1": "random",
               "deck2": "random", "deck3": "random", "deck4": "random", "edition": 2}
    with_blight = play_one(("prestige_cities", ("random",), 4, 0, options))
    assert with_blight != play_one(("prestige_cities", ("random",), 4, 0, {**options, "blight": False}))
    for option, words in (("blight=maybe", "true or false"), ("edition=0", "at least 1"),
                          ("deck1=nothing", "must be one of random, "),
                          ("sea=true", "has no option 'sea'; its options: blight (true or false, default false)"),
                          ("=true", "NAME=VALUE")):
        assert main(argv + ["--option", option]) == 2
        assert words in capsys.readouterr().err
    assert main(argv + ["--option", "ocean=1", "--option", "ocean=0"]) == 2
    assert "given twice" in capsys.readouterr().err
