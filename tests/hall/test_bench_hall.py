"""``parlour bench hall`` runs end to end on a few rooms and checks the store (speed is not asserted)."""

from __future__ import annotations

import pytest

from parlour.cli import main


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_bench_hall_reports_moves_latency_and_a_complete_store(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["bench", "hall", "--rooms", "3", "--seconds", "1.5"]) == 0
    out = capsys.readouterr().out
    assert "acknowledged moves/s" in out and "median" in out and "p99" in out
    assert "every acknowledged move is in the store" in out and "load average" in out
    flat = " ".join(out.split())  # the console wraps its long lines where their numbers put the end
    assert "over 5 ms: in the hall" in flat and "the clients' event loop late" in flat  # where slow acks waited


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_bench_hall_asks_for_analyses_during_the_window(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["bench", "hall", "dinosaurs", "--rooms", "3", "--seconds", "6", "--think", "0.2",
                 "--analyses", "2"]) == 0
    out = capsys.readouterr().out
    said = next(line for line in out.splitlines() if line.startswith("alongside:"))
    judged = int(said.split(" and ")[1].split(" moves judged")[0])
    assert judged > 0 and "refused" not in said, said  # the worker judged moves while the rooms played
    flat = " ".join(out.split())
    assert " s of CPU and waited " in flat and " s for the busy hall" in flat  # hall/pacing.py, from /metrics
    assert "every acknowledged move is in the store" in out
    assert main(["bench", "hall", "--analyses", "2", "--servers", "1"]) != 0
    assert "one hall" in capsys.readouterr().err
    assert main(["bench", "hall", "--analyses", "-1"]) != 0
    assert "0 or more" in capsys.readouterr().err
