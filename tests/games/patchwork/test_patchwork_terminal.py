"""The terminal face of Patchwork: moves typed in words become actions; the drawing shows the game."""

from __future__ import annotations

import pytest
from patchwork_states import GAME, make_state, play
from rich.console import Console

from parlour.games.patchwork.terminal import parse_move, render, render_result

NO_SPECIAL = {"players": [{"special_patches": []}, {"special_patches": []}]}
HOLDING = {"players": [{"special_patches": [-20, -26]}, {"special_patches": []}]}


@pytest.mark.parametrize("text,action", [
    ("play 12 r1 f 3 4", play(12, 3, 4, 1, True)),
    ("p 12 3 4", play(12, 3, 4)),
    ("12 3 4", play(12, 3, 4)),
    ("12 rot 2 flip at 3,4", play(12, 3, 4, 2, True)),
    ("buy 12 rotate 3 at x3 y4", play(12, 3, 4, 3)),
    ("P 12 R1 F 3,4", play(12, 3, 4, 1, True)),
    ("PLAY 3 1 0 6 5", play(3, 6, 5, 1, False)),
    ("PLAY 3 2 1 6 5", play(3, 6, 5, 2, True)),
    ("play 12 x 3 y 4 r2", play(12, 3, 4, 2)),
    ("  play   7   r1   0 0  ", play(7, 0, 0, 1)),
    ("skip", {"type": "skip"}),
    ("S", {"type": "skip"}),
    ("pass", {"type": "skip"}),
    ("p 12 r 9 1 1", play(12, 1, 1, 9)),  # the engine, not the parser, refuses 9 turns
])
def test_moves_are_read_forgivingly(text, action):
    assert parse_move(text, NO_SPECIAL, 0) == action


@pytest.mark.parametrize("text,action", [
    ("sp 3 4", play(-20, 3, 4)),
    ("3 4", play(-20, 3, 4)),
    ("play -20 3 4", play(-20, 3, 4)),
    ("special at 8,8", play(-20, 8, 8)),
    ("p -26 0 0", play(-26, 0, 0)),  # the engine will say which one comes first
])
def test_special_patch_moves(text, action):
    assert parse_move(text, HOLDING, 0) == action


@pytest.mark.parametrize("text,words", [
    ("", "type a move"),
    ("dance", "do not understand 'dance'"),
    ("play", "which patch"),
    ("play 12", "where?"),
    ("play 12 3", "where?"),
    ("play 12 1 2 3", "where?"),
    ("play 12 r 3", "where?"),
    ("play 12 rot", "clockwise turns"),
    ("PLAY 3 1 2 6 5", "flip is 1 or 0"),
    ("sp 3 4", "no special patch"),
    ("play 12 x3", "where?"),
])
def test_moves_not_understood_say_why(text, words):
    with pytest.raises(ValueError, match=words):
        parse_move(text, NO_SPECIAL, 0)


def rendered(renderable) -> str:
    console = Console(width=100, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_the_drawing_shows_quilts_offer_prices_and_time_track():
    state = make_state(circle=(3, 1, 26) + tuple(range(4, 26)), buttons=(12, 2), time=(0, 4), last=1)
    state = GAME.apply(state, 0, play(3, 0, 0, 1, True))  # '.O|.O|.O|OO' at the top-left corner
    text = rendered(render(GAME.view(state, 1), 1, ["Ana", "Ben"]))
    assert "player 1: Ana" in text and "player 2: Ben" in text
    quilt_lines = [line for line in text.splitlines() if line.startswith("│ 3  ")]
    assert quilt_lines and quilt_lines[0][5:10] == "███ ·"  # row 3 of Ana's quilt: the foot of the L
    for words in ("patch 1", "patch 26", "patch 4", "3 buttons", "6 time", "2 income", "time track",
                  "next income at 5", "next special patch at 20", "buttons 2"):
        assert words in text, words
    track = next(line for line in text.splitlines() if "$" in line and "◆" in line and "track" not in line)
    assert len(track) == 54 and track[3] == "1" and track[4] == "2" and track[5] == "$" and track[20] == "◆"


def test_the_drawing_of_a_held_special_patch_and_of_the_end():
    state = make_state(time=(21, 20), pending=((-20,), ()))
    text = rendered(render(GAME.view(state, 0), 0, ["Ana", "Ben"]))
    assert "You must place" in text and "special patch -20" in text
    over = make_state(time=(53, 53), buttons=(9, 3), specials_left=(), first_home=0)
    text = rendered(render_result(GAME.view(over, 0), ["Ana", "Ben"]))
    assert "Final scores" in text and "Ana" in text and "47" in text and "41" in text
