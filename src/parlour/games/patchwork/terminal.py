"""Patchwork in a terminal: drawing a seat's view with Rich, and reading moves typed in words.

The command ``parlour play`` finds this module by the game's package; it needs ``render``,
``parse_move`` and ``HELP``, and lists the moves with ``describe`` (the hall's coach and analyses
name a move with it too). Nothing here decides a rule: a move is parsed into an action and the
engine says whether it is legal.

>>> parse_move("play 12 r1 f 3 4", {"players": [{"special_patches": []}] * 2}, 0)
{'type': 'play', 'patch': 12, 'rotation': 1, 'flip': True, 'x': 3, 'y': 4}
>>> describe({"type": "play", "patch": 12, "rotation": 1, "flip": True, "x": 3, "y": 4}, {}, 0, ["Ana", "Bo"])[:60]
'buy patch 12 (5 buttons, 5 spaces, income 2) and sew it in, '
"""

from __future__ import annotations

import re
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...core import Action, View
from ...core.words import counted
from .engine import LAST_SPACE, SIZE, patch

HELP = """\
Moves (upper or lower case, commas optional):
  play 12 r1 f 3 4      buy patch 12, turned clockwise once, flipped, top-left corner at x=3, y=4
  p 12 3 4              the same patch unturned at x=3, y=4 ('play', 'p', 'buy' or nothing at all)
  12 rot 2 flip at 3,4  turns: r1 / rot 2 / rotate 3; flip: f / flip; place: 3 4 / 3,4 / at x3 y4
  PLAY 12 1 0 3 4       the CodinGame form: id, turns, flip (1 or 0), x, y
  sp 3 4                place the special patch you hold at x=3, y=4 (or just: 3 4)
  skip / s              move just in front of your opponent and take 1 button per space
Flip mirrors each row first, then the patch turns clockwise. x counts columns from 0 on the left,
y counts rows from 0 at the top, as CodinGame's form does; (x, y) is the top-left corner of the patch as
it is laid. The log counts squares from 1, as the rules page does: x=3, y=4 there is column 4, row 5.
Other words: help, board (draw it again), quit."""

_PLAY_WORDS = {"play", "p", "buy", "b", "take"}
_SKIP_WORDS = {"skip", "s", "pass", "advance"}
_ROTATE_WORDS = {"r", "rot", "rotate", "rotation", "rotated", "turn", "turns", "cw"}
_FLIP_WORDS = {"f", "flip", "flipped", "mirror", "mirrored"}
_SPECIAL_WORDS = {"sp", "special"}
_FILLER_WORDS = {"at", "patch", "to", "on"}


def parse_move(text: str, view: View, seat: int) -> Action:
    """The action that ``text`` asks for; ValueError saying what was not understood.

    Whether the move is legal is the engine's business, not the parser's.
    """
    tokens = re.findall(r"-?\d+|[a-z]+|[^\s,;=()]", text.lower())
    if not tokens:
        raise ValueError("type a move, or 'help'")
    if len(tokens) == 1 and tokens[0] in _SKIP_WORDS:
        return {"type": "skip"}
    pending = view["players"][seat]["special_patches"]
    pid: int | None = None
    rotation: int | None = None
    flip: bool | None = None
    x: int | None = None
    y: int | None = None
    numbers: list[int] = []
    i = 0
    while i < len(tokens):
        word = tokens[i]
        following = tokens[i + 1] if i + 1 < len(tokens) else None
        number_follows = following is not None and re.fullmatch(r"-?\d+", following) is not None
        if re.fullmatch(r"-?\d+", word):
            numbers.append(int(word))
        elif word in _PLAY_WORDS and i == 0 or word in _FILLER_WORDS:
            pass
        elif word in _SPECIAL_WORDS:
            if not pending:
                raise ValueError("you hold no special patch")
            pid = pending[0]
        elif word in _ROTATE_WORDS:
            if not number_follows:
                raise ValueError(f"'{word}' needs the number of clockwise turns after it, e.g. r1 or rot 2")
            rotation = int(following)  # type: ignore[arg-type]
            i += 1
        elif word in _FLIP_WORDS:
            flip = True
        elif word in ("x", "y"):
            if not number_follows:
                raise ValueError(f"'{word}' needs a number after it, e.g. x3 y4")
            if word == "x":
                x = int(following)  # type: ignore[arg-type]
            else:
                y = int(following)  # type: ignore[arg-type]
            i += 1
        else:
            raise ValueError(f"I do not understand {word!r}; type 'help' for the moves")
        i += 1
    if pid is None:
        if pending and len(numbers) == 2 and numbers[0] != pending[0] and (x, y) == (None, None):
            pid = pending[0]  # '3 4' while holding a special patch: where to put it
        elif not numbers:
            raise ValueError("which patch? e.g. 'play 12 3 4', or 'skip'")
        else:
            pid, numbers = numbers[0], numbers[1:]
    rotation, flip, x, y = _placement(numbers, rotation, flip, x, y)
    return {"type": "play", "patch": pid, "rotation": rotation, "flip": flip, "x": x, "y": y}


_TURNS = {1: "turned once clockwise", 2: "turned twice", 3: "turned once anticlockwise"}


def describe(action: Action, view: View, seat: int, names: list[str]) -> str:
    """A move in words, spoken to its player: the numbered list of moves, the coach's hint, the
    analysis' better move. Squares are counted from 1, as in the log and on the rules page."""
    if action["type"] == "skip":
        players = view["players"]
        spaces = min(players[1 - seat]["time"] + 1, view["last_space"]) - players[seat]["time"]
        return f"skip ahead {counted(spaces, 'space')} and take {counted(spaces, 'button')}"
    square = f"column {action['x'] + 1}, row {action['y'] + 1}"
    if action["patch"] < 0:
        return f"sew the special patch onto the square at {square}"
    how = " and ".join(word for word in ("flipped" if action.get("flip") else "", _TURNS.get(action["rotation"], ""))
                       if word)
    where = (f", {how}, " if how else " ") + f"with its top-left corner at {square}"
    p = patch(action["patch"])
    income = f", income {p.income}" if p.income else ""
    return f"buy patch {p.id} ({counted(p.price, 'button')}, {counted(p.time, 'space')}{income}) and sew it in{where}"


def _placement(numbers: list[int], rotation: int | None, flip: bool | None, x: int | None, y: int | None
               ) -> tuple[int, bool, int, int]:
    """(turns, flip, x, y) of a move from the numbers after its patch and the words given."""
    if len(numbers) == 4 and rotation is None and flip is None and (x, y) == (None, None):
        rotation, flip_number, x, y = numbers  # the CodinGame form: id turns flip x y
        if flip_number not in (0, 1):
            raise ValueError(f"in 'id turns flip x y' the flip is 1 or 0, not {flip_number}")
        flip = bool(flip_number)
    elif len(numbers) == 2 and (x, y) == (None, None):
        x, y = numbers
    elif numbers or x is None or y is None:
        raise ValueError("where? give the top-left corner as two numbers x y, e.g. 'play 12 3 4'")
    return rotation or 0, bool(flip), x, y


# --- drawing ------------------------------------------------------------------------------------

PALETTE = ("red", "green", "blue", "magenta", "cyan", "yellow", "bright_red", "bright_green",
           "bright_blue", "bright_magenta", "bright_cyan", "dark_orange", "purple", "spring_green3",
           "deep_pink3", "steel_blue", "gold3", "orchid", "chartreuse3", "turquoise2")
SPECIAL_COLOUR = "bold white on grey30"


def patch_colour(pid: int) -> str:
    """Each of the 33 patches keeps one colour wherever it is drawn; special patches are white."""
    return SPECIAL_COLOUR if pid < 0 else PALETTE[pid % len(PALETTE)]


def _quilt_owner(placed: list[dict[str, Any]]) -> dict[int, int]:
    """Which patch id covers each square index, from the placements in the view."""
    owner = {}
    for p in placed:
        o = patch(p["patch"]).by_key[(p["rotation"], bool(p["flip"]))]
        corner = p["y"] * SIZE + p["x"]
        for offset in o.offsets:
            owner[corner + offset] = p["patch"]
    return owner


def draw_quilt(player: dict[str, Any], title: str) -> Panel:
    owner = _quilt_owner(player["placed"])
    text = Text()
    text.append("   " + " ".join(f"{x}" for x in range(SIZE)) + "\n", style="dim")
    for y in range(SIZE):
        text.append(f"{y}  ", style="dim")
        for x in range(SIZE):
            pid = owner.get(y * SIZE + x)
            if pid is None:
                text.append("· ", style="grey50")
            else:
                text.append("█", style=patch_colour(pid))
                text.append("█" if x < SIZE - 1 and owner.get(y * SIZE + x + 1) == pid else " ",
                            style=patch_colour(pid))
        text.append("\n")
    text.append(f"buttons {player['buttons']}  income {player['income']}  time {player['time']}\n")
    text.append(f"empty {player['empty']}  score now {player['score']}")
    if player["bonus"]:
        text.append("  +7 bonus", style="bold yellow")
    if player["special_patches"]:
        text.append(f"\nto place: special patch {player['special_patches'][0]}", style="bold")
    return Panel(text, title=title, expand=False)


def draw_patch(pid: int, buttons: int | None = None, label: str = "") -> Panel:
    p = patch(pid)
    shape = Text()
    for row in p.shape.split("|"):
        for ch in row:
            shape.append("██" if ch == "O" else "  ", style=patch_colour(pid))
        shape.append("\n")
    affordable = buttons is None or p.price <= buttons
    shape.append(f"{p.price} button{'' if p.price == 1 else 's'}", style="" if affordable else "red")
    shape.append(f"\n{p.time} time\n{p.income} income")
    return Panel(shape, title=f"{label}patch {pid}", expand=False,
                 border_style="bright_white" if affordable else "grey42")


def draw_time_track(view: View, names: list[str]) -> Text:
    """Spaces 0 to 53: tokens as 1 and 2, income spaces as $, special patches not yet taken as ◆."""
    players = view["players"]
    income, specials = set(view["income_times"]), set(view["specials_left"])
    line = Text()
    for space in range(LAST_SPACE + 1):
        here = [s for s in (0, 1) if players[s]["time"] == space]
        if len(here) == 2:
            line.append("⓵" if view["last_mover"] == 0 else "⓶", style="bold reverse")
        elif here:
            line.append(str(here[0] + 1), style="bold reverse " + ("cyan" if here[0] == 0 else "magenta"))
        elif space in specials:
            line.append("◆", style="bold yellow")
        elif space in income:
            line.append("$", style="green")
        else:
            line.append("·" if space % 10 else "|", style="grey50")
    out = Text()
    out.append("time track 0-53 (1, 2 tokens; $ button income; ◆ special patch)\n", style="dim")
    out.append_text(line)
    for s in (0, 1):
        t = players[s]["time"]
        ahead_income = [u for u in view["income_times"] if u > t]
        ahead_special = [u for u in view["specials_left"] if u > t]
        out.append(f"\n{s + 1} {names[s]}: space {t}; ")
        out.append(f"next income at {ahead_income[0]} ({len(ahead_income)} left)" if ahead_income
                   else "no income left")
        if ahead_special:
            out.append(f"; next special patch at {ahead_special[0]}")
    return out


def render(view: View, seat: int | None, names: list[str]) -> RenderableType:
    """Everything a player needs to choose a move: both quilts, the offer, the time track."""
    players = view["players"]
    quilts = Columns([draw_quilt(players[s], f"player {s + 1}: {names[s]}")
                      for s in (0, 1)])
    buttons = players[seat]["buttons"] if seat is not None else None
    pending = players[seat]["special_patches"] if seat is not None else []
    if pending:
        offer: RenderableType = Columns([draw_patch(pending[0], label="special ")])
    else:
        offer = Columns([draw_patch(pid, buttons) for pid in view["offer"]])
    upcoming = view["circle"][3:9]
    after = Text(f"then in the circle: {', '.join(map(str, upcoming))}" if upcoming else "", style="dim")
    return Group(quilts, Text("On offer:" if not pending else "You must place:", style="bold"), offer,
                 after, draw_time_track(view, names))


def render_result(view: View, names: list[str]) -> Table:
    result = view["result"]
    table = Table(title="Final scores")
    for column in ("player", "score", "buttons", "empty squares", "7x7 bonus", "rank"):
        table.add_column(column)
    for s, player in enumerate(view["players"]):
        table.add_row(f"{s + 1} {names[s]}", str(player["score"]), str(player["buttons"]),
                      str(player["empty"]), "yes" if player["bonus"] else "", str(result["ranks"][s]))
    return table
