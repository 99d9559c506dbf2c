"""Patchwork's CodinGame protocol, byte for byte as the rules document's "Game Input/Output".

A bot reads, on its first turn only, the initialisation input::

    9                                   income events
    5 11 17 23 29 35 41 47 53           their times
    5                                   special-patch events
    20 26 32 44 50                      their times
    33                                  patches, then one line each in game order:
    7 1 3 2 OO.|.OO                     id earning button_price time_price shape

and on every turn (the first included)::

    5 0                                 my buttons, my time
    5 0 0                               opponent's buttons, time and income
    .........                           the opponent's quilt, 9 rows ('O' patched, '.' empty)
    ...
    3                                   playable patches: the three on offer (1: a special patch)
    12 2 5 5 OOO|.O.|.O.                id earning button_price time_price shape

and answers ``SKIP`` or ``PLAY id rotations flip x y`` (``flip`` 1 mirrors, any other number does not,
as the referee the document links to reads it: so the document's own example ``PLAY 3 1 2 6 5`` is
patch 3 turned once, unmirrored, at 6 5; docs/bots.md). What the program is told comes from its
seat's view only (Patchwork hides nothing). The game order of the initialisation input is the
circle at the start of the game, which the first view of a match holds.
"""

from __future__ import annotations

import re
from typing import Any

from ...core import Action, View
from .engine import INCOME_TIMES, PATCHES, SPECIAL, SPECIAL_TIMES, Patch

PLAY_FIELDS = ("patch", "rotation", "flip", "x", "y")
# A number as the CodinGame referee reads one: ASCII digits, a sign at most. (Python's int() would
# also take '1_0', spaces and the digits of other scripts.)
_NUMBER = re.compile(r"[+-]?[0-9]+")


def patch_line(p: Patch, pid: int) -> str:
    """``id earning button_price time_price shape``, as the referee prints a tile."""
    return f"{pid} {p.income} {p.price} {p.time} {p.shape}"


def initial_input(circle: list[int]) -> list[str]:
    """The initialisation lines: the time track's events and the 33 patches in game order."""
    return [str(len(INCOME_TIMES)), " ".join(map(str, INCOME_TIMES)),
            str(len(SPECIAL_TIMES)), " ".join(map(str, SPECIAL_TIMES)),
            str(len(circle))] + [patch_line(PATCHES[pid], pid) for pid in circle]


def turn_lines(view: View, seat: int) -> list[str]:
    """One turn's input for ``seat``, from its view."""
    me, opponent = view["players"][seat], view["players"][1 - seat]
    lines = [f"{me['buttons']} {me['time']}",
             f"{opponent['buttons']} {opponent['time']} {opponent['income']}"]
    lines += opponent["quilt"]
    if me["special_patches"]:
        lines += ["1", patch_line(SPECIAL, me["special_patches"][0])]
    else:
        offer = view["offer"]
        lines.append(str(len(offer)))
        lines += [patch_line(PATCHES[pid], pid) for pid in offer]
    return lines


def parse_output(line: str) -> Action:
    """The action of one line of output; ValueError saying why when it is no command.

    >>> parse_output("PLAY 3 1 1 6 5")
    {'type': 'play', 'patch': 3, 'rotation': 1, 'flip': True, 'x': 6, 'y': 5}
    >>> parse_output("PLAY 3 1 2 6 5")  # the document's example: only a 1 mirrors, as its referee reads it
    {'type': 'play', 'patch': 3, 'rotation': 1, 'flip': False, 'x': 6, 'y': 5}
    """
    words = line.split()
    if not words:
        raise ValueError("an empty line is no command (only SKIP or PLAY are allowed)")
    if words[0] == "SKIP":
        return {"type": "skip"}
    if words[0] == "PLAY":
        if len(words) < 6:
            raise ValueError("PLAY needs five numbers: PLAY id rotations flip x y")
        bad = next((w for w in words[1:6] if not _NUMBER.fullmatch(w)), None)
        if bad is not None:
            raise ValueError(f"PLAY needs five whole numbers written in digits 0-9: PLAY id rotations flip x y,"
                             f" and {bad!r} is not one")
        action: dict[str, Any] = {"type": "play", **dict(zip(PLAY_FIELDS, map(int, words[1:6])))}
        action["flip"] = action["flip"] == 1  # the referee: 1 mirrors, any other number does not
        return action
    raise ValueError(f"unknown command {words[0]!r} (only SKIP or PLAY are allowed)")


def format_action(action: Action) -> str:
    """The output line that asks for ``action`` (what a bot would print).

    >>> format_action({"type": "play", "patch": 3, "rotation": 1, "flip": True, "x": 6, "y": 5})
    'PLAY 3 1 1 6 5'
    """
    if action["type"] == "skip":
        return "SKIP"
    return (f"PLAY {action['patch']} {action.get('rotation', 0)} {int(action.get('flip', False))}"
            f" {action['x']} {action['y']}")


class CodinGameProtocol:
    """One seat's conversation with a program, for one match. ``opening`` is the seat's view
    of the game's first state, whose circle is the game order of the initialisation input."""

    name = "codingame"
    needs_legal = False

    def __init__(self, opening: View) -> None:
        self.circle = list(opening["circle"])

    def turn_input(self, view: View, seat: int, legal: list[Action] | None, first: bool) -> str:
        lines = (initial_input(self.circle) if first else []) + turn_lines(view, seat)
        return "\n".join(lines) + "\n"

    def parse(self, line: str, view: View, seat: int) -> Action:
        return parse_output(line)


def make_protocol(opening: View, seat: int) -> CodinGameProtocol:
    """The arena's entry point: a fresh protocol for one seat of one match."""
    return CodinGameProtocol(opening)
