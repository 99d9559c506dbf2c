"""``parlour bench abuse`` runs end to end on a few rooms (speed is not asserted: figures are in
docs/benchmarks.md)."""

from __future__ import annotations

import pytest

from parlour.cli import main


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_bench_abuse_reports_each_attack_with_latency_and_memory(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "250")
    assert main(["bench", "abuse", "--rooms", "2", "--seconds", "1", "--think", "0.5",
                 "--attack", "never-reads", "--attack", "room-flood"]) == 0
    out = capsys.readouterr().out
    assert "no attack" in out and "never-reads" in out and "room-flood" in out
    assert "429" in out  # the room flood met its quota
    assert "server peak memory" in out and "worst p99" in out and "load average" in out


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_bench_abuse_runs_a_sign_in_loop_that_meets_the_hashing_budget(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "250")
    assert main(["bench", "abuse", "--rooms", "2", "--seconds", "2", "--think", "0.5", "--attack", "sign-in-loop"]) == 0
    out = capsys.readouterr().out
    line = next(text for text in out.splitlines() if text.startswith("sign-in-loop"))
    assert "200:" in line and "429:" in line  # some sign-ins went through; the loop met the budget


@pytest.mark.timeout(240)
def test_bench_abuse_runs_issue_27s_attacks(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "250")
    assert main(["bench", "abuse", "--rooms", "2", "--seconds", "1.5", "--think", "0.5",
                 "--attack", "replay-frames", "--attack", "half-open", "--attack", "cycling-game",
                 "--attack", "chat-reconnect"]) == 0
    out = capsys.readouterr().out
    for attack in ("replay-frames", "half-open", "cycling-game", "chat-reconnect"):
        assert attack in out
    assert "actions in the file: 4000" in out  # the longest replay the hall takes
    assert "503" in out  # half-open connections past the cap per address were refused
    assert "rate_limited" in out  # the chat rate held across reconnections
    assert "moves" in out and "worst p99" in out
