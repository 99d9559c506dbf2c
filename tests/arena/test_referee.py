"""The referee against bots that misbehave in every way: each loses with the right reason, and
its whole process group is gone when the match ends."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from parlour.arena.match import Entrant, MatchTask, play_match
from parlour.bots.program import BotFailure, Program

HERE = Path(__file__).parent
MISBEHAVE = f"{sys.executable} {HERE / 'bots' / 'misbehave.py'}"


# Misdeeds that are not about time get roomy limits, so that a loaded machine cannot turn the
# bot's honest turns before them into timeouts; the timing cases set their own scale.
ROOMY = 10.0


def match(tmp_path: Path, mode: str, seat: int = 0, time_scale: float = ROOMY, extra: str = "") -> object:
    bad = Entrant("bad", f"{MISBEHAVE} {mode} {extra}".strip())
    good = Entrant("greedy", "builtin:greedy")
    entrants = (bad, good) if seat == 0 else (good, bad)
    return play_match(MatchTask(0, "patchwork", entrants, seed=5, time_scale=time_scale, logs=str(tmp_path)))


def assert_lost(record, seat: int, kind: str, *words: str) -> None:
    assert record.forfeit == seat
    assert record.ended.startswith(f"{kind}: bad (seat {seat + 1}) "), record.ended
    for word in words:
        assert word in record.ended, record.ended
    assert record.result["ranks"][seat] == 2 and record.result["winners"] == [1 - seat]
    assert record.replay["ended"] == record.ended


def gone(pid: int) -> bool:
    """The process no longer runs (reaped, or a zombie waiting for its new parent)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except (FileNotFoundError, ProcessLookupError):
        return True


@pytest.mark.parametrize("mode, kind, words", [
    ("segfault", "crash", ["killed by SIGSEGV"]),
    ("status", "crash", ["exited with status 3"]),
    ("exit", "exit", ["exited (status 0) before answering"]),
    ("garbage", "unparsable", ["'HELLO WORLD'", "unknown command 'HELLO'"]),
    ("megabytes", "unparsable", ["without a line ending"]),
    ("illegal", "illegal", ["there is no patch 99"]),
])
def test_each_misdeed_loses_with_its_reason(tmp_path, mode, kind, words):
    record = match(tmp_path, mode)
    assert_lost(record, 0, kind, *words)


@pytest.mark.parametrize("mode, scale, words", [
    ("timeout", 0.5, ["gave no answer within 500 ms", "on move 1"]),  # the first turn's limit
    ("slow@2", 4.0, ["within 200 ms", "on move"]),  # a later turn's limit
    ("nonewline@2", 4.0, ["within 200 ms"]),  # a line without its newline is no answer
])
def test_time_limits_are_kept(tmp_path, mode, scale, words):
    record = match(tmp_path, mode, time_scale=scale)
    assert_lost(record, 0, "timeout", *words)
    assert record.late == [1, 0]  # the cut-off turn is the bot's one late turn


def test_the_second_seat_loses_the_same_way(tmp_path):
    record = match(tmp_path, "garbage@3", seat=1)
    assert_lost(record, 1, "unparsable", "on move")
    assert len(record.replay["actions"]) == record.moves >= 3


def test_children_are_killed_with_the_bot(tmp_path):
    note = tmp_path / "child.pid"
    record = match(tmp_path, "children@2", time_scale=4.0, extra=str(note))
    assert_lost(record, 0, "timeout", "200 ms")
    child = int(note.read_text())
    deadline = time.monotonic() + 5
    while not gone(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gone(child), f"the bot's child {child} survived the match"


def test_a_bot_blocked_on_a_full_pipe_finishes_its_match_and_is_killed(tmp_path):
    # It never reads its input and answers SKIP thousands of times ahead: every answer is legal.
    record = match(tmp_path, "fullpipe")
    assert record.ended == "normal" and record.moves > 10


def test_a_bot_that_never_reads_a_large_input_times_out(tmp_path):
    bad = Entrant("bad", f"json:{MISBEHAVE} nonreader")
    record = play_match(MatchTask(0, "patchwork", (bad, Entrant("g", "builtin:greedy")), seed=5,
                                  time_scale=0.3, logs=str(tmp_path)))
    assert_lost(record, 0, "timeout", "300 ms")


def test_standard_error_goes_to_a_per_bot_log_and_is_capped(tmp_path):
    record = match(tmp_path, "stderr")
    # Writing past the limit fails (Python ignores SIGXFSZ and gets an error instead): a crash.
    assert_lost(record, 0, "crash")
    log = tmp_path / "match-0000-seat1-bad.log"
    assert 0 < log.stat().st_size <= 8 << 20


def test_a_command_that_cannot_start_loses_before_the_first_move(tmp_path):
    record = play_match(MatchTask(0, "patchwork", (Entrant("g", "builtin:greedy"),
                                                  Entrant("bad", str(tmp_path / "no-such-bot"))), seed=1))
    assert_lost(record, 1, "crash", "could not start")
    assert record.moves == 0


def test_program_exchanges_lines_and_keeps_what_follows():
    doubles = "import sys\nfor l in sys.stdin: print(l.strip()*2, flush=True); print('x')"
    with Program([sys.executable, "-c", doubles]) as p:
        assert p.exchange(b"ab\n", 5) == "abab"
        assert p.exchange(b"", 5) == "x"  # a second line already written is read next
        assert p.exchange(b"c\n", 5) == "cc"
    assert p.process.poll() is not None


def test_program_that_cannot_run_is_a_crash(tmp_path):
    with pytest.raises(BotFailure) as caught:
        Program([str(tmp_path / "missing")])
    assert caught.value.kind == "crash"


def test_a_programs_start_up_is_not_counted_in_its_first_turn():
    """The first turn's clock starts once the program begins to read its input (its start-up, up to
    ``start_up`` seconds, is not counted); from then on the turn's limit holds."""
    starts_slowly = "import sys, time\ntime.sleep(1.0)\nfor l in sys.stdin: print(l.strip(), flush=True)"
    with Program([sys.executable, "-c", starts_slowly]) as p:
        assert p.exchange(b"up\n", 0.5, start_up=20) == "up"
    thinks_slowly = "import sys, time\nsys.stdin.readline()\ntime.sleep(3)\nprint('late', flush=True)"
    with Program([sys.executable, "-c", thinks_slowly]) as p, pytest.raises(BotFailure, match="within 500 ms"):
        p.exchange(b"up\n", 0.5, start_up=20)
    never_reads = [sys.executable, "-c", "import time\ntime.sleep(30)"]  # the allowance ends
    with Program(never_reads) as p, pytest.raises(BotFailure, match="within 100 ms"):
        p.exchange(b"up\n", 0.1, start_up=0.2)


def test_a_leading_python_is_the_referees_interpreter(tmp_path, monkeypatch):
    """`json:python -m parlour.arena.serve ...` works as docs/bots.md writes it, whatever python is
    first on the PATH (here none is)."""
    from parlour.arena.match import program_argv

    assert program_argv("python3 -m parlour.arena.serve patchwork greedy")[0] == sys.executable
    assert program_argv("python bot.py")[:2] == [sys.executable, "bot.py"]
    assert program_argv("/usr/bin/python3 bot.py")[0] == "/usr/bin/python3"
    monkeypatch.setenv("PATH", str(tmp_path))
    served = Entrant("served", "json:python -m parlour.arena.serve patchwork random")
    record = play_match(MatchTask(0, "patchwork", (served, Entrant("g", "builtin:greedy")), seed=3,
                                  time_scale=ROOMY, logs=str(tmp_path)))
    assert record.ended == "normal" and record.moves > 10
