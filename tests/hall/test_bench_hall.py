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
