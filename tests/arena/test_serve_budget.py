"""What a built-in bot served as a program is told of each turn (``parlour.arena.serve``): what is
left of the limit once the program's wait for a CPU and its reading are taken off, and less on a
machine that has lately kept it waiting. (How long it then thinks is the arena's to measure.)"""

from __future__ import annotations

import pytest

from parlour.arena import serve
from parlour.arena.serve import SHARE, told, waited_for_cpu


def test_the_bot_is_told_its_share_of_what_is_left_of_the_turn():
    assert told(0.05, late=0.0, reading=0.0, stalled=0.0) == pytest.approx(SHARE * 0.05)
    assert told(0.05, late=0.02, reading=0.001, stalled=0.0) == pytest.approx(SHARE * 0.029)


def test_a_program_kept_waiting_lately_is_told_less():
    assert told(0.05, late=0.0, reading=0.0, stalled=0.5) == pytest.approx(SHARE * 0.05 / 4)
    assert told(0.05, 0.0, 0.0, 0.9) < told(0.05, 0.0, 0.0, 0.5) < told(0.05, 0.0, 0.0, 0.1)


def test_a_turn_already_spent_still_leaves_a_millisecond():
    assert told(0.05, late=0.2, reading=0.0, stalled=0.0) == 0.001
    assert told(0.05, late=0.0, reading=0.0, stalled=1.0) == 0.001


def test_the_wait_for_a_cpu_is_linuxs_schedstat_or_nothing(monkeypatch, tmp_path):
    stat = tmp_path / "schedstat"
    stat.write_text("211400 5618000 2\n")  # on a CPU, waiting for one (nanoseconds), time slices
    monkeypatch.setattr(serve, "SCHEDSTAT", str(stat))
    assert waited_for_cpu() == pytest.approx(0.005618)
    stat.write_text("garbled\n")
    assert waited_for_cpu() == 0.0
    monkeypatch.setattr(serve, "SCHEDSTAT", str(tmp_path / "missing"))
    assert waited_for_cpu() == 0.0
