"""``parlour bench rl``: PettingZoo steps per second next to the engine's (speed is never asserted)."""

from __future__ import annotations

import pytest

from parlour.cli import main


def test_bench_rl_reports_steps_and_the_wrapper_s_share(capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["bench", "rl", "dinosaurs", "--games", "2", "--runs", "1", "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert "PettingZoo steps/s" in out and "engine moves/s" in out and "median:" in out
    assert "the wrapper's part of a step is" in out and "load average" in out
    assert main(["bench", "rl", "palace", "--runs", "0"]) == 2
