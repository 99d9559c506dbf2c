"""Palace in a terminal: a seat's view drawn with Rich, and moves typed with the cards' codes or picked by
number from the list under the board.

``parlour play palace`` finds this module by the game's package (``render``, ``parse_move``,
``describe``, ``HELP``). Nothing here decides a rule: the engine says whether a move is legal.

>>> parse_move("play 7h 7d", {}, 0)
{'type': 'play', 'cards': ['7H', '7D']}
>>> parse_move("play joker as 10", {}, 0)
{'type': 'play', 'cards': ['joker'], 'as': '10'}
"""

from __future__ import annotations

import re

from rich.console import RenderableType
from rich.text import Text

from ...core import Action, View

HELP = """\
Moves (upper or lower case), or the number of a move in the list under the board:
  play 7h 7d            play cards of one value: 2..10, J, Q, K, A with a suit (H, D, C, S),
                        joker, rules, social, cardinal
  play joker as 10      a joker names what it plays as (2..10, J, Q, K, A, rules, social, cardinal)
  take / t              take the play pile (only when nothing can be played)
  flip 1 / f            turn over a face-down (the first, or the one you name)
  swap 2 3              after a Cardinal: swap the hands of players 2 and 3 (numbered from 1)
  no / n                after a Cardinal: no more swaps
A card goes on the same value or higher (Aces high). 2s and 3s go on anything but a Rules card;
3s, 7s, Rules, Social and Cardinal cards are invisible; a 7 turns play back for one turn; an 8
skips the next player; on a 9 play 9 or lower; a 10 burns the pile and its player plays again;
four of a value burn it too, and play goes on (burning 7s and 8s still turn back and skip).
Other words: help, board (draw it again), quit."""

SUIT = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}
SCHOOL = {"joker": "Joker", "rules": "Rules", "social": "Social", "cardinal": "Cardinal"}
VALUES = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", *SCHOOL}


def label(code: str) -> str:
    return SCHOOL[code] if code in SCHOOL else f"{code[:-1]}{SUIT[code[-1]]}"


def _code(word: str) -> str:
    if word in SCHOOL:
        return word
    code = word.upper()
    if re.fullmatch(r"(10|[2-9JQKA])[HDCS]", code):
        return code
    raise ValueError(f"{word!r} is not a card: write it like 7h, 10s, qd, joker, rules, social, cardinal")


def parse_move(text: str, view: View, seat: int) -> Action:
    """The action that ``text`` asks for; ValueError saying what was not understood."""
    words = text.lower().replace(",", " ").split()
    if not words:
        raise ValueError("type a move, or 'help'")
    verb, rest = words[0], words[1:]
    if verb in ("take", "t") and not rest:
        return {"type": "take"}
    if verb in ("no", "n", "no_swap") and not rest:
        return {"type": "no_swap"}
    if verb in ("flip", "f") and len(rest) <= 1:
        if rest and not rest[0].isdigit():
            raise ValueError("flip takes the number of a face-down, from 1")
        return {"type": "flip", "index": int(rest[0]) - 1 if rest else 0}
    if verb == "swap" and len(rest) == 2 and all(w.isdigit() for w in rest):
        return {"type": "swap", "seats": [int(rest[0]) - 1, int(rest[1]) - 1]}
    if verb in ("play", "p"):
        as_value = None
        if "as" in rest:
            at = rest.index("as")
            if at != len(rest) - 2:
                raise ValueError("'as' comes last, with one value: play joker as 10")
            as_value = rest[-1] if rest[-1] in SCHOOL else rest[-1].upper()
            if as_value not in VALUES or as_value == "joker":
                raise ValueError(f"a joker cannot play as {rest[-1]!r}")
            rest = rest[:at]
        if not rest:
            raise ValueError("play which cards? e.g. play 7h 7d")
        action: Action = {"type": "play", "cards": [_code(w) for w in rest]}
        if as_value is not None:
            action["as"] = as_value
        return action
    raise ValueError(f"I do not understand {text.strip()!r}; type 'help' for the moves")


def describe(action: Action, view: View, seat: int, names: list[str]) -> str:
    """One line for the numbered list of moves."""
    kind = action["type"]
    if kind == "play":
        shown = " ".join(label(c) for c in action["cards"])
        return f"play {shown}" + (f" as {SCHOOL.get(action['as'], action['as'])}" if "as" in action else "")
    if kind == "flip":
        return f"turn over face-down {action['index'] + 1}"
    if kind == "swap":
        a, b = action["seats"]
        return f"swap the hands of {names[a]} and {names[b]}"
    return {"take": "take the play pile", "no_swap": "make no more swaps"}.get(kind, str(kind))


def render(view: View, seat: int | None, names: list[str]) -> RenderableType:
    """Every player's table cards, the piles, the card that counts, and your hand."""
    out = Text()
    for s, p in enumerate(view["players"]):
        out.append(f"{s + 1} {names[s]}: ", style="bold" if s == view.get("current") else "")
        if p["place"]:
            out.append(f"out, place {p['place']}\n", style="green")
            continue
        out.append(f"hand {p['hand_count']}")
        if s != seat and p["known_hand"]:
            out.append(" (known: " + " ".join(label(c) for c in p["known_hand"]) + ")")
        out.append("; face-ups " + (" ".join(label(c) for c in p["face_ups"]) or "none"))
        out.append(f"; face-downs {p['face_downs']}\n")
    pile = view["play_pile"]
    top = " ".join(label(e["card"]) + (f"={SCHOOL.get(e['as'], e['as'])}" if e["card"] == "joker" else "")
                   for e in pile[-6:])
    out.append(f"Play pile ({len(pile)}): {top or 'empty'}", style="bold")
    if view["counts"] is not None:
        out.append(f"   the card that counts: {SCHOOL.get(view['counts'], view['counts'])}"
                   + (" (a 9: play 9 or lower)" if view["capped"] else "")
                   + (", a Rules card on top" if view["rules_on_top"] else ""))
    out.append(f"\nPick-up pile {view['pick_up_pile']}, burnt {len(view['burn_pile'])}; play goes "
               + ("up" if view["direction"] == 1 else "down") + " the seats\n")
    if seat is not None and view["players"][seat]["hand"] is not None:
        hand = " ".join(label(c) for c in sorted(view["players"][seat]["hand"], key=_order))
        out.append(f"Your hand: {hand or 'empty'}\n", style="bold")
    return out


def _order(code: str) -> int:
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "joker", "rules", "social", "cardinal"]
    return ranks.index(code if code in SCHOOL else code[:-1])


def render_result(view: View, names: list[str]) -> Text:
    order = view["finished"]
    return Text("Finishing order: " + ", ".join(f"{k + 1}. {names[s]}" for k, s in enumerate(order)))
