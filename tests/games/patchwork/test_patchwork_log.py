"""Patchwork's log counts the quilt's squares from 1, as the rules page does (issue 28.9)."""

from __future__ import annotations

from patchwork_states import GAME, make_state, play

from parlour.core import LogEntry


def test_a_special_patch_is_logged_at_its_column_and_row_counted_from_1():
    state = make_state(time=(21, 20), pending=((), (-20,)))  # seat 1 is behind and holds a special patch
    log: list[LogEntry] = []
    GAME.apply(state, 1, play(-20, 0, 8), log)
    assert [entry.render(["Ana", "Ben"]) for entry in log] == [
        "Ben sewed the special patch onto the square at column 1, row 9"]
