"""Prestige Cities in a terminal: a seat's view drawn with Rich, and blocks placed by typing their square.

``parlour play prestige_cities`` finds this module by the game's package (``render``,
``parse_move``, ``describe``, ``HELP``). Nothing here decides a rule: the engine says whether a move
is legal.

Squares are counted from 1 at the top left, as the rules page and the log count them; the
actions count from 0:

>>> parse_move("build r 3 4", {"task": {"kind": "pick"}}, 0)
{'type': 'build', 'block': 'residential', 'row': 2, 'col': 3}
>>> parse_move("3 4", {"task": {"kind": "build", "block": "parks"}}, 0)
{'type': 'build', 'block': 'parks', 'row': 2, 'col': 3}
"""

from __future__ import annotations

import re

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core import Action, View
from ...core.words import number

HELP = """\
Place one block at a time: a round's blocks go one square after another, all touching.
  build r 3 4 / b r 3 4   a Residential block on row 3, column 4 (rows and columns from 1)
  3 4                     the next block of the type you are building, on row 3, column 4
Block letters: I Industry, C Commerce, R Residential, U Culture, P Parks (or their names).
The first block of a round chooses the die: 'b i 1 1' takes the Industry die.
  remove 3 4              a catastrophe: remove the block on row 3, column 4 of your target's city
  blight 3 4 / convert 3 4   put the Blight there / change the block there (bonus cards)
  stop                    no more blocks of a bonus card (both decks say "may" or "up to")
When few moves are open they are listed under the board: type a move's number to make it.
  cards                   the bonus cards in full
Scores: Culture = Culture blocks in the Inner District (its empty squares show ':');
Wealth = (Industry + Commerce) / 2 + 1 per Commerce inside it; Happiness = per home, -1 next to
Industry, +1 next to Parks, +1 next to Culture. Overall = the two lowest of the three + bonus.
Other words: help, board (draw it again), quit."""

LETTER = {"I": "industry", "C": "commerce", "R": "residential", "U": "culture", "P": "parks", "B": "blight"}
STYLE = {"I": "black on yellow", "C": "white on blue", "R": "white on red", "U": "white on purple",
         "P": "white on green", "B": "white on grey30", "M": "black on grey62", ".": "grey50"}


def _block(word: str) -> str:
    word = word.lower()
    for letter, name in LETTER.items():
        if word in (letter.lower(), name, name[:4]):
            return name
    raise ValueError(f"{word!r} is not a block: I, C, R, U, P (Industry, Commerce, Residential, Culture, Parks)")


def parse_move(text: str, view: View, seat: int) -> Action:
    """The action that ``text`` asks for; ValueError saying what was not understood."""
    words = re.findall(r"[a-z]+|\d+", text.lower())
    if words == ["stop"] or words == ["s"]:
        return {"type": "stop"}
    numbers = [int(w) for w in words if w.isdigit()]
    names = [w for w in words if not w.isdigit()]
    if len(numbers) != 2:
        raise ValueError("give the square as two numbers, row then column: e.g. 'build r 3 4' or '3 4'")
    if min(numbers) < 1:
        raise ValueError("rows and columns are counted from 1 at the top left")
    row, col = numbers[0] - 1, numbers[1] - 1  # the actions count from 0
    task = view.get("task") or {}
    verb = names[0] if names else None
    if verb in ("remove", "blight", "convert"):
        return {"type": verb, "row": row, "col": col}
    if verb in ("build", "b"):
        names = names[1:]
    if len(names) > 1:
        raise ValueError(f"I do not understand {text.strip()!r}; type 'help' for the moves")
    if names:
        block = _block(names[0])
    elif task.get("kind") == "remove":
        return {"type": "remove", "row": row, "col": col}
    elif task.get("kind") in ("blight", "convert"):
        return {"type": task["kind"], "row": row, "col": col}
    elif task.get("block"):
        block = task["block"]
    else:
        raise ValueError("which block? e.g. 'build r 3 4' for Residential on row 3, column 4")
    return {"type": "build", "block": block, "row": row, "col": col}


def describe(action: Action, view: View, seat: int, names: list[str]) -> str:
    """One line for the numbered list of moves."""
    kind = action["type"]
    if kind == "stop":
        building = (view.get("task") or {}).get("kind") == "build"
        return "add no more of the bonus card's blocks" if building else "stop changing blocks"
    where = f"row {action['row'] + 1}, column {action['col'] + 1}"
    if kind == "build":
        return f"build {action['block'].capitalize()} on {where}"
    return f"{kind} on {where}"


def city(view: View, seat: int, title: str) -> Text:
    rows = view["cities"][seat]["rows"]
    (r0, r1), (c0, c1) = view["board"]["inner_rows"], view["board"]["inner_cols"]
    out = Text(f"{title}\n", style="bold")
    out.append("    " + " ".join(str(c + 1) for c in range(len(rows[0]))) + "\n", style="dim")
    for r, row in enumerate(rows):
        out.append(f" {r + 1}  ", style="dim")
        for c, letter in enumerate(row):
            inner = r0 <= r <= r1 and c0 <= c <= c1
            shown = letter if letter != "." else (":" if inner else "·")
            out.append(shown, style=STYLE.get(letter, ""))
            out.append(" ")
        out.append("\n")
    if view["board"]["ocean"]:
        out.append("    " + "~ " * len(rows[0]) + " the ocean\n", style="blue")
    return out


def render(view: View, seat: int | None, names: list[str]) -> RenderableType:
    """The era and its dice, your city (or your catastrophe's target), the scores and the task."""
    out = Text()
    era = view["era"]
    out.append(f"Round {view['round']}: {era['name']}. ", style="bold")
    out.append(f"{era['rule']}\n")
    if view["dice"]:
        dice = (f"{d['block'].capitalize()} {d['value']}" + ("" if d["usable"] else " (not usable)")
                for d in view["dice"])
        out.append("Dice: " + ", ".join(dice) + "\n")
    me = 0 if seat is None else seat
    task = view.get("task")
    shown = task["target"] if task and task.get("kind") == "remove" else me
    out.append_text(city(view, shown, "Your city" if shown == seat else f"{names[shown]}'s city (your target)"))
    table = Table(title=None, box=None)
    for column in ("city", "culture", "wealth", "happiness", "bonus", "overall"):
        table.add_column(column)
    for s, c in enumerate(view["cities"]):
        table.add_row(names[s], *(str(c[k]) for k in ("culture", "wealth", "happiness", "bonus", "overall")))

    def earned(winners: list[int] | None) -> str:
        return ")" if winners is None else f", earned by {', '.join(names[w] for w in winners) or 'nobody'})"

    cards = (f"{b['name']} (deck {b['deck']}" + earned(b["winners"]) for b in view["bonus_cards"])
    bonus = Text("Bonus cards: " + "; ".join(cards) + " - 'cards' says what each asks\n", style="dim")
    now = Text(f"Now: {task['text']}" if task else "", style="bold")
    return Group(out, table, bonus, now)


def cards(view: View) -> str:
    """The bonus cards in full, for the word 'cards'."""
    return "\n".join(f"Deck {b['deck']}, {b['name']}: {b['text']}" for b in view["bonus_cards"])


WORDS = {"cards": cards}  # words of this game besides the moves (parlour play)


def render_result(view: View, names: list[str]) -> Text:
    result = view["result"]
    return Text("Final scores: " + ", ".join(f"{names[s]} {number(result['scores'][s])} (rank {result['ranks'][s]})"
                                             for s in range(len(names))))
