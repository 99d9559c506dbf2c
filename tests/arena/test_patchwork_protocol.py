"""Patchwork's CodinGame protocol: the input text byte for byte, and every output form."""

from __future__ import annotations

import pytest

from parlour.core import replay
from parlour.games import get
from parlour.games.patchwork.engine import PATCHES
from parlour.games.patchwork.protocol import CodinGameProtocol, format_action, parse_output

GAME = get("patchwork")
EMPTY_ROW = "........."


def test_first_turn_input_is_the_documents_initialisation_then_the_turn():
    state = GAME.start(2, {}, 7)
    view = GAME.view(state, 0)
    text = CodinGameProtocol(view).turn_input(view, 0, None, first=True)
    lines = text.split("\n")
    assert text.endswith("\n") and lines[-1] == ""
    # Lines 1-4: the income events and the special-patch events with their times.
    assert lines[:5] == ["9", "5 11 17 23 29 35 41 47 53", "5", "20 26 32 44 50", "33"]
    # Then the 33 patches in game order: id earning button_price time_price shape.
    patches = lines[5:38]
    assert [int(line.split()[0]) for line in patches] == list(state.circle)
    assert patches[-1] == "32 0 2 1 OO"  # the 2-square patch is always last
    assert "0 3 7 6 OO.|.OO" in patches and "6 1 1 4 ..O..|OOOOO|..O.." in patches
    # The turn: my buttons and time; the opponent's buttons, time and income; its 9 rows.
    assert lines[38:40] == ["5 0", "5 0 0"]
    assert lines[40:49] == [EMPTY_ROW] * 9
    # The playable patches: the three on offer.
    offer = state.circle[:3]
    assert lines[49] == "3"
    assert lines[50:53] == [f"{p} {PATCHES[p].income} {PATCHES[p].price} {PATCHES[p].time} {PATCHES[p].shape}"
                            for p in offer]
    assert len(lines) == 54


def test_later_turns_have_no_initialisation_and_show_the_opponent():
    state = GAME.start(2, {}, 7)
    protocol = CodinGameProtocol(GAME.view(state, 1))
    play = next(a for a in GAME.legal_actions(state, 0) if a["type"] == "play")
    state = GAME.apply(state, 0, play)
    me, opponent = GAME.view(state, 1)["players"][1], GAME.view(state, 1)["players"][0]
    lines = protocol.turn_input(GAME.view(state, 1), 1, None, first=False).split("\n")
    assert lines[0] == "5 0"
    assert lines[1] == f"{opponent['buttons']} {opponent['time']} {opponent['income']}"
    assert lines[2:11] == opponent["quilt"] and any("O" in row for row in lines[2:11])
    assert lines[11] == "3" and me["buttons"] == 5
    # The second seat's first turn still lists all 33 patches in the game's first order.
    first = protocol.turn_input(GAME.view(state, 1), 1, None, first=True).split("\n")
    assert [int(line.split()[0]) for line in first[5:38]] == list(GAME.start(2, {}, 7).circle)


def test_offer_is_listed_even_when_unaffordable():
    state = GAME.start(2, {}, 3)
    view = GAME.view(state, 0)
    lines = CodinGameProtocol(view).turn_input(view, 0, None, first=False).split("\n")
    assert lines[11] == "3" and len(GAME.playable(state, 0)) <= 3


def test_a_special_patch_turn_shows_one_patch_with_its_negative_id():
    # Skip until someone passes space 20 and wins the first special patch.
    state = GAME.start(2, {}, 1)
    while not any(state.pending):
        state = GAME.apply(state, state.mover, {"type": "skip"})
    seat = state.mover
    view = GAME.view(state, seat)
    lines = CodinGameProtocol(view).turn_input(view, seat, None, first=False).split("\n")
    assert lines[11:13] == ["1", "-20 0 0 0 O"]


@pytest.mark.parametrize("line, action", [
    ("SKIP", {"type": "skip"}),
    ("SKIP now", {"type": "skip"}),
    ("PLAY 3 1 1 6 5", {"type": "play", "patch": 3, "rotation": 1, "flip": True, "x": 6, "y": 5}),
    ("PLAY 3 2 0 6 5\r", {"type": "play", "patch": 3, "rotation": 2, "flip": False, "x": 6, "y": 5}),
    ("PLAY -20 0 0 4 4", {"type": "play", "patch": -20, "rotation": 0, "flip": False, "x": 4, "y": 4}),
    ("PLAY +3 1 1 6 5", {"type": "play", "patch": 3, "rotation": 1, "flip": True, "x": 6, "y": 5}),
])
def test_outputs_parse_to_actions(line, action):
    assert parse_output(line) == action
    assert parse_output(format_action(action)) == action


@pytest.mark.parametrize("line, words", [
    ("", "empty"), ("skip", "unknown command 'skip'"), ("MOVE 1 2", "unknown command 'MOVE'"),
    ("PLAY 3 1 1 6", "five numbers"), ("PLAY 3 one 1 6 5", "whole numbers"),
    ("PLAY 1_0 0 0 0 0", "'1_0' is not one"), ("PLAY \u0663 0 0 0 0", "digits 0-9"), ("PLAY 3 0 0 6 5.0", "'5.0'"),
    ("PLAY 3 0 0 6 \uff15", "digits 0-9"),
])
def test_unknown_commands_are_refused_in_words(line, words):
    with pytest.raises(ValueError, match=words):
        parse_output(line)


def test_the_documents_example_is_read_as_its_referee_reads_it():
    """`PLAY 3 1 2 6 5`: the fields in the order the document defines them (id, rotations, flip, x,
    y) and a flip of 2, which is not the 1 that mirrors: patch 3 turned once, unmirrored, at 6 5, as the
    CodinGame referee plays it (the sentence under the example reads the two numbers the other way)."""
    assert parse_output("PLAY 3 1 2 6 5") == {"type": "play", "patch": 3, "rotation": 1, "flip": False, "x": 6, "y": 5}
    assert parse_output("PLAY 3 0 -1 0 0")["flip"] is False and parse_output("PLAY 3 0 7 0 0")["flip"] is False
    state = replay(GAME, 2, {}, 1, [])
    patch = GAME.view(state, 0)["offer"][0]
    action = parse_output(f"PLAY {patch} 1 2 0 0")
    assert action == {**parse_output(f"PLAY {patch} 1 0 0 0"), "flip": False}
