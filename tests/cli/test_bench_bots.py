"""``parlour bench bots`` runs end to end on a few bot accounts connected at once (loopback), each
challenged to two games at once, twice in a row: every bot online, every challenge accepted, every
game played to its end, no bot's clock running out (speed is printed, never asserted)."""

from __future__ import annotations

import json

import pytest

from parlour.cli import main


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_several_bots_at_once_play_every_game_to_its_end(capsys):
    assert main(["bench", "bots", "--bots", "4", "--games", "2", "--rounds", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["online"] == 4 and report["games_at_once"] == 8
    assert report["games"] == 16, report  # 8 people, 2 games each in a row
    assert report["forfeits"] == 0 and report["failed"] == 0 and report["errors"] == [], report
    assert report["ack_ms"]["moves"] >= 16 * 10 and report["bot_reply_ms"]["replies"] > 0, report
    assert 0 < report["challenge_ms"]["median"] <= report["challenge_ms"]["max"], report


def test_bench_bots_refuses_sizes_out_of_bounds_in_words():
    with pytest.raises(SystemExit, match="--bots 1 to 200"):
        main(["bench", "bots", "--bots", "0"])
    with pytest.raises(SystemExit, match="--games 1 to 20"):
        main(["bench", "bots", "--games", "21"])
