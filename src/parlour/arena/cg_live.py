"""CodinGame's current Patchwork protocol (``cg-live:COMMAND``), byte for byte as its live referee
writes it: the referee in ``../shared/anchors/cg-patchwork/`` (``Referee.kt``, ``BoardManager.kt``,
``LeagueConfig.kt`` at its level 4-5 "FULL" league) and ``statement_en_live.html.tpl``.

The rules document's protocol (``parlour.games.patchwork.protocol``) is the referee's first draft
of 2022-08-28 and stays the default; since 2022-09-03 CodinGame speaks this one. On its first
turn only a bot reads::

    9                                   income events
    5 11 17 23 29 35 41 47 53           their times
    5                                   special-patch events
    20 26 32 44 50                      their times

and on every turn (the first included)::

    5 0 0                               my buttons, my time, my earning
    .........                           my quilt, 9 rows ('O' patched, '.' empty)
    ...
    5 0 0                               the opponent's buttons, time, earning
    .........                           the opponent's quilt
    ...
    33                                  every patch still to be taken, in order (the first 3 on offer)
    7 1 3 2 OO.|.OO                     id earning button_price time_price shape
    ...
    0                                   the special patch to place (its id, minus its space), else 0
    1                                   how many moves the opponent made since this bot's last turn
    PLAY 12 3 4 0 1                     each as the referee logs it: SKIP, or PLAY id x y flip rotations

and answers ``SKIP`` or ``PLAY id x y [flip [rotations]]`` (x, y before flip and rotations, unlike
the rules document's ``PLAY id rotations flip x y``). As that referee does (its ``MoveModifier``), a
PLAY it cannot carry out (a patch not on offer, too dear, off the quilt, overlapping) becomes SKIP,
and a SKIP while holding the special patch places it on the first empty square (rows from the top,
each from the left); a line that is neither SKIP nor PLAY with three whole numbers loses the game.
Its time limits are 1000 ms for the first turn and 100 ms later (the rules document's: 50 ms).
``docs/bots.md`` documents it for bot authors.
"""

from __future__ import annotations

import random
from typing import Any

from ..core import Action, IllegalAction, View
from ..games.patchwork.engine import INCOME_TIMES, PATCHES, SIZE, SPECIAL_TIMES, Patchwork, State

PREFIX = "cg-live:"
GAME_ID = "patchwork"
TIME_LIMITS_MS = {"first_turn": 1000, "turn": 100}  # Referee.kt: firstTurnMaxTime, turnMaxTime
MAX_TURNS = 80  # Referee.kt: gameManager.maxTurns (Parlour plays every game to its end: docs/bots.md)
_INT32 = (-(1 << 31), (1 << 31) - 1)
_GAME = Patchwork()


def _int_or_none(word: str | None) -> int | None:
    """Kotlin's ``String.toIntOrNull``: an optional sign and ASCII digits, within 32 bits."""
    if word is None:
        return None
    digits = word[1:] if word[:1] in ("+", "-") else word
    if not digits or not digits.isascii() or not digits.isdigit():
        return None
    value = int(word)
    return value if _INT32[0] <= value <= _INT32[1] else None


def parse_move(line: str) -> Action:
    """The move a line of output asks for, read as ``Referee.parseOutput`` reads it (split on single
    spaces; a flip of 1 mirrors; rotations taken modulo 4); ValueError when it is an unknown command.

    >>> parse_move("PLAY 3 6 5 1 2")
    {'type': 'play', 'patch': 3, 'rotation': 2, 'flip': True, 'x': 6, 'y': 5}
    >>> parse_move("PLAY 3 1 2 hello")  # no flip, no rotation: the rest is a message
    {'type': 'play', 'patch': 3, 'rotation': 0, 'flip': False, 'x': 1, 'y': 2}
    """
    words = line.split(" ")
    if words[0] == "SKIP":
        return {"type": "skip"}
    if words[0] != "PLAY":
        shown = words[0] if len(words[0]) <= 20 else words[0][:17] + "..."
        raise ValueError(f"unknown command {shown!r} (only SKIP or PLAY are allowed)")
    pid, x, y = (_int_or_none(words[i] if i < len(words) else None) for i in (1, 2, 3))
    if pid is None or x is None or y is None:
        raise ValueError("unknown command: PLAY needs three whole numbers, PLAY id x y [flip rotations]")
    flip = _int_or_none(words[4] if len(words) > 4 else None)
    turns = _int_or_none(words[5] if len(words) > 5 else None)
    # Kotlin's % keeps the sign, and the referee indexes the 8 orientations with (flip ? 4 : 0) + it
    turns = 0 if turns is None else (abs(turns) % 4) * (1 if turns >= 0 else -1)
    index = (4 if flip == 1 else 0) + turns
    if index < 0:
        raise ValueError(f"unknown command: rotations {words[5]} without a flip names no orientation")
    return {"type": "play", "patch": pid, "rotation": index % 4, "flip": index >= 4, "x": x, "y": y}


def format_move(action: Action) -> str:
    """A move as the referee's log writes it (``Move.string()``)."""
    if action["type"] == "skip":
        return "SKIP"
    return (f"PLAY {action['patch']} {action['x']} {action['y']} {1 if action.get('flip') else 0}"
            f" {action.get('rotation', 0)}")


def initial_lines() -> list[str]:
    return [str(len(INCOME_TIMES)), " ".join(map(str, INCOME_TIMES)),
            str(len(SPECIAL_TIMES)), " ".join(map(str, SPECIAL_TIMES))]


def _player_lines(player: dict[str, Any]) -> list[str]:
    return [f"{player['buttons']} {player['time']} {player['income']}", *player["quilt"]]


def turn_lines(view: View, seat: int, opponent_moves: list[str]) -> list[str]:
    """One turn's input for ``seat`` (every turn's part), from its view and the opponent's moves."""
    me, opponent = view["players"][seat], view["players"][1 - seat]
    lines = _player_lines(me) + _player_lines(opponent)
    lines.append(str(len(view["circle"])))
    lines += [f"{pid} {p.income} {p.price} {p.time} {p.shape}" for pid, p in ((pid, PATCHES[pid])
                                                                         for pid in view["circle"])]
    special = me["special_patches"]
    lines.append(str(special[0]) if special else "0")
    lines.append(str(len(opponent_moves)))
    return lines + opponent_moves


def first_free(state: State, seat: int) -> tuple[int, int]:
    """The first empty square of ``seat``'s quilt, rows from the top, each from the left."""
    quilt = state.quilts[seat]
    for y in range(SIZE):
        for x in range(SIZE):
            if not quilt >> (y * SIZE + x) & 1:
                return x, y
    raise IllegalAction("no empty square is left for the special patch")


def corrected(state: State, seat: int, action: Action) -> tuple[Action, str | None]:
    """The move the live referee makes of ``action`` (its ``MoveModifier``), and why it changed it."""
    why = None
    if action["type"] == "play":
        try:
            _GAME.check(state, seat, action)
            return action, None
        except IllegalAction as error:
            why = f"PLAY refused ({error}): SKIP instead"
    pending = state.pending[seat]
    if not pending:
        return {"type": "skip"}, why
    x, y = first_free(state, seat)
    return ({"type": "play", "patch": pending[0], "rotation": 0, "flip": False, "x": x, "y": y},
            (why + "; " if why else "") + "cannot SKIP while holding the special patch: placed on the first"
                                          " empty square")


def opponent_moves(before: State, now: State, seat: int) -> list[Action]:
    """The opponent's moves that lead from ``before`` (just after ``seat``'s last move) to ``now``:
    its patches in the order sewn, a SKIP where one must have been (a SKIP ends a player's run of
    turns, but for the special patches it wins)."""
    opponent = 1 - seat
    done = len(before.placed[opponent])
    moves: list[Action] = []
    state = before
    skip: Action = {"type": "skip"}
    try:
        for pid, rotation, flip, x, y in now.placed[opponent][done:]:
            if pid < 0 and pid not in state.pending[opponent]:
                state = _GAME.apply(state, opponent, skip)
                moves.append(skip)
            move = {"type": "play", "patch": pid, "rotation": rotation, "flip": flip, "x": x, "y": y}
            state = _GAME.apply(state, opponent, move)
            moves.append(move)
        if state.time[opponent] != now.time[opponent]:
            moves.append(skip)
    except IllegalAction:  # the views do not follow each other (cannot happen in one game): tell what is known
        pass
    return moves


class CgLiveProtocol:
    """One seat's conversation with a program speaking CodinGame's live protocol, for one game.
    ``opening`` is a view of the game's first state. ``corrections`` lists each move the live
    referee would have changed, as it would say it (the arena adds them to the bot's log file)."""

    name = "cg-live"
    needs_legal = False
    time_limits_ms = TIME_LIMITS_MS

    def __init__(self, opening: View, seat: int) -> None:
        self.after = self._state(opening, seat)  # the game just after this seat's last move
        self.corrections: list[str] = []
        self.turns = 0  # the bot's answers so far

    @staticmethod
    def _state(view: View, seat: int) -> State:
        return _GAME.sample(view, seat, random.Random(0))  # Patchwork hides nothing: the one state there is

    def turn_input(self, view: View, seat: int, legal: list[Action] | None, first: bool) -> str:
        moves = [format_move(m) for m in opponent_moves(self.after, self._state(view, seat), seat)]
        lines = (initial_lines() if first else []) + turn_lines(view, seat, moves)
        return "\n".join(lines) + "\n"

    def parse(self, line: str, view: View, seat: int) -> Action:
        state = self._state(view, seat)
        self.turns += 1
        action, why = corrected(state, seat, parse_move(line))
        if why is not None:
            self.corrections.append(f"turn {self.turns}: {line[:80]!r}: {why}")
        self.after = _GAME.apply(state, seat, action)
        return action


def make_protocol(opening: View, seat: int) -> CgLiveProtocol:
    if opening.get("game") != GAME_ID:
        raise ValueError(f"cg-live: is CodinGame's Patchwork protocol; {opening.get('game')!r} does not speak it")
    return CgLiveProtocol(opening, seat)


