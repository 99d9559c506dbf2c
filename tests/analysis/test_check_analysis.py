"""``python -m parlour.cli.check_analysis``: a move's analysis against play-outs by search bots, and a
duel between the two kinds of leaves (docs/bots.md, issue 33). Small numbers: what is printed and
that the play-outs finish games, not what they find."""

from __future__ import annotations

import pytest

from parlour.cli import check_analysis
from parlour.games import get


def test_a_move_is_judged_and_both_moves_played_out(capsys: pytest.CaptureFixture[str]) -> None:
    game = get("patchwork")
    found = check_analysis.check(game, ["random", "random"], seed=3, turn=5, think=0.0, playouts=2, fitted=True,
                                 iterations=(10, 20))
    assert found["judged"]["turn"] == 5 and found["mover"] == "random"
    assert all(0.0 <= share <= 1.0 and share * 2 == int(share * 2) for share in found["playouts"].values())
    assert check_analysis.hard_bot(game, 1, True)._evaluate == game.search.win_chance
    assert check_analysis.hard_bot(game, 1, False)._evaluate == game.search.evaluate
    assert check_analysis.main(["patchwork", "--levels", "random,random", "--turn", "3", "--playouts", "1",
                                "--iterations", "5,10"]) == 0
    out = capsys.readouterr().out
    assert "move 3 (random): the analysis prefers" in out and "played out 1 times each" in out


def test_a_duel_plays_each_deal_from_both_seats(capsys: pytest.CaptureFixture[str]) -> None:
    won, games = check_analysis.duel(get("patchwork"), 1, seed=5, iterations=(5, 10))
    assert games == 2 and 0.0 <= won <= 2.0
    assert check_analysis.main(["patchwork", "--duel", "1", "--iterations", "5,10"]) == 0
    out = capsys.readouterr().out
    assert "the fitted chance at the leaves won" in out and "of 2 games" in out
    with pytest.raises(SystemExit):
        check_analysis.main(["dinosaurs", "--duel", "1"])  # no fitted chance of winning to compare
    with pytest.raises(SystemExit):
        check_analysis.main(["patchwork", "--iterations", "9,3"])
    with pytest.raises(SystemExit):
        check_analysis.main(["patchwork", "--duel", "1", "--seconds", "0"])
    assert check_analysis.main(["patchwork", "--duel", "1", "--seconds", "0.002"]) == 0  # under the clock
    assert "0.002 s a move" in capsys.readouterr().out
