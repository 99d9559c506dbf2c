"""CodinGame's live Patchwork protocol (``cg-live:``): its input byte for byte as the live referee
(../shared/anchors/cg-patchwork/Referee.kt) writes it, its moves as that referee reads and corrects
them, and the level-5 league boss playing whole games through ``parlour arena``."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from parlour.arena.cg_live import CgLiveProtocol, corrected, parse_move
from parlour.arena.match import BadEntrant, Entrant, check_entrant
from parlour.cli import main
from parlour.games import get
from parlour.games.patchwork.engine import PATCHES

GAME = get("patchwork")
EMPTY = "........."
ANCHORS = Path(__file__).resolve().parents[3] / "shared" / "anchors" / "cg-patchwork"
if not ANCHORS.exists():  # a worktree beside the project: shared/ is two levels up from it
    ANCHORS = Path("/work/shared/anchors/cg-patchwork")


def patch_line(pid: int) -> str:
    p = PATCHES[pid]
    return f"{pid} {p.income} {p.price} {p.time} {p.shape}"


def test_first_turn_input_is_the_live_referees():
    state = GAME.start(2, {}, 7)
    view = GAME.view(state, 0)
    lines = CgLiveProtocol(view, 0).turn_input(view, 0, None, first=True).split("\n")
    assert lines[-1] == ""  # every line ends with a newline
    expected = ["9", "5 11 17 23 29 35 41 47 53", "5", "20 26 32 44 50",
                "5 0 0", *[EMPTY] * 9,  # my buttons, time, earning; my quilt
                "5 0 0", *[EMPTY] * 9,  # the opponent's
                "33", *[patch_line(p) for p in state.circle],  # every remaining patch, in order
                "0",  # no special patch
                "0", ""]  # no opponent move yet
    assert lines == expected
    assert lines[-4] == "32 0 2 1 OO"  # the 2-square patch is last


def test_the_opponents_moves_are_logged_as_the_referee_writes_them():
    state = GAME.start(2, {}, 7)
    protocol = CgLiveProtocol(GAME.view(state, 1), 1)
    play = next(a for a in GAME.legal_actions(state, 0) if a["type"] == "play" and a["rotation"] == 1)
    offer = play["patch"]
    state = GAME.apply(state, 0, play)
    while GAME.to_act(state) == {0}:  # seat 0 may move again; then it skips past seat 1
        state = GAME.apply(state, 0, {"type": "skip"})
    view = GAME.view(state, 1)
    lines = protocol.turn_input(view, 1, None, first=True).split("\n")
    moves = lines[lines.index("0", 4 + 20 + 1 + len(view["circle"])) + 1:]
    assert moves[0] == "1"
    assert moves[1] == f"PLAY {offer} {play['x']} {play['y']} {int(play['flip'])} {play['rotation']}"
    assert moves[2:] == [""]
    me, opp = view["players"][1], view["players"][0]
    assert lines[4:14] == [f"{me['buttons']} {me['time']} {me['income']}", *me["quilt"]]
    assert lines[14:24] == [f"{opp['buttons']} {opp['time']} {opp['income']}", *opp["quilt"]]
    assert lines[24] == str(len(view["circle"])) == "32"


def test_a_skip_and_the_special_patches_it_wins_are_logged_in_order():
    start = GAME.state_to_json(GAME.start(2, {}, 3))
    state = GAME.state_from_json({**start, "time": [19, 25], "last": 1})  # seat 0, behind, to move
    protocol = CgLiveProtocol(GAME.view(state, 1), 1)
    protocol.after = state  # as if seat 1 had just moved
    state = GAME.apply(state, 0, {"type": "skip"})  # to 26: past space 20 and onto 26
    assert state.pending[0] == (-20, -26)
    view = GAME.view(state, 0)
    lines = CgLiveProtocol(view, 0).turn_input(view, 0, None, first=False).split("\n")
    assert lines[20 + 1 + len(view["circle"])] == "-20"  # the special patch to place: its id
    state = GAME.apply(state, 0, {"type": "play", "patch": -20, "rotation": 0, "flip": False, "x": 4, "y": 4})
    state = GAME.apply(state, 0, {"type": "play", "patch": -26, "rotation": 1, "flip": True, "x": 0, "y": 8})
    view = GAME.view(state, 1)
    lines = protocol.turn_input(view, 1, None, first=False).split("\n")
    assert lines[-5:] == ["3", "SKIP", "PLAY -20 4 4 0 0", "PLAY -26 0 8 1 1", ""]
    assert lines[-6] == "0"  # seat 1 holds no special patch


def test_moves_are_read_as_the_referee_reads_them():
    assert parse_move("SKIP") == {"type": "skip"}
    assert parse_move("SKIP and a message") == {"type": "skip"}
    assert parse_move("PLAY 3 6 5 1 2") == {"type": "play", "patch": 3, "rotation": 2, "flip": True, "x": 6, "y": 5}
    assert parse_move("PLAY 3 6 5 0 7")["rotation"] == 3  # rotations modulo 4
    assert parse_move("PLAY 3 6 5 2 1")["flip"] is False  # only a 1 mirrors
    assert parse_move("PLAY 3 6 5 1 -1") == {"type": "play", "patch": 3, "rotation": 3, "flip": False,
                                             "x": 6, "y": 5}  # Kotlin: all[4 + (-1)]
    assert parse_move("PLAY -20 0 0") == {"type": "play", "patch": -20, "rotation": 0, "flip": False, "x": 0, "y": 0}
    for bad in ("", " SKIP", "skip", "PLAY", "PLAY 3 6", "PLAY 3  6 5", "PLAY 3 x 5", "PLAY 3 6 5 0 -1",
                "PLAY 99999999999 0 0", "PASS"):
        with pytest.raises(ValueError):
            parse_move(bad)


def test_impossible_moves_are_corrected_as_the_referee_does():
    state = GAME.start(2, {}, 7)
    not_offered = state.circle[5]
    action, why = corrected(state, 0, parse_move(f"PLAY {not_offered} 0 0"))
    assert action == {"type": "skip"} and why is not None and "SKIP instead" in why
    offered = next(p for p in state.circle[:3] if PATCHES[p].price <= 5)
    assert corrected(state, 0, parse_move(f"PLAY {offered} 8 8"))[0] == {"type": "skip"}  # off the quilt
    assert corrected(state, 0, parse_move(f"PLAY {offered} 0 -1"))[0] == {"type": "skip"}  # docs/bots.md: a negative y
    dear = next((p for p in state.circle[:3] if PATCHES[p].price > 5), None)
    if dear is not None:
        assert corrected(state, 0, parse_move(f"PLAY {dear} 0 0"))[0] == {"type": "skip"}
    fine = next(a for a in GAME.legal_actions(state, 0) if a["type"] == "play")
    assert corrected(state, 0, fine) == (fine, None)
    # holding the special patch: SKIP (or an impossible PLAY) sews it on the first empty square
    holding = GAME.state_from_json({**GAME.state_to_json(state), "pending": [[-20], []],
                                    "quilts": [0b111, 0]})
    for line in ("SKIP", "PLAY -20 0 0", f"PLAY {offered} 3 3"):
        action, why = corrected(holding, 0, parse_move(line))
        assert action == {"type": "play", "patch": -20, "rotation": 0, "flip": False, "x": 3, "y": 0}, line
        assert why and "first empty square" in why


def test_cg_live_is_for_patchwork_only_and_needs_a_command():
    with pytest.raises(BadEntrant):
        Entrant.parse("boss=cg-live:")
    with pytest.raises(BadEntrant, match="Patchwork"):
        check_entrant(get("palace"), Entrant.parse("boss=cg-live:java Player"))


@pytest.fixture(scope="module")
def boss(tmp_path_factory) -> Path:
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("javac is missing (Debian's openjdk-17-jdk-headless; make test installs it)")
    source = ANCHORS / "Boss5.java"
    if not source.exists():
        pytest.skip(f"the anchor {source} is missing")
    folder = tmp_path_factory.mktemp("boss5")
    shutil.copy(source, folder / "Player.java")  # its class is Player
    subprocess.run(["javac", "-d", str(folder), str(folder / "Player.java")], check=True, timeout=300)
    return folder


def test_the_level5_boss_plays_whole_games_through_the_arena(boss, tmp_path, capsys):
    code = main(["arena", "patchwork", "--bot", f"boss=cg-live:java -cp {boss} Player",
                 "--bot", "greedy=builtin:greedy",
                 "--games", "4", "--time-scale", "5", "--logs", str(tmp_path / "logs"), "--format", "json",
                 "--replays", str(tmp_path / "replays")])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 4 and out["ended_early"] == []
    boss_row = next(row for row in out["standings"] if row["bot"] == "boss")
    assert boss_row["failed"] == 0 and boss_row["games"] == 4 and boss_row["moves"] > 4 * 10
    for replay in (tmp_path / "replays").glob("*.json"):
        data = json.loads(replay.read_text())
        assert data["result"]["reason"] != "" and "forfeit" not in data["result"].get("details", {})


def test_the_rules_documents_protocol_stays_the_default(boss, tmp_path, capsys):
    """The boss speaks the live protocol: spoken to in the rules document's, it fails every game."""
    code = main(["arena", "patchwork", "--bot", f"boss=java -cp {boss} Player", "--bot", "greedy=builtin:greedy",
                 "--games", "2", "--time-scale", "5", "--logs", str(tmp_path / "logs"), "--format", "json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["ended_early"]) == 2


LINE_COUNTING_BOT = '''
import sys
read = sys.stdin.readline
for _ in range(4):  # the initialisation input
    read()
while True:
    for _ in range(20):  # my buttons, time, earning and quilt; the opponent's
        read()
    for _ in range(int(read())):  # the patches
        read()
    read()  # the special patch
    for _ in range(int(read())):  # the opponent's moves
        read()
    print("PLAY 99 0 0", flush=True)  # never a patch on offer: the live referee makes it SKIP
'''


def test_a_program_that_reads_every_line_gets_its_impossible_moves_corrected(tmp_path, capsys):
    bot = tmp_path / "stubborn.py"
    bot.write_text(LINE_COUNTING_BOT)
    code = main(["arena", "patchwork", "--bot", f"stubborn=cg-live:python {bot}", "--bot", "greedy=builtin:greedy",
                 "--games", "2", "--time-scale", "5", "--logs", str(tmp_path / "logs"), "--format", "json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ended_early"] == []  # every game played to its end: the line counts are the referee's
    logs = "\n".join(p.read_text() for p in (tmp_path / "logs").glob("*stubborn*.log"))
    assert "parlour referee: turn 1: 'PLAY 99 0 0': PLAY refused" in logs and "SKIP instead" in logs
