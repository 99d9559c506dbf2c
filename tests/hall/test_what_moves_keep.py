"""What a room keeps per move stays out of Python's cyclic collector's sight (issue 25): a move that
left tracked objects behind for as long as its room lives brought a young pass of the collector,
which stops the whole hall for 20-50 ms, every few thousand moves (docs/benchmarks.md, session 19)."""

from __future__ import annotations

import tracemalloc

from gckit import count, table

from parlour.core import LogEntry
from parlour.games import get
from parlour.hall.room.audience import Audience, Audiences, LineWriter
from parlour.hall.room.history import History
from parlour.hall.store import ActionRecord
from parlour.hall.wire import dumps_bytes, kept, loads

# A move of Patchwork (two people, each sent its state) before issue 25's session 19: 10.5 tracked
# objects allocated and not freed, 7.6 of them kept (its record; each log line's entry and, in each
# of the three audiences, a tuple). Now 2.6 and 0.4: mostly its game state's own (Patchwork keeps
# each placed patch as a tuple), untracked by the first young pass. A record kept as an object
# again would be 2 more allocated (it and its action's dict) and 1 more kept.
ALLOCATED_A_MOVE = 4.0
KEPT_A_MOVE = 1.0


def test_a_move_leaves_next_to_nothing_for_the_collector() -> None:
    counted = count(240)
    assert counted.moves == 240
    assert counted.kept_total <= KEPT_A_MOVE * counted.moves, table(counted)
    assert counted.allocated <= ALLOCATED_A_MOVE * counted.moves, table(counted)


def test_the_history_gives_back_each_action_as_it_was_committed() -> None:
    records = [ActionRecord(0, 1, {"type": "play", "patch": 18, "flip": False, "as": None}, "player", 1800000000.125),
               ActionRecord(1, 0, {"type": "discard", "cards": [3, 1, 2]}, "bot", 1800000001.0),
               ActionRecord(2, 1, {"type": "claim", "amount": 2 ** 70, "name": "Ünï \"quoted\""}, "timer", 1e-7)]
    history = History(records[:1])
    for record in records[1:]:
        history.append(record)
    assert len(history) == 3 and list(history) == records and history == records
    assert history[0] == records[0] and history[-1] == records[2] and history[2].action["amount"] == 2 ** 70
    assert isinstance(history[:2], History) and history[:2] == records[:2] and history[3:] == []
    assert history == History(records) and history != History(records[:2]) and history != records[::-1]
    assert [r.at for r in history] == [1800000000.125, 1800000001.0, 1e-7]  # the times to the last bit
    history[1].action["cards"].append(9)  # what is read is a copy: the history is unchanged
    assert history[1].action["cards"] == [3, 1, 2]


def test_log_lines_written_again_with_new_names_keep_their_turns() -> None:
    audience = Audience(0)
    before = LineWriter(["Ana", "Bo"])
    audience.show(b"{}", [LogEntry("{p0} passed"), LogEntry("{p1} is told", frozenset({1}))], before, 0, actor=True)
    audience.show(b"{}", [LogEntry("{p1} took {p0}'s patch")], before, 1)
    assert [loads(line) for line in audience.lines] == [{"turn": 1, "text": "Ana passed"},
                                                        {"turn": 2, "text": "Bo took Ana's patch"}]
    audience.rename(LineWriter(["Ana", "Bo (bot)"]))
    assert [loads(line) for line in audience.lines] == [{"turn": 1, "text": "Ana passed"},
                                                        {"turn": 2, "text": "Bo (bot) took Ana's patch"}]
    assert audience.epoch == 1


def test_a_kept_line_holds_no_more_memory_than_its_text() -> None:
    """orjson returns its JSON in a buffer of at least 4 KiB: a line kept as it came would hold
    all of it for as long as its room lives."""
    value = {"turn": 12, "text": "Ana bought patch 7 for 3 buttons and moved 2 spaces"}
    tracemalloc.start()
    try:
        lines = [kept(dumps_bytes(value)) for _ in range(200)]
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert lines[0] == dumps_bytes(value)
    assert held < 200 * 256, f"{held / 200:.0f} bytes a line of {len(lines[0])}"


def test_a_state_messages_game_part_holds_no_more_memory_than_its_text() -> None:
    """Each audience keeps its game part until the next change: a Patchwork view at its start (850
    bytes) came in a buffer of 8 KiB."""
    game = get("patchwork")
    audiences = Audiences(game, 2, lambda: ["Ana", "Bo"], lambda: {"code": "ABCD"}, lambda: None)
    state = game.start(2, {}, 7)
    tracemalloc.start()
    try:
        parts = [audiences.game_part(state, 0) for _ in range(50)]
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(parts[0]) > 500 and held < 50 * 2 * len(parts[0]), f"{held / 50:.0f} bytes a part of {len(parts[0])}"
